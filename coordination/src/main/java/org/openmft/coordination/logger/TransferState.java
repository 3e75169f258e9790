package org.openmft.coordination.logger;

/** Where a transfer is, as far as the stored log messages tell. */
public enum TransferState {
    /** A {@code started} message was stored, nothing since. */
    STARTED,
    /** At least one {@code progress} message was stored, no end yet. */
    IN_PROGRESS,
    /** Completed with result code 0. */
    SUCCESSFUL,
    /** Completed with result code 20: some items failed. */
    PARTIAL,
    /** Completed with any other result code, or the request was malformed. */
    FAILED,
    /** Cancelled. */
    CANCELLED;

    /** Result code of a successful transfer. */
    public static final int RESULT_SUCCESS = 0;
    /** Result code of a partially successful transfer. */
    public static final int RESULT_PARTIAL = 20;

    /**
     * The state of a transfer whose {@code completed} message carries {@code resultCode}.
     *
     * @param resultCode the transfer's result code
     * @return {@link #SUCCESSFUL}, {@link #PARTIAL} or {@link #FAILED}
     */
    public static TransferState completedWith(int resultCode) {
        return switch (resultCode) {
            case RESULT_SUCCESS -> SUCCESSFUL;
            case RESULT_PARTIAL -> PARTIAL;
            default -> FAILED;
        };
    }

    /**
     * Whether the transfer has ended.
     *
     * @return true for every state but {@link #STARTED} and {@link #IN_PROGRESS}
     */
    public boolean ended() {
        return this != STARTED && this != IN_PROGRESS;
    }

    /**
     * The state's name in IBM MQ's REST API ({@code status.state} of {@code admin/mft/transfer}).
     *
     * @return {@code started}, {@code inProgress}, {@code successful}, {@code partiallySuccessful},
     *     {@code failed} or {@code cancelled}
     */
    public String restName() {
        return switch (this) {
            case STARTED -> "started";
            case IN_PROGRESS -> "inProgress";
            case SUCCESSFUL -> "successful";
            case PARTIAL -> "partiallySuccessful";
            case FAILED -> "failed";
            case CANCELLED -> "cancelled";
        };
    }

    /**
     * The state of a REST API name, any case.
     *
     * @param name a name {@link #restName()} gives
     * @return the state, or empty when the name is none of them
     */
    public static java.util.Optional<TransferState> ofRestName(String name) {
        for (TransferState s : values()) {
            if (s.restName().equalsIgnoreCase(name)) {
                return java.util.Optional.of(s);
            }
        }
        return java.util.Optional.empty();
    }
}
