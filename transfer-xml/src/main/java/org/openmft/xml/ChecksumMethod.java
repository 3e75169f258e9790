package org.openmft.xml;

/**
 * Integrity check over the transferred bytes: {@code <item checksumMethod="...">}.
 * Default {@link #MD5}; accepted in any case (reference §7.10).
 */
public enum ChecksumMethod {
    /** MD5 over the bytes as sent, verified at the destination (the default). */
    MD5("MD5"),
    /** No checksum. */
    NONE("none");

    private final String xmlValue;

    ChecksumMethod(String xmlValue) {
        this.xmlValue = xmlValue;
    }

    /**
     * The spelling used in the XML documents.
     *
     * @return the attribute value, as IBM writes it
     */
    public String xmlValue() {
        return xmlValue;
    }

    /**
     * Looks up a value as written in a document, ignoring case (IBM's own tools are not consistent).
     *
     * @param value the attribute value
     * @return the matching constant
     * @throws IllegalArgumentException if nothing matches; the message lists what would
     */
    public static ChecksumMethod fromXml(String value) {
        StringBuilder expected = new StringBuilder();
        for (ChecksumMethod candidate : values()) {
            if (candidate.xmlValue.equalsIgnoreCase(value)) {
                return candidate;
            }
            expected.append(expected.length() == 0 ? "" : " or ").append(candidate.xmlValue);
        }
        throw new IllegalArgumentException(Checks.quote(value) + " is not valid; expected " + expected);
    }
}
