package org.openmft.xml.log;

/**
 * The {@code <action>} of a transfer log message (reference §5.2), with IBM's spelling.
 */
public enum LogAction {
    /** The transfer started; always the first message of a transfer. */
    STARTED("started"),
    /** One or more items finished. */
    PROGRESS("progress"),
    /** The transfer ended (successfully or not; the status result code says which). */
    COMPLETED("completed"),
    /** The transfer was cancelled. */
    CANCELLED("cancelled"),
    /** A request could not be understood (result 43). */
    MALFORMED("malformed"),
    /**
     * A managed call started. The message names the agent that runs it as {@code <agent>} (kept in
     * {@link TransferLog#sourceAgent()}) and holds the call in its transfer set.
     */
    CALL_STARTED("callStarted"),
    /** A managed call ended; its {@code <callResult>} and the result code say how. */
    CALL_COMPLETED("callCompleted");

    private final String xml;

    /** Whether this is a managed call's action, whose message names one {@code <agent>}. */
    public boolean managedCall() {
        return this == CALL_STARTED || this == CALL_COMPLETED;
    }

    LogAction(String xml) {
        this.xml = xml;
    }

    /**
     * The element text, as IBM writes it.
     *
     * @return for example {@code started}
     */
    public String xml() {
        return xml;
    }

    /**
     * The action written as {@code text}.
     *
     * @param text the element text
     * @return the action
     * @throws IllegalArgumentException when {@code text} names no action
     */
    public static LogAction fromXml(String text) {
        for (LogAction a : values()) {
            if (a.xml.equals(text)) {
                return a;
            }
        }
        throw new IllegalArgumentException("unknown transfer log action '" + text + "'");
    }
}
