package org.openmft.xml;

/**
 * What happens to a source file once its item has transferred:
 * {@code <source disposition="...">}. Default {@link #LEAVE}.
 */
public enum Disposition {
    /** The source file stays (the default). */
    LEAVE("leave"),
    /** The source file is deleted after a successful transfer. */
    DELETE("delete");

    private final String xmlValue;

    Disposition(String xmlValue) {
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
    public static Disposition fromXml(String value) {
        StringBuilder expected = new StringBuilder();
        for (Disposition candidate : values()) {
            if (candidate.xmlValue.equalsIgnoreCase(value)) {
                return candidate;
            }
            expected.append(expected.length() == 0 ? "" : " or ").append(candidate.xmlValue);
        }
        throw new IllegalArgumentException(Checks.quote(value) + " is not valid; expected " + expected);
    }
}
