package org.openmft.agent.schedule;

/**
 * What a schedule asks for at a moment: the occurrence to run now (if any), the occurrences before
 * it that were missed (due while the agent could not run them: each is logged as skipped, as IBM's
 * SSKP log records say, and only the latest due one runs), and the index to wait for next.
 *
 * @param run          index of the occurrence to run now, or -1 when none is due
 * @param skippedFrom  index of the first missed occurrence (meaningful when {@code skippedCount > 0})
 * @param skippedCount occurrences missed, all before {@code run}
 * @param next         index of the next occurrence not yet due
 * @param expired      whether no occurrence is left after this one: the schedule is done
 */
public record Due(long run, long skippedFrom, long skippedCount, long next, boolean expired) {
    /** Whether an occurrence is to run now. */
    public boolean runs() {
        return run >= 0;
    }
}
