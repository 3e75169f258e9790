package org.openmft.xml;

/**
 * Line separator written at a text-mode destination: {@code <file EOL="...">}. When absent the
 * destination platform's own separator is used.
 */
public enum LineEnding {
    /** A single line feed. */
    LF("LF"),
    /** Carriage return followed by line feed. */
    CRLF("CRLF");

    private final String xmlValue;

    LineEnding(String xmlValue) {
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
    public static LineEnding fromXml(String value) {
        StringBuilder expected = new StringBuilder();
        for (LineEnding candidate : values()) {
            if (candidate.xmlValue.equalsIgnoreCase(value)) {
                return candidate;
            }
            expected.append(expected.length() == 0 ? "" : " or ").append(candidate.xmlValue);
        }
        throw new IllegalArgumentException(Checks.quote(value) + " is not valid; expected " + expected);
    }
}
