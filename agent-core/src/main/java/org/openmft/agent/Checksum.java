package org.openmft.agent;

import java.util.Objects;

import org.openmft.xml.ChecksumMethod;

/**
 * An item's checksum as the transfer log reports it ({@code <checksum method="...">hex</checksum>}):
 * the method and the digest, which only mean something together, since the same bytes have an MD5
 * and a SHA-256 of different lengths and strengths.
 *
 * @param method how it was computed: {@link ChecksumMethod#MD5} or {@link ChecksumMethod#SHA_256}, never
 *               {@link ChecksumMethod#NONE} (an item without a checksum has none of these)
 * @param hex    the digest in hexadecimal
 */
public record Checksum(ChecksumMethod method, String hex) {
    /** Checks that both are given and that the method computes something. */
    public Checksum {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(hex, "hex");
        if (method == ChecksumMethod.NONE) {
            throw new IllegalArgumentException("a checksum computed with method none");
        }
    }

    /**
     * The checksum of an item verified with {@code method}, as a message or a state file carries its digest.
     *
     * @param method the item's method
     * @param hex    the digest, or null when none was computed (method none, or the item failed)
     * @return null when there is no digest, or no method to name it
     */
    public static Checksum of(ChecksumMethod method, String hex) {
        return hex == null || method == null || method == ChecksumMethod.NONE ? null : new Checksum(method, hex);
    }

    /** "SHA-256 9f86...", for people. */
    @Override
    public String toString() {
        return method.xmlValue() + " " + hex;
    }
}
