package org.openmft.agent.transfer.protocol;

import java.util.Base64;
import java.util.zip.CRC32C;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Session;

import org.openmft.agent.ItemOutcome;
import org.openmft.agent.compression.ChunkCompressor;
import org.openmft.agent.compression.CompressionException;
import org.openmft.agent.compression.CompressionMethod;
import org.openmft.agent.messaging.ArtemisTuning;
import org.openmft.agent.messaging.ChunkRoom;
import org.openmft.agent.protection.BodySeal;
import org.openmft.agent.protection.PeerKeys;
import org.openmft.agent.protection.ProtectionException;
import org.openmft.agent.protection.ProtectionLevel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place that builds and reads the agent-to-agent protocol's JMS messages (see
 * {@link Wire} and docs/architecture.md). Every message it builds carries the protocol version,
 * its type, the transfer id (also as JMSCorrelationID) and the incarnation.
 *
 * <p>An instance builds messages with one session and so belongs to the thread that owns that
 * session; the readers are static and touch only the message they are given.
 *
 * <p>Why this file stays whole (over 600 lines): it is the protocol's one vocabulary, each builder
 * beside its reader, and the order in which a DATA body is compressed, protected and checked is
 * written once, here, for both directions; split, the two halves of each message would drift apart.
 */
public final class ProtocolCodec {
    private static final Logger log = LoggerFactory.getLogger(ProtocolCodec.class);
    private final Session session;
    private final Keys keys;
    private final Addresser addresser;
    /** Where chunks are encrypted to; grown for a larger chunk. */
    private byte[] cipherText = new byte[0];
    /** Where chunks are compressed to; made on the first compressed chunk. */
    private ChunkCompressor compressor;
    /** How DATA bodies are compressed: none until the destination said it can decompress ({@link #compressWith}). */
    private CompressionMethod compression = CompressionMethod.NONE;
    /** The channels DATA and ITEM_ABORT are spread over ({@link #spreadOver}); 1: not spread. */
    private int channels = 1;
    /**
     * The DATA message, made once and refilled for each chunk, so that its buffer, sized for a
     * chunk, is not made (and zeroed) again for each: a synchronous send has copied a message by the
     * time it returns, and JMS lets the sender modify and send the same message again (JMS 2.0,
     * 7.3). Null until the first chunk.
     */
    private BytesMessage dataMessage;

    /** Where a codec finds the key of a transfer, to tag what it builds ({@link MessageTag}). */
    @FunctionalInterface
    public interface Keys {
        /**
         * @param transferId a transfer id
         * @return its key, or null when this agent knows none (the message is then not tagged, and
         *         its receiver drops it)
         */
        byte[] key(String transferId);

        /**
         * @param transferId a transfer id
         * @return how its DATA bodies are protected (none unless said otherwise)
         */
        default ProtectionLevel level(String transferId) {
            return ProtectionLevel.NONE;
        }

        /**
         * These keys, with every transfer's DATA protected at {@code level}.
         *
         * @param level the level of the transfer this codec sends for
         * @return keys that say so
         */
        default Keys at(ProtectionLevel level) {
            Keys keys = this;
            return new Keys() {
                @Override
                public byte[] key(String transferId) {
                    return keys.key(transferId);
                }

                @Override
                public ProtectionLevel level(String transferId) {
                    return level;
                }
            };
        }
    }

    /**
     * @param session the session the messages are created with (and later sent on)
     * @param keys    the keys of the transfers it builds messages for
     */
    public ProtocolCodec(Session session, Keys keys) {
        this(session, keys, m -> { });
    }

    /**
     * A codec whose every message is addressed by {@code addresser} as it is built: a source
     * transfer's messages all go to one agent, perhaps on another queue manager
     * ({@link org.openmft.agent.messaging.Routing#address}).
     *
     * @param session   the session the messages are created with (and later sent on)
     * @param keys      the keys of the transfers it builds messages for
     * @param addresser stamps each message with its route
     */
    public ProtocolCodec(Session session, Keys keys, Addresser addresser) {
        this.session = session;
        this.keys = keys;
        this.addresser = addresser;
    }

    /** Stamps a message with where it goes, when that takes more than its destination. */
    @FunctionalInterface
    public interface Addresser {
        /** @param m a message being built */
        void address(Message m) throws JMSException;
    }

    /**
     * Compresses the DATA bodies this codec builds from now on (a source, once its destination's
     * START_OK said what it can decompress: {@link CompressionMethod#agreed}).
     *
     * @param method the method, or none
     */
    public void compressWith(CompressionMethod method) {
        this.compression = method;
    }

    /**
     * Says on every DATA and ITEM_ABORT from now on that the transfer's sequenced messages are spread
     * over {@code n} channels, message {@code seq} over channel {@code seq % n} ({@link Wire#CHANNELS}).
     *
     * @param n the channels, 0 or 1 for none
     */
    public void spreadOver(int n) {
        this.channels = Math.max(1, n);
    }

    // ------------------------------------------------------------------------------------------
    // Source to destination

    /** An unprotected START (or a resynchronising one, with {@code firstOpenItem} >= 0): its key in the clear. */
    public Message start(Start s) throws JMSException {
        try {
            return start(s, ProtectionLevel.NONE, PeerKeys.NONE);
        } catch (ProtectionException e) {
            throw new IllegalStateException("an unprotected START needs no keys", e);
        }
    }

    /**
     * A START at {@code level}: above none, the transfer's key is wrapped for the destination agent
     * and the START signed by this one ({@link Wire#WRAPPED_KEY}, {@link Wire#SIGNATURE}).
     *
     * @param peers this agent's keys and its peers' certificates
     * @throws ProtectionException when the destination's certificate is missing or expired, or the
     *                             key cannot sign
     */
    public Message start(Start s, ProtectionLevel level, PeerKeys peers) throws JMSException, ProtectionException {
        Message m = stamped(Wire.START, s.transferId(), s.incarnation());
        byte[] key = keys.key(s.transferId());
        if (level != ProtectionLevel.NONE) {
            m.setStringProperty(Wire.PROTECTION, level.word());
            m.setStringProperty(Wire.WRAPPED_KEY, Base64.getEncoder().encodeToString(peers.wrap(s.destinationAgent(),
                    key)));
        } else if (key != null) {
            m.setStringProperty(Wire.TRANSFER_KEY, Base64.getEncoder().encodeToString(key));
        }
        m.setStringProperty(Wire.SOURCE_AGENT, s.sourceAgent());
        m.setStringProperty(Wire.SOURCE_QMGR, s.sourceQMgr());
        m.setStringProperty(Wire.DESTINATION_AGENT, s.destinationAgent());
        m.setIntProperty(Wire.ITEM_COUNT, s.itemCount());
        m.setIntProperty(Wire.WINDOW, s.window());
        m.setIntProperty(Wire.CHECKPOINT_CHUNKS, s.checkpointChunks());
        if (s.originatorUser() != null) {
            m.setStringProperty(Wire.ORIGINATOR_USER, s.originatorUser());
        }
        if (s.requesterUser() != null) {
            m.setStringProperty(Wire.REQUESTER_USER, s.requesterUser());
        }
        if (s.jobName() != null) {
            m.setStringProperty(Wire.JOB_NAME, s.jobName());
        }
        if (s.firstOpenItem() >= 0) {
            m.setIntProperty(Wire.FIRST_OPEN_ITEM, s.firstOpenItem());
        }
        if (s.authorityChecking()) {
            m.setBooleanProperty(Wire.AUTHORITY_CHECKING, true);
        }
        if (level != ProtectionLevel.NONE) {
            m.setStringProperty(Wire.SIGNATURE, Base64.getEncoder().encodeToString(peers.sign(
                    MessageTag.canonical(m))));
        }
        return sealed(m, s.transferId());
    }

    /**
     * A chunk of an item.
     *
     * @param header    the item's description, on its first chunk (else null)
     * @param itemBytes the item's total size, on its last chunk
     * @param checksum  the item's hex digest, on its last chunk unless its method is none, else null
     * @param data      the chunk's bytes (compressed, when this codec compresses and the chunk shrinks, then
     *                  at {@link ProtectionLevel#PRIVACY} encrypted, into buffers of the codec's, never in place)
     */
    public BytesMessage data(String id, int incarnation, long seq, int item, long offset, boolean first, boolean last,
            ItemHeader header, long itemBytes, String checksum, byte[] data, int length) throws JMSException {
        BytesMessage m = dataMessage();
        stamp(m, Wire.DATA, id, incarnation);
        m.setLongProperty(Wire.SEQ, seq);
        spread(m);
        m.setIntProperty(Wire.ITEM, item);
        m.setLongProperty(Wire.OFFSET, offset);
        m.setBooleanProperty(Wire.FIRST, first);
        m.setBooleanProperty(Wire.LAST, last);
        if (first) {
            describe(m, header);
        }
        if (last) {
            m.setLongProperty(Wire.ITEM_BYTES, itemBytes);
            if (checksum != null) {
                m.setStringProperty(Wire.CHECKSUM, checksum);
            }
        }
        byte[] body = data;
        int bodyLength = length;
        // Compressed first: ciphertext does not compress.
        if (compression != CompressionMethod.NONE && length > 0) {
            if (compressor == null) {
                compressor = new ChunkCompressor(ArtemisTuning.MAX_NORMAL_MESSAGE_BYTES);
            }
            int packed = compressor.compress(compression, data, length);
            if (packed >= 0) {
                body = compressor.buffer();
                bodyLength = packed;
                m.setStringProperty(Wire.COMPRESSION, compression.word());
                m.setIntProperty(Wire.CHUNK_LENGTH, length);
            }
        }
        ProtectionLevel level = keys.level(id);
        if (level != ProtectionLevel.NONE) {
            byte[] key = keys.key(id);
            byte[] place = BodySeal.place(id, incarnation, seq, offset);
            if (level == ProtectionLevel.INTEGRITY) {
                m.setStringProperty(Wire.BODY_MAC, Base64.getEncoder().encodeToString(BodySeal.mac(key, place, body,
                        bodyLength)));
            } else {
                byte[] nonce = BodySeal.nonce();
                if (cipherText.length < bodyLength + BodySeal.OVERHEAD) {
                    cipherText = new byte[bodyLength + BodySeal.OVERHEAD];
                }
                bodyLength = BodySeal.encrypt(key, nonce, place, body, bodyLength, cipherText);
                body = cipherText;
                m.setStringProperty(Wire.NONCE, Base64.getEncoder().encodeToString(nonce));
            }
        }
        CRC32C crc = new CRC32C();
        crc.update(body, 0, bodyLength);
        m.setLongProperty(Wire.CRC32C, crc.getValue());
        ChunkRoom.reserve(m, bodyLength);
        m.writeBytes(body, 0, bodyLength);
        return sealed(m, id);
    }

    /**
     * The DATA message emptied for the next chunk: its body and properties cleared, its buffer kept.
     * The message {@link #data} returned before is then no longer the chunk it was: send it before
     * building the next.
     */
    private BytesMessage dataMessage() throws JMSException {
        if (dataMessage == null) {
            dataMessage = session.createBytesMessage();
        } else {
            dataMessage.clearBody();
            dataMessage.clearProperties();
        }
        return dataMessage;
    }

    /** The source gave up item {@code item} at number {@code seq}. */
    public Message itemAbort(String id, int incarnation, long seq, int item, ItemHeader header, String reason)
            throws JMSException {
        Message m = stamped(Wire.ITEM_ABORT, id, incarnation);
        m.setLongProperty(Wire.SEQ, seq);
        spread(m);
        m.setIntProperty(Wire.ITEM, item);
        m.setStringProperty(Wire.SUPPLEMENT, reason);
        describe(m, header);
        return sealed(m, id);
    }

    /**
     * No acknowledgement came in time; the source's next number is {@code nextSeq}, and
     * {@code firstOpenItem} the first item it has no result for (-1: none, the property is left out).
     */
    public Message ackRequest(String id, int incarnation, long nextSeq, int firstOpenItem) throws JMSException {
        Message m = stamped(Wire.ACK_REQUEST, id, incarnation);
        m.setLongProperty(Wire.NEXT_SEQ, nextSeq);
        if (firstOpenItem >= 0) {
            m.setIntProperty(Wire.FIRST_OPEN_ITEM, firstOpenItem);
        }
        return sealed(m, id);
    }

    /** CANCEL (source to destination) or any other message with only a type and a supplement. */
    public Message control(String type, String id, int incarnation, String supplement) throws JMSException {
        Message m = stamped(type, id, incarnation);
        if (supplement != null) {
            m.setStringProperty(Wire.SUPPLEMENT, supplement);
        }
        return sealed(m, id);
    }

    /** CALL: the destination is to run its call of {@code phase}, given in the command-line form. */
    public Message call(String id, int incarnation, String phase, String spec) throws JMSException {
        Message m = stamped(Wire.CALL, id, incarnation);
        m.setStringProperty(Wire.CALL_PHASE, phase);
        m.setStringProperty(Wire.CALL_SPEC, spec);
        return sealed(m, id);
    }

    private void spread(Message m) throws JMSException {
        if (channels > 1) {
            m.setIntProperty(Wire.CHANNELS, channels);
        }
    }

    private static void describe(Message m, ItemHeader h) throws JMSException {
        m.setStringProperty(Wire.DEST_PATH, h.destPath());
        m.setStringProperty(Wire.DEST_TYPE, h.destType());
        if (h.queueOptions() != null) {
            m.setStringProperty(Wire.QUEUE_OPTIONS, h.queueOptions());
        }
        m.setStringProperty(Wire.RELATIVE_PATH, h.relativePath());
        m.setStringProperty(Wire.EXIST, h.exist());
        m.setStringProperty(Wire.CHECKSUM_METHOD, h.checksumMethod());
        m.setStringProperty(Wire.MODE, h.mode());
        m.setStringProperty(Wire.SOURCE_PATH, h.sourcePath());
        m.setLongProperty(Wire.SOURCE_SIZE, h.sourceSize());
    }

    // ------------------------------------------------------------------------------------------
    // Destination to source

    /** START_OK: continue from {@code nextSeq}; and the compression methods this agent can decompress. */
    public Message startOk(String id, int incarnation, long nextSeq) throws JMSException {
        Message m = stamped(Wire.START_OK, id, incarnation);
        m.setLongProperty(Wire.NEXT_SEQ, nextSeq);
        m.setStringProperty(Wire.DECOMPRESSES, CompressionMethod.decompressible());
        m.setBooleanProperty(Wire.RUNS_CALLS, true);
        return sealed(m, id);
    }

    /** CALL_RESULT: what came of the destination's call; the outputs are cut to {@link Wire#MAX_CALL_OUTPUT_CHARS}. */
    public Message callResult(String id, int incarnation, CallAnswer a) throws JMSException {
        Message m = stamped(Wire.CALL_RESULT, id, incarnation);
        m.setStringProperty(Wire.CALL_PHASE, a.phase());
        m.setStringProperty(Wire.CALL_OUTCOME, a.outcome());
        m.setIntProperty(Wire.CALL_RETRIES, a.retries());
        if (a.returnCode() != null) {
            m.setIntProperty(Wire.CALL_RETURN_CODE, a.returnCode());
        }
        m.setStringProperty(Wire.CALL_STDOUT, cut(String.join("\n", a.stdout())));
        m.setStringProperty(Wire.CALL_STDERR, cut(String.join("\n", a.stderr())));
        if (a.error() != null) {
            m.setStringProperty(Wire.SUPPLEMENT, a.error());
        }
        return sealed(m, id);
    }

    private static String cut(String text) {
        return text.length() <= Wire.MAX_CALL_OUTPUT_CHARS ? text : text.substring(0, Wire.MAX_CALL_OUTPUT_CHARS);
    }

    /** A CALL's phase and call, or null when the message is not a CALL. */
    public static String[] readCall(Message m) throws JMSException {
        String phase = m.getStringProperty(Wire.CALL_PHASE);
        String spec = m.getStringProperty(Wire.CALL_SPEC);
        return phase == null || spec == null ? null : new String[] {phase, spec};
    }

    /** START_REFUSED with a result code; {@code retry}: the destination is busy, ask again later. */
    public Message startRefused(String id, int incarnation, int resultCode, String supplement, boolean retry)
            throws JMSException {
        Message m = stamped(Wire.START_REFUSED, id, incarnation);
        m.setIntProperty(Wire.RESULT_CODE, resultCode);
        m.setStringProperty(Wire.SUPPLEMENT, supplement);
        m.setBooleanProperty(Wire.RETRY, retry);
        return sealed(m, id);
    }

    /** ABORT: the destination cannot go on; the source ends the transfer with this result. */
    public Message abort(String id, int incarnation, int resultCode, String supplement) throws JMSException {
        Message m = stamped(Wire.ABORT, id, incarnation);
        m.setIntProperty(Wire.RESULT_CODE, resultCode);
        m.setStringProperty(Wire.SUPPLEMENT, supplement);
        return sealed(m, id);
    }

    /** ACK of everything up to {@code seq}; {@code checkpoint}: and it is durable. */
    public Message ack(String id, int incarnation, long seq, boolean checkpoint) throws JMSException {
        Message m = stamped(Wire.ACK, id, incarnation);
        m.setLongProperty(Wire.SEQ, seq);
        m.setBooleanProperty(Wire.CHECKPOINT, checkpoint);
        return sealed(m, id);
    }

    /** NACK: a gap; resend from {@code nextSeq}. */
    public Message nack(String id, int incarnation, long nextSeq) throws JMSException {
        Message m = stamped(Wire.NACK, id, incarnation);
        m.setLongProperty(Wire.NEXT_SEQ, nextSeq);
        return sealed(m, id);
    }

    /** ITEM_DONE: an item's outcome, which also acknowledges {@code seq}. */
    public Message itemDone(String id, int incarnation, int item, long seq, ItemOutcome o) throws JMSException {
        Message m = stamped(Wire.ITEM_DONE, id, incarnation);
        m.setIntProperty(Wire.ITEM, item);
        m.setLongProperty(Wire.SEQ, seq);
        m.setIntProperty(Wire.RESULT_CODE, o.resultCode());
        if (o.supplement() != null) {
            m.setStringProperty(Wire.SUPPLEMENT, o.supplement());
        }
        if (o.destination() != null) {
            m.setStringProperty(Wire.DEST_FILE, o.destination());
        }
        if (o.checksum() != null) {
            m.setStringProperty(Wire.CHECKSUM, o.checksum().hex());
        }
        m.setLongProperty(Wire.ITEM_BYTES, o.bytes());
        return sealed(m, id);
    }

    private <M extends Message> M sealed(M m, String id) throws JMSException {
        byte[] key = keys.key(id);
        if (key != null) {
            MessageTag.seal(m, key);
        }
        return m;
    }

    private Message stamped(String type, String id, int incarnation) throws JMSException {
        Message m = session.createMessage();
        stamp(m, type, id, incarnation);
        return m;
    }

    private void stamp(Message m, String type, String id, int incarnation) throws JMSException {
        addresser.address(m);
        m.setIntProperty(Wire.PROTOCOL, Wire.VERSION);
        m.setStringProperty(Wire.TYPE, type);
        m.setStringProperty(Wire.TRANSFER_ID, id);
        m.setIntProperty(Wire.INCARNATION, incarnation);
        m.setJMSCorrelationID(id);
    }

    // ------------------------------------------------------------------------------------------
    // Reading

    /** Whether the message speaks this agent's protocol version. */
    public static boolean versionOk(Message m) throws JMSException {
        Object version = m.getObjectProperty(Wire.PROTOCOL);
        return version instanceof Integer v ? v == Wire.VERSION
                : version != null && m.getIntProperty(Wire.PROTOCOL) == Wire.VERSION;
    }

    /**
     * Whether the message speaks this agent's protocol version; one that does not is logged, to
     * be dropped by the caller.
     */
    public static boolean versionOkOrWarn(Message m, String agentName) throws JMSException {
        if (versionOk(m)) {
            return true;
        }
        log.warn("Agent {}: dropped a message with protocol version {} (this agent speaks {})", agentName,
                m.getObjectProperty(Wire.PROTOCOL), Wire.VERSION);
        return false;
    }

    /** The message's type, one of {@link Wire}'s. */
    public static String type(Message m) throws JMSException {
        return m.getStringProperty(Wire.TYPE);
    }

    /**
     * The key a START carries.
     *
     * @return its bytes, or null when it has none or not a readable one
     */
    public static byte[] transferKey(Message m) throws JMSException {
        String key = m.getStringProperty(Wire.TRANSFER_KEY);
        try {
            return key == null ? null : Base64.getDecoder().decode(key);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * The protection a message declares: a START's {@link Wire#PROTECTION}; a DATA message's by the
     * seal its body carries. Covered by the message's tag, so only the transfer's agents can declare it.
     *
     * @return none when nothing is declared
     * @throws IllegalArgumentException for a START naming no known level
     */
    public static ProtectionLevel protection(Message m) throws JMSException {
        if (m.propertyExists(Wire.NONCE)) {
            return ProtectionLevel.PRIVACY;
        }
        if (m.propertyExists(Wire.BODY_MAC)) {
            return ProtectionLevel.INTEGRITY;
        }
        String word = m.getStringProperty(Wire.PROTECTION);
        return word == null ? ProtectionLevel.NONE : ProtectionLevel.parse(word);
    }

    /**
     * The key of a START: in the clear when unprotected; when protected, unwrapped with this agent's
     * key once the source agent's signature over the START is verified.
     *
     * @param peers this agent's keys and its peers' certificates
     * @return the key, or null when an unprotected START carries none readable
     * @throws ProtectionException when the signature is not the named source agent's, or the key was
     *                             not wrapped for this agent
     * @throws IllegalArgumentException when the START names no known protection level
     */
    public static byte[] startKey(Message m, PeerKeys peers) throws JMSException, ProtectionException {
        if (protection(m) == ProtectionLevel.NONE) {
            return transferKey(m);
        }
        String signature = m.getStringProperty(Wire.SIGNATURE);
        String wrapped = m.getStringProperty(Wire.WRAPPED_KEY);
        if (signature == null || wrapped == null) {
            throw new ProtectionException("a protected START without " + (signature == null ? Wire.SIGNATURE
                    : Wire.WRAPPED_KEY));
        }
        try {
            peers.verify(m.getStringProperty(Wire.SOURCE_AGENT), MessageTag.canonical(m),
                    Base64.getDecoder().decode(signature));
            return peers.unwrap(Base64.getDecoder().decode(wrapped));
        } catch (IllegalArgumentException e) {
            throw new ProtectionException("a protected START whose signature or key is not base64", e);
        }
    }

    /**
     * Opens a DATA body whose CRC32C matched, as its declared protection says.
     *
     * @param key    the transfer's key
     * @param body   the body as read
     * @param length its length
     * @param out    where a decrypted body goes (at least {@code length} bytes)
     * @return where the chunk's bytes are ({@code body} or {@code out}) and how many, or null when
     *         the body is not the one its sender protected (changed, moved or forged)
     */
    public static Chunk openBody(Message m, byte[] key, byte[] body, int length, byte[] out) throws JMSException {
        return openBody(m, protection(m), key, body, length, out);
    }

    /**
     * As {@link #openBody(Message, byte[], byte[], int, byte[])}, with the protection the receiver
     * already read from the message ({@link #protection}), so it is not read twice per chunk.
     *
     * @param level what {@link #protection} gave for {@code m}
     */
    public static Chunk openBody(Message m, ProtectionLevel level, byte[] key, byte[] body, int length, byte[] out)
            throws JMSException {
        if (level == ProtectionLevel.NONE) {
            return new Chunk(body, length);
        }
        byte[] place = BodySeal.place(transferId(m), incarnation(m), m.getLongProperty(Wire.SEQ),
                longOr(m, Wire.OFFSET, 0));
        try {
            if (level == ProtectionLevel.INTEGRITY) {
                return BodySeal.macMatches(key, place, body, length,
                        Base64.getDecoder().decode(m.getStringProperty(Wire.BODY_MAC))) ? new Chunk(body, length) : null;
            }
            int plain = BodySeal.decrypt(key, Base64.getDecoder().decode(m.getStringProperty(Wire.NONCE)), place, body,
                    length, out);
            return plain < 0 ? null : new Chunk(out, plain);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * Decompresses an opened DATA body when its sender compressed it ({@link Wire#COMPRESSION}).
     *
     * @param opened     the body as {@link #openBody} gave it
     * @param compressor where it is decompressed to, bounded by the compressor's limit
     * @return {@code opened} when the body is not compressed, else the chunk in the compressor's buffer
     * @throws CompressionException when the method is unknown here, or the body does not give the
     *                              length it declares ({@link Wire#CHUNK_LENGTH})
     */
    public static Chunk decompressBody(Message m, Chunk opened, ChunkCompressor compressor) throws JMSException,
            CompressionException {
        String word = m.getStringProperty(Wire.COMPRESSION);
        if (word == null) {
            return opened;
        }
        CompressionMethod method;
        try {
            method = CompressionMethod.parse(word);
        } catch (IllegalArgumentException e) {
            throw new CompressionException("it is compressed with '" + word + "', a method this agent does not know",
                    false);
        }
        int length = compressor.decompress(method, opened.bytes(), opened.length(), intOr(m, Wire.CHUNK_LENGTH, -1));
        return new Chunk(compressor.buffer(), length);
    }

    /**
     * A chunk's bytes as opened.
     *
     * @param bytes  the buffer
     * @param length how many of its bytes are the chunk's
     */
    public record Chunk(byte[] bytes, int length) {
    }

    /**
     * Whether a DATA message's body is what its sender wrote: its CRC32C matches {@link Wire#CRC32C}.
     *
     * @param body   the body as read
     * @param length its length
     */
    public static boolean bodyIntact(Message m, byte[] body, int length) throws JMSException {
        Object declared = m.getObjectProperty(Wire.CRC32C);
        if (declared == null) {
            return false;
        }
        long expected = declared instanceof Long l ? l : m.getLongProperty(Wire.CRC32C);
        CRC32C crc = new CRC32C();
        crc.update(body, 0, length);
        return crc.getValue() == expected;
    }

    /** The transfer the message belongs to. */
    public static String transferId(Message m) throws JMSException {
        return m.getStringProperty(Wire.TRANSFER_ID);
    }

    /** The incarnation of the transfer the message belongs to (0 if absent). */
    public static int incarnation(Message m) throws JMSException {
        return intOr(m, Wire.INCARNATION, 0);
    }

    /** NEXT_SEQ of an ACK_REQUEST, START_OK or NACK (-1 if absent). */
    public static long nextSeq(Message m) throws JMSException {
        return longOr(m, Wire.NEXT_SEQ, -1);
    }

    /** FIRST_OPEN_ITEM of a START or ACK_REQUEST (-1 if absent: an older source, or none open). */
    public static int firstOpenItem(Message m) throws JMSException {
        return intOr(m, Wire.FIRST_OPEN_ITEM, -1);
    }

    /** The supplement (why), or null. */
    public static String supplement(Message m) throws JMSException {
        return m.getStringProperty(Wire.SUPPLEMENT);
    }

    /** A START. */
    public static Start readStart(Message m) throws JMSException {
        return new Start(transferId(m), incarnation(m), m.getStringProperty(Wire.SOURCE_AGENT),
                m.getStringProperty(Wire.SOURCE_QMGR), m.getStringProperty(Wire.DESTINATION_AGENT),
                intOr(m, Wire.ITEM_COUNT, 0), intOr(m, Wire.WINDOW, 1), intOr(m, Wire.CHECKPOINT_CHUNKS, 1),
                m.getStringProperty(Wire.ORIGINATOR_USER), m.getStringProperty(Wire.REQUESTER_USER),
                m.getStringProperty(Wire.JOB_NAME),
                firstOpenItem(m),
                m.propertyExists(Wire.AUTHORITY_CHECKING) && m.getBooleanProperty(Wire.AUTHORITY_CHECKING));
    }

    /** A DATA or ITEM_ABORT message's properties (not the chunk's bytes). */
    public static Sequenced readSequenced(Message m) throws JMSException {
        boolean abort = Wire.ITEM_ABORT.equals(type(m));
        boolean first = !abort && boolOr(m, Wire.FIRST);
        boolean last = abort || boolOr(m, Wire.LAST);
        ItemHeader header = first || abort ? new ItemHeader(m.getStringProperty(Wire.DEST_PATH),
                m.getStringProperty(Wire.DEST_TYPE), m.getStringProperty(Wire.RELATIVE_PATH),
                m.getStringProperty(Wire.EXIST), m.getStringProperty(Wire.CHECKSUM_METHOD),
                m.getStringProperty(Wire.MODE), m.getStringProperty(Wire.SOURCE_PATH), longOr(m, Wire.SOURCE_SIZE, -1),
                m.getStringProperty(Wire.QUEUE_OPTIONS)) : null;
        return new Sequenced(abort, incarnation(m), m.getLongProperty(Wire.SEQ), m.getIntProperty(Wire.ITEM),
                longOr(m, Wire.OFFSET, 0), first, last, header, last ? longOr(m, Wire.ITEM_BYTES, -1) : -1,
                last ? m.getStringProperty(Wire.CHECKSUM) : null, abort ? supplement(m) : null,
                Math.max(1, intOr(m, Wire.CHANNELS, 1)));
    }

    /**
     * A destination-to-source message.
     *
     * @param sender the user the queue manager validated for it, or null
     */
    public static Control readControl(Message m, String sender) throws JMSException {
        return new Control(type(m), incarnation(m), longOr(m, Wire.SEQ, -1), nextSeq(m), intOr(m, Wire.ITEM, -1),
                intOr(m, Wire.RESULT_CODE, 0), supplement(m), m.getStringProperty(Wire.DEST_FILE),
                m.getStringProperty(Wire.CHECKSUM), longOr(m, Wire.ITEM_BYTES, 0), boolOr(m, Wire.CHECKPOINT),
                boolOr(m, Wire.RETRY), sender, m.getStringProperty(Wire.DECOMPRESSES), boolOr(m, Wire.RUNS_CALLS),
                Wire.CALL_RESULT.equals(type(m)) ? readCallAnswer(m) : null);
    }

    private static CallAnswer readCallAnswer(Message m) throws JMSException {
        String phase = m.getStringProperty(Wire.CALL_PHASE);
        String outcome = m.getStringProperty(Wire.CALL_OUTCOME);
        if (phase == null || outcome == null) {
            return null;
        }
        return new CallAnswer(phase, outcome, Math.max(0, intOr(m, Wire.CALL_RETRIES, 0)),
                m.propertyExists(Wire.CALL_RETURN_CODE) ? m.getIntProperty(Wire.CALL_RETURN_CODE) : null,
                lines(m.getStringProperty(Wire.CALL_STDOUT)), lines(m.getStringProperty(Wire.CALL_STDERR)), supplement(m));
    }

    private static java.util.List<String> lines(String text) {
        return text == null || text.isEmpty() ? java.util.List.of() : java.util.List.of(text.split("\n", -1));
    }

    // One look-up per property read (each by-name look-up converts the name for Artemis): the value
    // of the type the protocol sets is taken as it is; any other goes through JMS's conversions, as
    // an exists-then-get would.

    private static int intOr(Message m, String name, int dflt) throws JMSException {
        Object v = m.getObjectProperty(name);
        return v instanceof Integer i ? i : v == null ? dflt : m.getIntProperty(name);
    }

    private static long longOr(Message m, String name, long dflt) throws JMSException {
        Object v = m.getObjectProperty(name);
        return v instanceof Long l ? l : v == null ? dflt : m.getLongProperty(name);
    }

    private static boolean boolOr(Message m, String name) throws JMSException {
        Object v = m.getObjectProperty(name);
        return v instanceof Boolean b ? b : v != null && m.getBooleanProperty(name);
    }
}
