package org.openmft.agent.scheduler;

import java.util.List;

/**
 * Where a source agent keeps its schedules. The guarantee that matters: {@link #save} replaces a
 * schedule's record (or removes it) and submits the transfer of an occurrence in one transaction,
 * so after any crash an occurrence has either run and been counted, or neither.
 */
public interface ScheduleStore extends AutoCloseable {

    /**
     * @return every schedule kept, as the last committed change left it
     * @throws ScheduleStoreException if the store cannot be read
     */
    List<ScheduleRecord> load() throws ScheduleStoreException;

    /**
     * Replaces (or creates, or with {@code record} null removes) schedule {@code id}'s record and
     * puts {@code transfer} (if not null) on the agent's COMMAND queue as that schedule's occurrence,
     * atomically.
     *
     * @param id       the schedule
     * @param record   its new record, or null to remove it
     * @param transfer the request document of an occurrence, or null
     * @throws ScheduleStoreException if nothing was done
     */
    void save(long id, ScheduleRecord record, String transfer) throws ScheduleStoreException;

    /** @return the highest schedule id ever saved (as of the last {@link #load}), or 0 */
    long highestId();

    @Override
    void close();

    /** The store could not be read or written; nothing of the failed call happened. */
    final class ScheduleStoreException extends Exception {
        private static final long serialVersionUID = 1L;

        /**
         * @param message what failed
         * @param cause   why
         */
        public ScheduleStoreException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
