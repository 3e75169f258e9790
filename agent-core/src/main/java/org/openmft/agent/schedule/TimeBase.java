package org.openmft.agent.schedule;

/**
 * Whose clock a schedule's times are read on ({@code -tb}, {@code <submit timebase="...">}): the
 * administrator's who issued the command (the request carries that zone in
 * {@code timezone}), the source agent's, or UTC.
 */
public enum TimeBase {
    /** The time zone of the host that issued the command (IBM's default). */
    ADMIN("admin"),
    /** The source agent's time zone. */
    SOURCE("source"),
    /** Coordinated Universal Time. */
    UTC("UTC");

    private final String word;

    TimeBase(String word) {
        this.word = word;
    }

    /** IBM's word: {@code admin}, {@code source} or {@code UTC}. */
    public String word() {
        return word;
    }

    /**
     * The time base IBM's word names (any case).
     *
     * @throws ScheduleException naming {@code field} when it is none of IBM's words
     */
    public static TimeBase of(String word, String field) throws ScheduleException {
        if (word != null) {
            for (TimeBase t : values()) {
                if (t.word.equalsIgnoreCase(word.strip())) {
                    return t;
                }
            }
        }
        throw new ScheduleException(field + " is admin, source or UTC, not '" + word + "'");
    }
}
