package org.openmft.agent.schedule;

/**
 * A schedule that cannot be: a malformed time, an end before the start, a start in the past, a
 * repeat without a start. The message names the flag or element and says why.
 */
public final class ScheduleException extends Exception {
    private static final long serialVersionUID = 1L;

    /** @param message what is wrong, naming the flag or element */
    public ScheduleException(String message) {
        super(message);
    }
}
