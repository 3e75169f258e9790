package org.openmft.coordination.logger;

import java.util.Objects;

/**
 * What became of one record of a batch given to {@link LogStore#storeAll}. Immutable.
 *
 * @param key the record's key
 * @param status stored, duplicate or rejected
 * @param reason why the record was rejected, for the reject queue and the log; {@code null} unless
 *     {@link Status#REJECTED}
 */
public record StoreOutcome(String key, Status status, String reason) {

    /** What became of a record. */
    public enum Status {
        /** Stored now. */
        STORED,
        /** A record with the same key was stored before, in this batch or an earlier one; nothing changed. */
        DUPLICATE,
        /** The record can never be stored (see the reason); the others of the batch are not affected. */
        REJECTED
    }

    /** Checks that exactly the rejected outcomes have a reason. */
    public StoreOutcome {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(status, "status");
        if ((status == Status.REJECTED) != (reason != null)) {
            throw new IllegalArgumentException("a reason is given exactly for rejected records");
        }
    }

    /**
     * The record was stored.
     *
     * @param key its key
     * @return the outcome
     */
    public static StoreOutcome stored(String key) {
        return new StoreOutcome(key, Status.STORED, null);
    }

    /**
     * The record had been stored before.
     *
     * @param key its key
     * @return the outcome
     */
    public static StoreOutcome duplicate(String key) {
        return new StoreOutcome(key, Status.DUPLICATE, null);
    }

    /**
     * The record can never be stored.
     *
     * @param key its key
     * @param reason why, in words
     * @return the outcome
     */
    public static StoreOutcome rejected(String key, String reason) {
        return new StoreOutcome(key, Status.REJECTED, Objects.requireNonNull(reason, "reason"));
    }
}
