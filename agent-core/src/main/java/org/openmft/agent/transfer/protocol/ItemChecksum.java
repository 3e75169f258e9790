package org.openmft.agent.transfer.protocol;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import org.openmft.agent.Checksum;
import org.openmft.xml.ChecksumMethod;

/**
 * The checksum of an item being sent or written, computed the same way at both ends: over every
 * byte of the item as sent, in order. The source sends its digest on the item's last chunk
 * ({@link Wire#CHECKSUM}); the destination computes its own and compares. Not thread-safe.
 */
public final class ItemChecksum {
    private final ChecksumMethod method;
    private final MessageDigest digest;

    private ItemChecksum(ChecksumMethod method, MessageDigest digest) {
        this.method = method;
        this.digest = digest;
    }

    /**
     * Starts the checksum of an item.
     *
     * @param method the item's method
     * @return null for {@link ChecksumMethod#NONE}: nothing is computed
     */
    public static ItemChecksum start(ChecksumMethod method) {
        String algorithm = switch (method) {
            case MD5 -> "MD5";
            case SHA_256 -> "SHA-256";
            case NONE -> null;
        };
        if (algorithm == null) {
            return null;
        }
        try {
            return new ItemChecksum(method, MessageDigest.getInstance(algorithm));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has " + algorithm, e);
        }
    }

    /** Adds the next bytes of the item. */
    public void update(byte[] data, int offset, int length) {
        digest.update(data, offset, length);
    }

    /** The method it is computed with. */
    public ChecksumMethod method() {
        return method;
    }

    /** The digest of everything added; the checksum starts again empty. */
    public Checksum finish() {
        return new Checksum(method, HexFormat.of().formatHex(digest.digest()));
    }
}
