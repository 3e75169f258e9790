package org.openmft.agent.protection;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;

import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The protection of a chunk's body under its transfer's key: an HMAC-SHA256 ({@link ProtectionLevel#INTEGRITY})
 * or AES-256-GCM encryption ({@link ProtectionLevel#PRIVACY}). Each is bound to the chunk's place (transfer
 * id, incarnation, number and offset: {@link #place}), so a body cannot be moved to another message. Each
 * level has a key of its own, derived from the transfer's key under its own label, so no key serves two
 * purposes. GCM nonces are 96 random bits per message: a resend or a restart never reuses one, even if the
 * file changed meanwhile (2^32 messages per transfer, 1 PiB of 256 KiB chunks, stay far within GCM's bound).
 *
 * <p>Stateless and thread-safe; each thread keeps its own cipher, MAC and random source.
 */
public final class BodySeal {
    /** Bytes of a GCM nonce. */
    public static final int NONCE_BYTES = 12;
    /** Bytes GCM adds to a body (its tag). */
    public static final int OVERHEAD = 16;
    private static final ThreadLocal<Cipher> GCM = ThreadLocal.withInitial(() -> instance(() -> Cipher.getInstance(
            "AES/GCM/NoPadding")));
    private static final ThreadLocal<Mac> HMAC = ThreadLocal.withInitial(() -> instance(() -> Mac.getInstance(
            "HmacSHA256")));
    private static final ThreadLocal<SecureRandom> RANDOM = ThreadLocal.withInitial(SecureRandom::new);

    private BodySeal() {
    }

    private interface Factory<T> {
        T make() throws GeneralSecurityException;
    }

    private static <T> T instance(Factory<T> f) {
        try {
            return f.make();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JVM has AES/GCM and HmacSHA256", e);
        }
    }

    /**
     * The place a body belongs to, authenticated with it.
     *
     * @return bytes naming the transfer, incarnation, number and offset
     */
    public static byte[] place(String transferId, int incarnation, long seq, long offset) {
        byte[] id = transferId.getBytes(StandardCharsets.US_ASCII);
        return ByteBuffer.allocate(id.length + Integer.BYTES + 2 * Long.BYTES).put(id).putInt(incarnation).putLong(seq)
                .putLong(offset).array();
    }

    /** A fresh random nonce. */
    public static byte[] nonce() {
        byte[] n = new byte[NONCE_BYTES];
        RANDOM.get().nextBytes(n);
        return n;
    }

    /**
     * The integrity MAC of a body at its place.
     *
     * @param transferKey the transfer's key
     * @return 32 bytes
     */
    public static byte[] mac(byte[] transferKey, byte[] place, byte[] body, int length) {
        Mac mac = HMAC.get();
        init(mac, subkey(transferKey, "openmft integrity 1"));
        mac.update(place);
        mac.update(body, 0, length);
        return mac.doFinal();
    }

    /**
     * Whether {@code expected} is the MAC of the body at its place, compared in constant time.
     *
     * @return false for any other value, or none
     */
    public static boolean macMatches(byte[] transferKey, byte[] place, byte[] body, int length, byte[] expected) {
        return expected != null && MessageDigest.isEqual(expected, mac(transferKey, place, body, length));
    }

    /**
     * Encrypts a body.
     *
     * @param out where the ciphertext goes: at least {@code length + OVERHEAD} bytes
     * @return the ciphertext's length
     */
    public static int encrypt(byte[] transferKey, byte[] nonce, byte[] place, byte[] body, int length, byte[] out) {
        Cipher c = GCM.get();
        try {
            c.init(Cipher.ENCRYPT_MODE, aesKey(transferKey), new GCMParameterSpec(128, nonce));
            c.updateAAD(place);
            return c.doFinal(body, 0, length, out, 0);
        } catch (ShortBufferException e) {
            throw new IllegalArgumentException("the output needs " + (length + OVERHEAD) + " bytes", e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM failed to encrypt", e);
        }
    }

    /**
     * Decrypts a body and checks it is the one encrypted for this place.
     *
     * @param out where the plaintext goes: at least {@code length - OVERHEAD} bytes
     * @return the plaintext's length, or -1 when the body, its place, its nonce or the key is not the
     *         one it was encrypted with (nothing usable is in {@code out} then)
     */
    public static int decrypt(byte[] transferKey, byte[] nonce, byte[] place, byte[] body, int length, byte[] out) {
        if (nonce == null || nonce.length != NONCE_BYTES || length < OVERHEAD) {
            return -1;
        }
        Cipher c = GCM.get();
        try {
            c.init(Cipher.DECRYPT_MODE, aesKey(transferKey), new GCMParameterSpec(128, nonce));
            c.updateAAD(place);
            return c.doFinal(body, 0, length, out, 0);
        } catch (AEADBadTagException e) {
            return -1;
        } catch (ShortBufferException e) {
            throw new IllegalArgumentException("the output needs " + (length - OVERHEAD) + " bytes", e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM failed to decrypt", e);
        }
    }

    private static SecretKeySpec aesKey(byte[] transferKey) {
        return new SecretKeySpec(subkey(transferKey, "openmft privacy 1"), "AES");
    }

    private static byte[] subkey(byte[] transferKey, String label) {
        Mac mac = HMAC.get();
        init(mac, transferKey);
        return mac.doFinal(label.getBytes(StandardCharsets.US_ASCII));
    }

    private static void init(Mac mac, byte[] key) {
        try {
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
        } catch (java.security.InvalidKeyException e) {
            throw new IllegalArgumentException("not a transfer key", e);
        }
    }
}
