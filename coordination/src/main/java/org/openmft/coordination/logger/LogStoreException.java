package org.openmft.coordination.logger;

/**
 * The store is unavailable (connection lost, disk full, database shut down ...): nothing of the
 * batch being stored was kept, and the caller should roll back its own transaction and try the
 * same batch again later. A problem with one record is never reported this way but as a
 * {@link StoreOutcome.Status#REJECTED} outcome.
 */
public class LogStoreException extends Exception {

    /**
     * A failure with a cause.
     *
     * @param message what could not be done, naming the store
     * @param cause the underlying failure
     */
    public LogStoreException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * A failure without an underlying exception.
     *
     * @param message what could not be done, naming the store
     */
    public LogStoreException(String message) {
        super(message);
    }
}
