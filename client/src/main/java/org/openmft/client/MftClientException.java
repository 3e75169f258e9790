package org.openmft.client;

/**
 * A failure of a client operation, with a message for people and a {@linkplain #code() code} for
 * programs. The codes are those of IBM MFT's commands and result codes, so that an application
 * and a script react to the same numbers: {@value #FAILED} unsuccessful (a refused or wrong
 * request), {@value #TIMED_OUT} timed out, {@value #NOT_ACKNOWLEDGED} the agent did not
 * acknowledge, {@value #QMGR_UNAVAILABLE} the queue manager is not available,
 * {@value #CONFIGURATION} a configuration problem; any other value is the result code an agent
 * answered with (IBM's, e.g. 26 for a transfer the agent does not know).
 *
 * <p>Messages carry IBM's {@code BFG} message ids where IBM has one.
 */
public class MftClientException extends Exception {
    private static final long serialVersionUID = 1L;

    /** The request was unsuccessful: refused, or wrong. */
    public static final int FAILED = 1;
    /** Timed out waiting for a reply (IBM's result 2). */
    public static final int TIMED_OUT = 2;
    /** The agent did not acknowledge the request in time (IBM's result 3): is it running? */
    public static final int NOT_ACKNOWLEDGED = 3;
    /** The queue manager is not available, or the connection to it was lost. */
    public static final int QMGR_UNAVAILABLE = 75;
    /** A configuration problem: a properties file is missing or holds a bad value. */
    public static final int CONFIGURATION = 78;

    /** The code: one of this class's constants, or an agent's result code. */
    private final int code;
    /** The result code the agent answered with, or -1 when the failure is not an agent's answer. */
    private final int resultCode;

    /**
     * A failure without an underlying exception.
     *
     * @param code the code, one of this class's constants or an agent's result code
     * @param message what went wrong, for people
     */
    public MftClientException(int code, String message) {
        this(code, message, -1);
    }

    /**
     * An agent's refusal of a request.
     *
     * @param code the code, one of this class's constants or the agent's result code
     * @param message what went wrong, for people
     * @param resultCode the result code the agent answered with (IBM's, e.g. 26: the transfer is not known)
     */
    public MftClientException(int code, String message, int resultCode) {
        super(message);
        this.code = code;
        this.resultCode = resultCode;
    }

    /**
     * A failure caused by another exception.
     *
     * @param code the code, one of this class's constants or an agent's result code
     * @param message what went wrong, for people
     * @param cause the underlying exception
     */
    public MftClientException(int code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
        this.resultCode = -1;
    }

    /**
     * The code of this failure: the same number {@code mft} exits with for it.
     *
     * @return one of this class's constants, or an agent's result code
     */
    public int code() {
        return code;
    }

    /**
     * The result code an agent answered with, when the failure is an agent's refusal (IBM's codes:
     * 26 the transfer is not known to the agent, and so on); {@link #code()} may differ, as
     * {@code fteCancelTransfer} exits with 1 for an unknown transfer.
     *
     * @return the agent's result code, or empty when the agent did not answer or accepted
     */
    public java.util.OptionalInt resultCode() {
        return resultCode < 0 ? java.util.OptionalInt.empty() : java.util.OptionalInt.of(resultCode);
    }
}
