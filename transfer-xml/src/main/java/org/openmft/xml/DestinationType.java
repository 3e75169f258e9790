package org.openmft.xml;

/**
 * Whether a destination path names a file or a directory into which source names are
 * appended: {@code <destination type="...">}. A queue destination is a {@code <queue>} element
 * ({@link QueueDestination}); IBM's {@code dataset} and {@code pds} are not supported yet and are
 * rejected by the parser.
 */
public enum DestinationType {
    /** The destination path is the file to write. */
    FILE("file"),
    /** The destination path is a directory; each source file name is appended. */
    DIRECTORY("directory");

    private final String xmlValue;

    DestinationType(String xmlValue) {
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
    public static DestinationType fromXml(String value) {
        StringBuilder expected = new StringBuilder();
        for (DestinationType candidate : values()) {
            if (candidate.xmlValue.equalsIgnoreCase(value)) {
                return candidate;
            }
            expected.append(expected.length() == 0 ? "" : " or ").append(candidate.xmlValue);
        }
        throw new IllegalArgumentException(Checks.quote(value) + " is not valid; expected " + expected);
    }
}
