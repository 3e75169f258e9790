package org.openmft.xml;

import java.util.Objects;

/**
 * {@code <request><deleteScheduledTransfer><originator><delete>...</delete></originator><ID>n</ID>
 * </deleteScheduledTransfer></request>} (FileTransfer.xsd): delete one of the source agent's
 * schedules, as {@code fteDeleteScheduledTransfer} sends it. Immutable.
 *
 * @param version    the version attribute read
 * @param originator who asked (IBM wraps it in {@code <delete>})
 * @param id         the schedule's id on the agent
 * @param reply      where to answer, or null
 */
public record DeleteScheduledTransferRequest(String version, Originator originator, long id, ReplyTo reply)
        implements CommandDocument {
    /** Validates. */
    public DeleteScheduledTransferRequest {
        version = Checks.version(version);
        Objects.requireNonNull(originator, "originator");
        if (id < 1) {
            throw new IllegalArgumentException("schedule ID " + id + " is not a positive whole number");
        }
    }
}
