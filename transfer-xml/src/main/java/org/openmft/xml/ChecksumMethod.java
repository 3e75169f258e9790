package org.openmft.xml;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * Integrity check over the transferred bytes: {@code <item checksumMethod="...">}.
 * Default {@link #MD5}; accepted in any case (reference §7.10). IBM MFT knows MD5 and none;
 * {@link #SHA_256} is OpenMFT's own, for those who need a collision-resistant check.
 */
public enum ChecksumMethod {
    /** MD5 over the bytes as sent, verified at the destination (the default, IBM's). */
    MD5("MD5"),
    /**
     * SHA-256 over the bytes as sent, verified at the destination: an OpenMFT extension. Unlike
     * MD5 it resists collisions, so the destination file is what the source read even against
     * someone able to craft two files with the same digest. Also accepted as {@code SHA256}.
     */
    SHA_256("SHA-256"),
    /** No checksum. */
    NONE("none");

    private final String xmlValue;

    ChecksumMethod(String xmlValue) {
        this.xmlValue = xmlValue;
    }

    /**
     * The spelling used in the XML documents.
     *
     * @return the attribute value, as IBM writes it (and {@code SHA-256} for OpenMFT's own)
     */
    public String xmlValue() {
        return xmlValue;
    }

    /**
     * Looks up a value as written in a document, ignoring case (IBM's own tools are not consistent);
     * {@code SHA256} is taken for {@code SHA-256}.
     *
     * @param value the attribute value
     * @return the matching constant
     * @throws IllegalArgumentException if nothing matches; the message lists what would
     */
    public static ChecksumMethod fromXml(String value) {
        for (ChecksumMethod candidate : values()) {
            if (candidate.xmlValue.equalsIgnoreCase(value)) {
                return candidate;
            }
        }
        if ("SHA256".equalsIgnoreCase(value)) {
            return SHA_256;
        }
        throw new IllegalArgumentException(Checks.quote(value) + " is not valid; expected " + expected());
    }

    /** "MD5, SHA-256 or none". */
    private static String expected() {
        String all = Arrays.stream(values()).map(ChecksumMethod::xmlValue).collect(Collectors.joining(", "));
        int last = all.lastIndexOf(", ");
        return all.substring(0, last) + " or " + all.substring(last + 2);
    }
}
