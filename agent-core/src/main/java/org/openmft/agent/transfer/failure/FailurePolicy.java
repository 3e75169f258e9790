package org.openmft.agent.transfer.failure;

import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;

import org.openmft.agent.ResultCode;
import org.openmft.agent.messaging.ProviderErrors;
import org.openmft.agent.transfer.state.StateException;

/**
 * The one place where a failure that ends a transfer's work is judged: suspend (the transfer keeps
 * its records and partial files and resumes when the agent is back), or fail with a result code
 * and a reason. Every running transfer, in either role, asks here.
 *
 * <ul>
 *   <li>While the agent stops, or once it has lost its queue manager, everything suspends: an
 *       interrupted read, a messaging error, a state write that failed with the connection. The
 *       agent replaces its transfer engine on reconnect and the transfers resume from their
 *       records.</li>
 *   <li>Otherwise: a {@link TransferFailure} ends with its own code; a missing queue of the peer
 *       with 49; state that could not be made durable with 40 naming the store; any other
 *       messaging error, an interruption or a bug with 40.</li>
 * </ul>
 */
public final class FailurePolicy {
    private FailurePolicy() {
    }

    /** What to do. */
    public sealed interface Decision permits Suspend, Fail {
    }

    /** Keep the transfer's state; it resumes when the agent (or its connection) is back. */
    public record Suspend(String why) implements Decision {
    }

    /** End the transfer with this result. */
    public record Fail(ResultCode resultCode, String supplement) implements Decision {
    }

    /** {@link #decide(Throwable, boolean, boolean, String)} with the engine's status (probed only when needed). */
    public static Decision decide(Throwable failure, EngineStatus status, String peer) {
        if (failure instanceof TransferFailure) {
            return decide(failure, false, false, peer);
        }
        boolean stopping = status.stopping();
        return decide(failure, stopping, !stopping && status.connectionLost(), peer);
    }

    /**
     * @param failure        what stopped the transfer
     * @param stopping       whether the agent is stopping (or replacing its engine)
     * @param connectionLost whether the agent's connection to its queue manager is gone
     * @param peer           the other agent, for messages
     */
    public static Decision decide(Throwable failure, boolean stopping, boolean connectionLost, String peer) {
        if (failure instanceof TransferFailure f) {
            return new Fail(f.resultCode(), f.getMessage());
        }
        if (stopping || connectionLost) {
            return new Suspend(stopping ? "the agent is stopping" : "the connection to the queue manager is lost");
        }
        if (failure instanceof InvalidDestinationException e) {
            return new Fail(ResultCode.DESTINATION_UNREACHABLE, "BFGTR0072E: The destination agent " + peer
                    + " cannot be reached: " + ProviderErrors.describe(e));
        }
        if (failure instanceof StateException e) {
            return new Fail(ResultCode.FAILED, "BFGTR0095E: The transfer's state could not be made durable, so it"
                    + " could not resume after a failure: " + e.getMessage());
        }
        if (failure instanceof JMSException e) {
            return new Fail(ResultCode.FAILED, "BFGTR0073E: The transfer failed because of a messaging error: "
                    + ProviderErrors.describe(e));
        }
        if (failure instanceof InterruptedException) {
            return new Fail(ResultCode.FAILED, "BFGTR0074E: The transfer was interrupted by the agent stopping");
        }
        return new Fail(ResultCode.FAILED, "BFGTR0073E: The transfer failed unexpectedly: " + failure);
    }
}
