package org.openmft.agent.transfer.sandbox;

import java.nio.file.Path;

import org.openmft.agent.transfer.files.Access;
import org.openmft.agent.transfer.files.SandboxViolationException;

/**
 * The words of a user sandbox's refusals: IBM's message for a read outside the sandbox,
 * {@code BFGIO0056E} ("Attempt to read file ... has been denied. The file is located outside of the
 * restricted transfer sandbox."), and its counterpart for writes, followed by why in OpenMFT's words
 * (which rule, which sandbox, which user), so that an administrator can tell what to change.
 * Stateless.
 */
final class Refusals {

    /** IBM's message id for a read outside the sandbox (APAR IT11742). */
    static final String READ_ID = "BFGIO0056E";
    /**
     * The id given to a write outside the sandbox. IBM documents "a similar message" for writes; its
     * id is recalled, not verified (reference §7.4).
     */
    static final String WRITE_ID = "BFGIO0057E";

    private Refusals() {
    }

    /**
     * A refusal.
     *
     * @param path the path as the transfer names it
     * @param real where it really leads, or null when not known
     * @param access what the agent wanted to do
     * @param directory whether the path was judged as a directory
     * @param why why, a clause without a final full stop
     * @param rule the rule that refused it, for {@link SandboxViolationException#rule()}
     */
    static SandboxViolationException refuse(Path path, Path real, Access access, boolean directory, String why,
            String rule) {
        String shown = path.toString();
        String via = real == null || real.equals(path) ? "" : " (it resolves to \"" + real + "\")";
        String message = "Attempt to " + (access == Access.READ ? "read" : "write") + " " + (directory ? "directory" : "file")
                + " \"" + shown + "\"" + via + " has been denied. The " + (directory ? "directory" : "file")
                + " is located outside of the restricted transfer sandbox: " + why + ".";
        return new SandboxViolationException(message, shown, access, rule, access == Access.READ ? READ_ID : WRITE_ID);
    }
}
