package org.openmft.xml;

/**
 * What to do when a destination file already exists: {@code <destination exist="...">}.
 * Default {@link #ERROR} (reference §7.7).
 */
public enum ExistAction {
    /** The item fails and the existing file is kept (the default). */
    ERROR("error"),
    /** The existing file is replaced. */
    OVERWRITE("overwrite");

    private final String xmlValue;

    ExistAction(String xmlValue) {
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
    public static ExistAction fromXml(String value) {
        StringBuilder expected = new StringBuilder();
        for (ExistAction candidate : values()) {
            if (candidate.xmlValue.equalsIgnoreCase(value)) {
                return candidate;
            }
            expected.append(expected.length() == 0 ? "" : " or ").append(candidate.xmlValue);
        }
        throw new IllegalArgumentException(Checks.quote(value) + " is not valid; expected " + expected);
    }
}
