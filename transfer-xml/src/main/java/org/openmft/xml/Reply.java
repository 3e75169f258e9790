package org.openmft.xml;

import java.util.List;

/**
 * An agent's answer to a request, IBM's Reply.xsd:
 * {@code <reply version=".." ID="request id"><transferSet>per item</transferSet><status resultCode="N"><supplement>text</supplement></status></reply>}.
 * Sent to the queue named in the request's {@code <reply>}. Immutable; the lists are
 * unmodifiable copies.
 *
 * @param version the schema version read, 1.00 to 6.00
 * @param requestId the id of the request answered, normally its 48-hex transfer id; not empty
 * @param resultCode the result code (reference §5.5: 0 success, 43 malformed request ...); not negative
 * @param supplements explanatory lines, typically BFG message texts; may be empty
 * @param items per-item results for detailed replies; may be empty
 */
public record Reply(String version, String requestId, int resultCode, List<String> supplements, List<ItemResult> items) {

    /** Validates and copies the lists. */
    public Reply {
        version = Checks.version(version);
        requestId = Checks.name(requestId, "reply ID");
        if (resultCode < 0) {
            throw new IllegalArgumentException("resultCode " + resultCode + " must not be negative");
        }
        supplements = List.copyOf(supplements);
        supplements.forEach(text -> Checks.xmlText(text, "supplement"));
        items = List.copyOf(items);
    }
}
