package org.openmft.agent.transfer.failure;

import org.openmft.agent.ResultCode;

/**
 * The transfer ends now with {@link #resultCode()} and the message as its supplement: a fatal
 * failure, decided where it was found (the destination refused, the recovery timed out, the
 * transfer was cancelled, its state could not be made durable). Retriable conditions (no answer
 * yet, a busy destination, a lost connection) never become one of these: they are retried or
 * suspend the transfer (see {@link FailurePolicy}).
 *
 * <p>Cheap to throw: no stack trace, since it is control flow, not a bug.
 */
public final class TransferFailure extends Exception {
    private static final long serialVersionUID = 1L;
    private final ResultCode resultCode;

    /** @param supplement the message for people (BFG-style), or null for the code's default */
    public TransferFailure(ResultCode resultCode, String supplement) {
        super(supplement, null, false, false);
        this.resultCode = resultCode;
    }

    /** The transfer's result. */
    public ResultCode resultCode() {
        return resultCode;
    }
}
