package org.openmft.agent.transfer.sandbox;

import java.nio.file.Path;

import org.openmft.agent.transfer.files.Access;
import org.openmft.agent.transfer.files.Sandbox;
import org.openmft.agent.transfer.files.SandboxViolationException;

/**
 * The sandbox of a requester who may touch no file at all, saying why: no {@code <sandbox>} matches
 * the user, the request carries no validated user, or {@code UserSandboxes.xml} is missing.
 * Immutable.
 *
 * @param why the reason, a clause without a final full stop
 * @param rule what refused, for {@link SandboxViolationException#rule()}
 */
record ClosedSandbox(String why, String rule) implements Sandbox {

    @Override
    public boolean isRestricted() {
        return true;
    }

    @Override
    public void check(Path path, Access access) throws SandboxViolationException {
        throw Refusals.refuse(path, null, access, false, why, rule);
    }

    @Override
    public void checkDirectory(Path directory, Access access) throws SandboxViolationException {
        throw Refusals.refuse(directory, null, access, true, why, rule);
    }

    @Override
    public void checkPartFile(Path partFile, Path finalFile) throws SandboxViolationException {
        throw Refusals.refuse(partFile, null, Access.WRITE, false, why, rule);
    }

    @Override
    public void checkQueue(String queue, Access access) throws SandboxViolationException {
        throw UserSandbox.queueRefusal(queue, access, why, rule);
    }
}
