package org.openmft.agent.protection;

import java.util.Locale;

/**
 * How the messages between two agents are protected, end to end, whatever the queue manager
 * between them does (IBM MQ AMS's qualities of protection, applied by the agents themselves). Each
 * level includes the one before it.
 */
public enum ProtectionLevel {
    /**
     * The transfer's key travels in the START in the clear and its messages carry tags made with it:
     * they cannot be forged by other users of the queue manager, who cannot read the DATA queue, but
     * whoever administers the queue manager can read the key, the file data and forge messages.
     */
    NONE,
    /**
     * The source signs its START with its private key and wraps the transfer's key for the
     * destination's public key; every chunk's body carries an HMAC under that key. Nothing can be
     * changed or forged on the way, even by the queue manager; the data can still be read there.
     */
    INTEGRITY,
    /** As {@link #INTEGRITY}, and each chunk is encrypted (AES-256-GCM): the queue manager holds no plaintext. */
    PRIVACY;

    /**
     * The word in {@code agent.properties} and on the wire.
     *
     * @return {@code none}, {@code integrity} or {@code privacy}
     */
    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Reads a word, in any case.
     *
     * @param word the word
     * @return the level
     * @throws IllegalArgumentException naming the valid words
     */
    public static ProtectionLevel parse(String word) {
        for (ProtectionLevel l : values()) {
            if (l.word().equalsIgnoreCase(word == null ? "" : word.trim())) {
                return l;
            }
        }
        throw new IllegalArgumentException("'" + word + "' is not a protection level; expected none, integrity or"
                + " privacy");
    }

    /**
     * Whether this level gives at least what {@code required} asks.
     *
     * @param required the level asked for
     * @return true when this level is the same or stronger
     */
    public boolean satisfies(ProtectionLevel required) {
        return compareTo(required) >= 0;
    }
}
