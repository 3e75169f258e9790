package org.openmft.agent.transfer.files;

import java.nio.file.Path;

/**
 * Where a transfer may read and write: the agent sandbox ({@link SandboxRules}, {@code sandboxRoot})
 * or the user sandbox of the transfer's requester ({@code userSandboxes}, see
 * {@code org.openmft.agent.transfer.sandbox}). Every file a transfer opens is checked here first,
 * by its real location: symbolic links are followed, so a link inside a sandbox that leads out of
 * it is refused. A path with a {@code ..} segment is refused by every sandbox.
 *
 * <p>Implementations are immutable and thread-safe.
 */
public interface Sandbox {

    /** @return whether anything is restricted beyond {@code ..} segments */
    boolean isRestricted();

    /**
     * Checks that a file may be read or written.
     *
     * @param path the file, absolute (a relative one is taken against the working directory)
     * @param access what the agent wants to do with it
     * @throws SandboxViolationException naming the path and the rule that refuses it
     */
    void check(Path path, Access access) throws SandboxViolationException;

    /**
     * Checks that a directory may be listed ({@link Access#READ}: a wildcard's directory, one met
     * in a recursive walk) or that files may be created in it ({@link Access#WRITE}: a destination
     * directory). The files themselves are checked one by one with {@link #check}.
     *
     * <p>By default a directory is judged as a file is, which suits {@code sandboxRoot}'s directory
     * trees; a sandbox whose rules name files (such as {@code /data/*.csv}) lets a directory be
     * used when some of its files could be allowed.
     *
     * @param directory the directory, absolute
     * @param access listing (READ) or creating files (WRITE)
     * @throws SandboxViolationException naming the directory and the rule that refuses it
     */
    default void checkDirectory(Path directory, Access access) throws SandboxViolationException {
        check(directory, access);
    }

    /**
     * Checks the temporary file an item is written to before it gets its final name, once the final
     * name passed {@link #check} for {@link Access#WRITE}. The temporary file is never followed if it
     * is a link, but it must not be one that leads elsewhere either.
     *
     * <p>By default it is judged as any file written; a sandbox whose rules name files lets it
     * follow its final name.
     *
     * @param partFile the temporary file ({@code <name>.part}), in the final file's directory
     * @param finalFile its final name, already checked
     * @throws SandboxViolationException naming the temporary file and why it is refused
     */
    default void checkPartFile(Path partFile, Path finalFile) throws SandboxViolationException {
        check(partFile, Access.WRITE);
    }

    /**
     * Checks that a transfer may put messages on ({@link Access#WRITE}) or take them from
     * ({@link Access#READ}) a queue. IBM's agent sandbox ({@code sandboxRoot}) says nothing about
     * queues, so by default every queue may be used; user sandboxes judge queues by their
     * {@code type="queue"} rules.
     *
     * @param queue the queue as named in the request ({@code QUEUE} or {@code QUEUE@QMGR})
     * @param access put (WRITE) or get (READ)
     * @throws SandboxViolationException when it may not
     */
    default void checkQueue(String queue, Access access) throws SandboxViolationException {
    }
}
