package org.openmft.agent.monitor;

import java.util.List;

/**
 * Where an agent keeps its monitors. The one guarantee that matters: {@link #save} puts the tasks
 * and replaces the record in one transaction, so after any crash either both happened or neither
 * did, and a file triggers exactly once.
 */
public interface MonitorStore extends AutoCloseable {

    /**
     * @return every monitor this agent kept, as the last committed {@link #save} left it
     * @throws MonitorStoreException if the store cannot be read
     */
    List<MonitorRecord> load() throws MonitorStoreException;

    /**
     * Replaces the monitor's record (or creates it) and submits its tasks, atomically.
     *
     * @param record the monitor's new record
     * @param tasks transfer request documents to put on the agent's COMMAND queue
     * @return the JMS message id of each task's message, in order (a transfer's id is made from it)
     * @throws MonitorStoreException if nothing was done
     */
    List<String> save(MonitorRecord record, List<String> tasks) throws MonitorStoreException;

    /**
     * Removes a monitor's record, if there is one.
     *
     * @param name the monitor
     * @throws MonitorStoreException if nothing was done
     */
    void delete(String name) throws MonitorStoreException;

    @Override
    void close();

    /** The store could not be read or written; nothing of the failed call happened. */
    final class MonitorStoreException extends Exception {
        private static final long serialVersionUID = 1L;

        /**
         * @param message what failed
         * @param cause why
         */
        public MonitorStoreException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
