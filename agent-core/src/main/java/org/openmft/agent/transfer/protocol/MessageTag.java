package org.openmft.agent.transfer.protocol;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import jakarta.jms.JMSException;
import jakarta.jms.Message;

import org.openmft.agent.messaging.KnownProperties;

/**
 * The tag that proves a protocol message comes from one of the two agents of its transfer: an
 * HMAC-SHA256, under the transfer's key, of every protocol property the
 * message has (name, type and value, in {@link #SIGNED}'s order, each length-prefixed so no two
 * messages give the same input). A DATA message's body is covered through its CRC32C
 * ({@link Wire#CRC32C}), which the tag covers: a changed body fails the CRC, a changed CRC fails
 * the tag. (A CRC is not a cryptographic hash: whoever sees a message and can change it in flight,
 * which is the queue manager itself, could craft another body with the same CRC. Against the queue
 * manager, the message protection policies are the answer, not this tag.)
 *
 * <p>The key: the source agent derives each transfer's from the transfer id with a secret of its
 * own (its state key, under a label of its own: see {@code TransferEngine}), so it never stores one
 * and finds it again after a restart; it sends it in its START ({@link Wire#TRANSFER_KEY}), and the
 * destination keeps it in its state record. Only the two agents of a transfer hold it.
 *
 * <p>Stateless and thread-safe; each thread keeps its own {@link Mac}.
 */
public final class MessageTag {
    /**
     * The properties a tag covers: every protocol property but the tag itself and a START's
     * signature (which is made over the same list, before the tag).
     */
    static final List<String> SIGNED = List.of(Wire.PROTOCOL, Wire.TYPE, Wire.TRANSFER_ID, Wire.INCARNATION,
            Wire.TRANSFER_KEY, Wire.PROTECTION, Wire.WRAPPED_KEY, Wire.SOURCE_AGENT, Wire.SOURCE_QMGR, Wire.DESTINATION_AGENT, Wire.ITEM_COUNT,
            Wire.WINDOW, Wire.CHECKPOINT_CHUNKS, Wire.ORIGINATOR_USER, Wire.REQUESTER_USER, Wire.JOB_NAME,
            Wire.FIRST_OPEN_ITEM, Wire.AUTHORITY_CHECKING, Wire.SEQ, Wire.CHANNELS, Wire.ITEM, Wire.OFFSET, Wire.FIRST, Wire.LAST,
            Wire.DEST_PATH, Wire.DEST_TYPE, Wire.QUEUE_OPTIONS, Wire.RELATIVE_PATH, Wire.EXIST, Wire.CHECKSUM_METHOD, Wire.MODE,
            Wire.SOURCE_PATH, Wire.SOURCE_SIZE, Wire.CHECKSUM, Wire.ITEM_BYTES, Wire.CRC32C, Wire.BODY_MAC, Wire.NONCE,
            Wire.COMPRESSION, Wire.CHUNK_LENGTH, Wire.DECOMPRESSES, Wire.NEXT_SEQ,
            Wire.CHECKPOINT, Wire.RESULT_CODE, Wire.SUPPLEMENT, Wire.RETRY, Wire.DEST_FILE);
    /** {@link #SIGNED}'s names as the canonical form writes them. */
    private static final byte[][] SIGNED_NAMES = SIGNED.stream()
            .map(n -> n.getBytes(StandardCharsets.US_ASCII)).toArray(byte[][]::new);

    /** {@link #SIGNED} read from a message in one pass over its properties. */
    private static final KnownProperties SIGNED_PROPERTIES = new KnownProperties(SIGNED);
    /** The type names of the values a property can have, as the canonical form spells them. */
    private static final Map<Class<?>, byte[]> TYPE_NAMES = new ConcurrentHashMap<>();

    private static final ThreadLocal<KeyedMac> MAC = ThreadLocal.withInitial(KeyedMac::new);

    /**
     * A thread's HMAC and the key it was last initialised with: a transfer's messages all use one
     * key, so the key is set up again only when it changes, not for every chunk.
     */
    private static final class KeyedMac {
        final Mac mac;
        byte[] key;

        KeyedMac() {
            try {
                mac = Mac.getInstance("HmacSHA256");
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("every JVM has HmacSHA256", e);
            }
        }

        Mac with(byte[] transferKey) {
            if (transferKey == null) {
                throw new IllegalArgumentException("no transfer key");
            }
            if (!Arrays.equals(key, transferKey)) {
                key = null;
                try {
                    mac.init(new SecretKeySpec(transferKey, "HmacSHA256"));
                } catch (java.security.InvalidKeyException e) {
                    throw new IllegalArgumentException("not a transfer key", e);
                }
                key = transferKey.clone();
            }
            return mac;
        }
    }

    private MessageTag() {
    }

    /**
     * Tags a message whose properties are all set.
     *
     * @param m   the message
     * @param key the transfer's key
     */
    public static void seal(Message m, byte[] key) throws JMSException {
        m.setStringProperty(Wire.TAG, Base64.getEncoder().encodeToString(compute(m, key)));
    }

    /**
     * Whether a received message carries the right tag under {@code key}.
     *
     * @param m   the message
     * @param key the transfer's key, or null (then nothing is authentic)
     * @return false for a missing, malformed or wrong tag
     */
    public static boolean verify(Message m, byte[] key) throws JMSException {
        String tag = m.getStringProperty(Wire.TAG);
        if (key == null || tag == null) {
            return false;
        }
        byte[] theirs;
        try {
            theirs = Base64.getDecoder().decode(tag);
        } catch (IllegalArgumentException e) {
            return false;
        }
        return MessageDigest.isEqual(theirs, compute(m, key));
    }

    private static byte[] compute(Message m, byte[] key) throws JMSException {
        // doFinal leaves the Mac reset, ready for the next message under the same key.
        return MAC.get().with(key).doFinal(canonical(m));
    }

    /**
     * The bytes a tag or a START's signature is made over: each protocol property the message has
     * (name, type and value, in {@link #SIGNED}'s order, each length-prefixed so no two messages
     * give the same bytes).
     *
     * @param m the message
     * @return its canonical form
     */
    public static byte[] canonical(Message m) throws JMSException {
        // The message's properties are read in one pass, not asked for by each of the 47 names
        // (most of them absent): the bytes are the same, in SIGNED's order.
        Object[] values = SIGNED_PROPERTIES.read(m);
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        for (int i = 0; i < values.length; i++) {
            Object value = values[i];
            if (value == null) {
                continue;
            }
            // Name, type and value, each with its length: "mftSeq" L 5 and "mftSeq" I 5 differ.
            update(out, SIGNED_NAMES[i]);
            update(out, TYPE_NAMES.computeIfAbsent(value.getClass(),
                    c -> c.getSimpleName().getBytes(StandardCharsets.US_ASCII)));
            update(out, value.toString().getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }

    private static void update(ByteArrayOutputStream out, byte[] bytes) {
        int n = bytes.length;
        out.write(n >>> 24);
        out.write(n >>> 16);
        out.write(n >>> 8);
        out.write(n);
        out.write(bytes, 0, n);
    }
}
