package org.openmft.agent.transfer.sandbox;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import org.openmft.agent.transfer.files.Access;
import org.openmft.agent.transfer.files.RealPaths;
import org.openmft.agent.transfer.files.Sandbox;
import org.openmft.agent.transfer.files.SandboxViolationException;

/**
 * The sandbox one {@code <sandbox>} of {@code UserSandboxes.xml} gives a requesting user: a file may
 * be read (written) when its real location matches at least one {@code <include>} of the
 * {@code <read>} ({@code <write>}) rules and no {@code <exclude>}; without a {@code <read>}
 * ({@code <write>}) element nothing may be read (written). Rules of {@code type="queue"} say nothing
 * about files; they judge queues the same way, by name ({@code QUEUE} or {@code QUEUE@QMGR} as the
 * request names it; {@code *} and {@code **} any characters, {@code ?} one).
 *
 * <p>Directories are judged for what may be done with their files: one may be listed, or files
 * created in it, when an include could match something in it (or the directory itself) and no
 * exclude covers it and everything below it. A {@code .part} file follows its final name: it must
 * really be in the final file's directory, not a link leading elsewhere.
 *
 * <p>Immutable and thread-safe.
 */
final class UserSandbox implements Sandbox {

    /** A compiled {@code <include>} or {@code <exclude>} of type file. */
    record Rule(PathPattern pattern, int line) {
        @Override
        public String toString() {
            return "\"" + pattern + "\" (line " + line + ")";
        }
    }

    /**
     * The file rules of a {@code <read>} or {@code <write>}.
     *
     * @param includes the includes of type file, in file order
     * @param excludes the excludes of type file, in file order
     */
    record Rules(List<Rule> includes, List<Rule> excludes) {
        Rules {
            includes = List.copyOf(includes);
            excludes = List.copyOf(excludes);
        }
    }

    /** A compiled {@code <include>} or {@code <exclude>} of type queue. */
    record QueueRule(String name, Glob pattern, int line) {
    }

    /** The queue rules of a {@code <read>} or {@code <write>}. */
    record QueueRules(List<QueueRule> includes, List<QueueRule> excludes) {
        QueueRules {
            includes = List.copyOf(includes);
            excludes = List.copyOf(excludes);
        }
    }

    private final String user;
    private final String entry;
    private final Rules read;
    private final Rules write;
    private final QueueRules readQueues;
    private final QueueRules writeQueues;

    /**
     * @param user the requesting user
     * @param entry the sandbox in words, for messages, such as {@code <sandbox user="account*"> (line 9)}
     * @param read the read rules, or null when there is no {@code <read>}
     * @param write the write rules, or null when there is no {@code <write>}
     */
    UserSandbox(String user, String entry, Rules read, Rules write) {
        this(user, entry, read, write, null, null);
    }

    /**
     * @param readQueues the queue rules of {@code <read>}, or null when there is none
     * @param writeQueues the queue rules of {@code <write>}, or null when there is none
     */
    UserSandbox(String user, String entry, Rules read, Rules write, QueueRules readQueues, QueueRules writeQueues) {
        this.user = user;
        this.entry = entry;
        this.read = read;
        this.write = write;
        this.readQueues = readQueues;
        this.writeQueues = writeQueues;
    }

    @Override
    public void checkQueue(String queue, Access access) throws SandboxViolationException {
        QueueRules rules = access == Access.READ ? readQueues : writeQueues;
        String verb = access == Access.READ ? "read" : "write";
        if (rules == null) {
            throw queueRefusal(queue, access, "the sandbox for user '" + user + "', " + entry + ", has no <" + verb
                    + "> element", entry);
        }
        for (QueueRule exclude : rules.excludes()) {
            if (exclude.pattern().matches(queue)) {
                throw queueRefusal(queue, access, "it matches <exclude name=\"" + exclude.name()
                        + "\" type=\"queue\"> (line " + exclude.line() + ") of the sandbox for user '" + user + "', "
                        + entry, "exclude " + exclude.name());
            }
        }
        for (QueueRule include : rules.includes()) {
            if (include.pattern().matches(queue)) {
                return;
            }
        }
        throw queueRefusal(queue, access, "the sandbox for user '" + user + "', " + entry + ", allows no queue "
                + verb + "s there (no <include type=\"queue\"> matches)", entry);
    }

    /** A refusal of a queue, worded as IBM's BFGIO0056E/BFGIO0057E for files. */
    static SandboxViolationException queueRefusal(String queue, Access access, String why, String rule) {
        String id = access == Access.READ ? "BFGIO0056E" : "BFGIO0057E";
        return new SandboxViolationException("The " + (access == Access.READ ? "read from" : "write to")
                + " queue \"" + queue + "\" is refused: " + why + ".", queue, access, rule, id);
    }

    @Override
    public boolean isRestricted() {
        return true;
    }

    @Override
    public void check(Path path, Access access) throws SandboxViolationException {
        judge(path, access, false);
    }

    @Override
    public void checkDirectory(Path directory, Access access) throws SandboxViolationException {
        judge(directory, access, true);
    }

    @Override
    public void checkPartFile(Path partFile, Path finalFile) throws SandboxViolationException {
        refuseParentSegments(partFile, Access.WRITE);
        Path realPart = real(partFile, Access.WRITE, false);
        Path realFinal = real(finalFile, Access.WRITE, false);
        if (realPart.getParent() == null || !realPart.getParent().equals(realFinal.getParent())
                || !realPart.getFileName().equals(partFile.getFileName())) {
            throw Refusals.refuse(partFile, realPart, Access.WRITE, false, "the temporary file of \"" + finalFile
                    + "\" must be in the same directory, not lead elsewhere", entry);
        }
    }

    private void judge(Path path, Access access, boolean directory) throws SandboxViolationException {
        refuseParentSegments(path, access);
        Path real = real(path, access, directory);
        Rules rules = access == Access.READ ? read : write;
        String verb = access == Access.READ ? "read" : "write";
        if (rules == null) {
            throw Refusals.refuse(path, real, access, directory, "the sandbox for user '" + user + "', " + entry
                    + ", has no <" + verb + "> element, so it allows no " + verb + "s", entry);
        }
        for (Rule exclude : rules.excludes()) {
            if (directory ? exclude.pattern().coversTree(real) : exclude.pattern().matches(real)) {
                throw Refusals.refuse(path, real, access, directory, "it matches <exclude name=\""
                        + exclude.pattern() + "\"> (line " + exclude.line() + ") of the sandbox for user '" + user
                        + "', " + entry, "exclude " + exclude);
            }
        }
        for (Rule include : rules.includes()) {
            if (include.pattern().matches(real) || directory && include.pattern().mayContain(real)) {
                return;
            }
        }
        throw Refusals.refuse(path, real, access, directory, "the sandbox for user '" + user + "', " + entry
                + ", allows " + verb + "s " + (rules.includes().isEmpty() ? "nowhere (no <include>)"
                        : "only in " + rules.includes().stream().map(Rule::toString).collect(Collectors.joining(", "))),
                entry);
    }

    private static void refuseParentSegments(Path path, Access access) throws SandboxViolationException {
        if (RealPaths.hasParentSegment(path)) {
            throw new SandboxViolationException(access + " of \"" + path + "\" is refused: paths may not contain"
                    + " '..' segments", path.toString(), access, "no '..' segments");
        }
    }

    private Path real(Path path, Access access, boolean directory) throws SandboxViolationException {
        try {
            return RealPaths.resolve(path.toAbsolutePath().normalize());
        } catch (IOException e) {
            throw Refusals.refuse(path, null, access, directory, "its real location cannot be determined (" + e
                    + ")", entry);
        }
    }

    @Override
    public String toString() {
        return "user sandbox of '" + user + "', " + entry;
    }
}
