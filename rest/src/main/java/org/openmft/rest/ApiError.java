package org.openmft.rest;

/**
 * A request the REST API answers with an error: the HTTP status and the body IBM's REST API sends,
 * {@code {"error":[{"type":"rest","msgId":...,"message":...,"explanation":...,"action":...}]}}.
 *
 * <p>Message ids are IBM's where IBM's REST API has one for the case ({@code MQWB0000E} unexpected,
 * {@code MQWB0100E} CSRF header missing, {@code MQWB0103E} not authorized, {@code MQWB0104E} not
 * authenticated, {@code MQWB0401E}
 * transfer not found, {@code MQWB0403E} coordination queue manager unreachable, {@code MQWB0408E}
 * agent not found); OpenMFT's own are {@code BFGRE...}, for cases IBM's API has no message for.
 * Nothing is done for a request that ends in an {@code ApiError}, except where the message says so.
 */
public final class ApiError extends Exception {
    private static final long serialVersionUID = 1L;

    /** Not authenticated (IBM's id). */
    public static final String NOT_AUTHENTICATED = "MQWB0104E";
    /** Not authorized (IBM's id). */
    public static final String NOT_AUTHORIZED = "MQWB0103E";
    /** CSRF header missing (IBM's id). */
    public static final String CSRF_MISSING = "MQWB0100E";
    /** Unexpected failure (IBM's id). */
    public static final String UNEXPECTED = "MQWB0000E";
    /** Transfer not found (IBM's id). */
    public static final String TRANSFER_NOT_FOUND = "MQWB0401E";
    /** The coordination queue manager cannot be reached (IBM's id). */
    public static final String COORDINATION_UNAVAILABLE = "MQWB0403E";
    /** Agent not found (IBM's id). */
    public static final String AGENT_NOT_FOUND = "MQWB0408E";
    /** The request (body, path or query) is not valid (OpenMFT's). */
    public static final String BAD_REQUEST = "BFGRE0010E";
    /** No such resource or method (OpenMFT's). */
    public static final String NO_SUCH_RESOURCE = "BFGRE0011E";
    /** The agent refused a request or did not answer (OpenMFT's). */
    public static final String AGENT_REFUSED = "BFGRE0012E";
    /** No agent has published a monitor of that name (OpenMFT's). */
    public static final String MONITOR_NOT_FOUND = "BFGRE0014E";
    /** Too many failed logins from one address (OpenMFT's). */
    public static final String TOO_MANY_LOGINS = "BFGRE0015E";
    /** The logger's store cannot be read (OpenMFT's). */
    public static final String STORE_UNAVAILABLE = "BFGRE0013E";

    private final int status;
    private final String msgId;
    private final String explanation;
    private final long retryAfterSeconds;

    /**
     * An error.
     *
     * @param status the HTTP status code
     * @param msgId the message id
     * @param message what is wrong, naming the value
     * @param explanation why, or what to do; may be null
     */
    public ApiError(int status, String msgId, String message, String explanation) {
        this(status, msgId, message, explanation, 0);
    }

    /**
     * An error after which the client is to wait ({@code Retry-After}).
     *
     * @param status the HTTP status code
     * @param msgId the message id
     * @param message what is wrong, naming the value
     * @param explanation why, or what to do; may be null
     * @param retryAfterSeconds seconds to wait before trying again, or 0
     */
    public ApiError(int status, String msgId, String message, String explanation, long retryAfterSeconds) {
        super(message);
        this.status = status;
        this.msgId = msgId;
        this.explanation = explanation;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    /** @return seconds the client is to wait before trying again ({@code Retry-After}), or 0 */
    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }

    /**
     * A 400 Bad Request.
     *
     * @param message what is wrong with the request
     * @return the error
     */
    public static ApiError badRequest(String message) {
        return new ApiError(400, BAD_REQUEST, message, "Correct the request and submit it again; nothing was done.");
    }

    /** @return the HTTP status code */
    public int status() {
        return status;
    }

    /** @return the message id */
    public String msgId() {
        return msgId;
    }

    /** @return the explanation, or null */
    public String explanation() {
        return explanation;
    }
}
