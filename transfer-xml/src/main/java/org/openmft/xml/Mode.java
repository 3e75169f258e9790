package org.openmft.xml;

/**
 * How an item's bytes are treated: {@code <item mode="...">}. Default {@link #BINARY}.
 * Text mode converts code pages and line endings (reference §7.9).
 */
public enum Mode {
    /** Bytes are copied unchanged (the default). */
    BINARY("binary"),
    /** Characters are converted between encodings and line endings. */
    TEXT("text");

    private final String xmlValue;

    Mode(String xmlValue) {
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
    public static Mode fromXml(String value) {
        StringBuilder expected = new StringBuilder();
        for (Mode candidate : values()) {
            if (candidate.xmlValue.equalsIgnoreCase(value)) {
                return candidate;
            }
            expected.append(expected.length() == 0 ? "" : " or ").append(candidate.xmlValue);
        }
        throw new IllegalArgumentException(Checks.quote(value) + " is not valid; expected " + expected);
    }
}
