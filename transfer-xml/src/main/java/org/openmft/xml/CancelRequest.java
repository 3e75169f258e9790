package org.openmft.xml;

import java.util.Objects;

/**
 * Cancels an in-flight transfer:
 * {@code <cancel version=".."><originator>..</originator><transfer><ID>48 hex</ID></transfer><reply ..>Q</reply></cancel>}.
 * May be sent to the source or the destination agent. Cancelling a managed call ({@code <call>})
 * is not represented. Immutable.
 *
 * @param version the schema version read, 1.00 to 6.00
 * @param originator who asked
 * @param transferId the transfer to cancel: 48 hexadecimal characters, stored in lower case
 * @param reply where to send the outcome (result 22, 26, 27 ...), or {@code null} for no reply.
 *     Not in the original design brief: fteCancelTransfer waits for an answer, so the element
 *     has to be carried rather than refused
 */
public record CancelRequest(String version, Originator originator, String transferId, ReplyTo reply) implements CommandDocument {

    /** Validates; normalises {@code transferId} to lower case. */
    public CancelRequest {
        version = Checks.version(version);
        Objects.requireNonNull(originator, "originator");
        transferId = Checks.transferId(transferId);
    }

    /**
     * A cancel that asks for no reply.
     *
     * @param version the schema version, 1.00 to 6.00
     * @param originator who asked
     * @param transferId the transfer to cancel, 48 hexadecimal characters
     */
    public CancelRequest(String version, Originator originator, String transferId) {
        this(version, originator, transferId, null);
    }
}
