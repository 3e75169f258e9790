package org.openmft.agent.transfer.files;

/**
 * Which {@link Sandbox} applies to a transfer, chosen by its requester: the same agent sandbox for
 * everyone ({@link #of}), or the user sandbox of the requesting user ({@code userSandboxes=true},
 * where the file's rules may change while the agent runs, so the choice is made again at each
 * check that matters).
 *
 * <p>Implementations are thread-safe.
 */
@FunctionalInterface
public interface SandboxPolicy {

    /**
     * The sandbox of a transfer's requester.
     *
     * @param requesterUser the user the queue manager validated for the request (its
     *        {@code JMSXUserID}), or {@code null} when the request carries none; never the
     *        {@code <originator>} the request document claims
     * @return the sandbox; never null (a requester who may touch nothing gets a sandbox that
     *         refuses everything, saying why)
     */
    Sandbox forRequester(String requesterUser);

    /**
     * Looks for changes of rules that can change while the agent runs (user sandboxes), so that
     * problems are reported even while no transfer asks; does nothing by default. Never throws.
     */
    default void refresh() {
    }

    /**
     * A policy that gives everyone the same sandbox.
     *
     * @param sandbox the agent sandbox
     * @return the policy
     */
    static SandboxPolicy of(Sandbox sandbox) {
        java.util.Objects.requireNonNull(sandbox, "sandbox");
        return requester -> sandbox;
    }
}
