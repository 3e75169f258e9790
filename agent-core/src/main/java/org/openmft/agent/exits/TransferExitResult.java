package org.openmft.agent.exits;

import java.util.Objects;

/**
 * What a start exit decides: go on, or cancel the transfer with a reason (result 21, "stopped by a
 * user exit", the reason in the transfer's supplement). Immutable.
 *
 * @param proceed whether the transfer goes on
 * @param reason why it is cancelled, for the log; null when it goes on
 */
public record TransferExitResult(boolean proceed, String reason) {

    /** Go on. */
    public static final TransferExitResult PROCEED = new TransferExitResult(true, null);

    /** Checks that a cancel has a reason. */
    public TransferExitResult {
        if (!proceed) {
            Objects.requireNonNull(reason, "a cancel needs a reason");
        }
    }

    /** Cancels the transfer. */
    public static TransferExitResult cancel(String reason) {
        return new TransferExitResult(false, reason);
    }
}
