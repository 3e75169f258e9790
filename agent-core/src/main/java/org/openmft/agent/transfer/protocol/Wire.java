package org.openmft.agent.transfer.protocol;

/**
 * OpenMFT's agent-to-agent protocol (layer 2), version {@value #VERSION}: the message types and
 * JMS property names of the messages between a source and a destination agent. Documented in
 * docs/architecture.md, "Agent-to-agent protocol"; any change that an older agent cannot read
 * raises {@link #VERSION}.
 *
 * <p>Source to destination messages go to {@code SYSTEM.FTE.DATA.<destination>}; destination to
 * source messages go to {@code SYSTEM.FTE.REPLY.<source>}. Every message carries the protocol
 * version, its type, the transfer id (also as JMSCorrelationID) and the incarnation of the
 * transfer, so messages from before a restart or resynchronisation are recognised and dropped.
 *
 * <p>Only {@link ProtocolCodec} builds and reads these messages; the names are public for tests
 * and tools that look at the queues.
 */
public final class Wire {
    /** The protocol version this agent speaks. */
    public static final int VERSION = 2;

    // Properties on every message.
    /** int: protocol version. */
    public static final String PROTOCOL = "mftProtocol";
    /** String: message type, one of the constants below. */
    public static final String TYPE = "mftType";
    /** String: the 48-hex transfer id. */
    public static final String TRANSFER_ID = "mftTransferId";
    /** int: incarnation of the transfer; raised by each resynchronisation. */
    public static final String INCARNATION = "mftIncarnation";
    /**
     * String: the message's tag, base64 of an HMAC-SHA256 under the transfer's key of its other
     * protocol properties ({@link MessageTag}); a message without the right one is dropped.
     */
    public static final String TAG = "mftTag";

    // Source -> destination (DATA queue).
    /** Starts (negotiates) a transfer. */
    public static final String START = "START";
    /** A chunk of an item's data; the first chunk of an item carries the item's metadata. */
    public static final String DATA = "DATA";
    /** The source gave up an item (it could not be read, or changed): the destination discards it. */
    public static final String ITEM_ABORT = "ITEM_ABORT";
    /** The source cancels the transfer. */
    public static final String CANCEL = "CANCEL";
    /**
     * No acknowledgement came in time: where are you? {@link #NEXT_SEQ} is the source's next
     * number (everything below was sent), {@link #FIRST_OPEN_ITEM} the first item it has no result
     * for. The destination answers an ACK when it has everything, a NACK naming the first missing
     * chunk otherwise, and the ITEM_DONE of each item from FIRST_OPEN_ITEM on that it finished;
     * nothing is resent blindly.
     */
    public static final String ACK_REQUEST = "ACK_REQUEST";
    /** The source has the outcome; the destination may forget the transfer. */
    public static final String COMPLETE_ACK = "COMPLETE_ACK";

    // Destination -> source (REPLY queue).
    /** The destination accepts the transfer; {@link #NEXT_SEQ} says where to (re)start. */
    public static final String START_OK = "START_OK";
    /** The destination refuses the transfer; {@link #RETRY} says whether to try again later. */
    public static final String START_REFUSED = "START_REFUSED";
    /** Cumulative acknowledgement: every chunk up to and including {@link #SEQ} is written. */
    public static final String ACK = "ACK";
    /** A gap: the destination expects {@link #NEXT_SEQ}; the source resends from there. */
    public static final String NACK = "NACK";
    /** The outcome of one item. */
    public static final String ITEM_DONE = "ITEM_DONE";
    /** The destination cancelled its side (on the source's CANCEL, or a cancel sent to it). */
    public static final String CANCELLED = "CANCELLED";
    /** A cancel request arrived at the destination agent: the source should cancel. */
    public static final String CANCEL_REQUEST = "CANCEL_REQUEST";
    /**
     * The destination cannot go on with the transfer (it could not make its state durable):
     * the source ends it with {@link #RESULT_CODE} and {@link #SUPPLEMENT}. An agent that does
     * not know this type ignores it and the transfer recovers through its timeouts instead.
     */
    public static final String ABORT = "ABORT";
    /**
     * Source to destination: run the destination's program call of phase {@link #CALL_PHASE}
     * ({@link #CALL_SPEC}) and answer {@link #CALL_RESULT}. Sent only to a destination whose
     * START_OK carried {@link #RUNS_CALLS}.
     */
    public static final String CALL = "CALL";
    /** Destination to source: what came of a {@link #CALL} ({@link #CALL_OUTCOME} and the rest). */
    public static final String CALL_RESULT = "CALL_RESULT";

    // START properties.
    /**
     * String: base64 of the transfer's key (derived by the source agent, see {@link MessageTag}), which tags every later message of
     * the transfer both ways; a resynchronising START must carry the key the destination holds.
     */
    public static final String TRANSFER_KEY = "mftTransferKey";
    /**
     * String, on a START: the transfer's protection level ({@code integrity} or {@code privacy};
     * absent means none). Above none, the START carries {@link #WRAPPED_KEY} and {@link #SIGNATURE}
     * instead of {@link #TRANSFER_KEY}, and every DATA body is protected ({@link #BODY_MAC} or
     * {@link #NONCE}).
     */
    public static final String PROTECTION = "mftProtection";
    /**
     * String, on a protected START: base64 of the transfer's key wrapped (RSA-OAEP) for the
     * destination agent's public key, so only that agent can read it.
     */
    public static final String WRAPPED_KEY = "mftWrappedKey";
    /**
     * String, on a protected START: base64 of the source agent's signature (RSASSA-PSS) over the
     * START's other protocol properties, as {@link MessageTag} lists them.
     */
    public static final String SIGNATURE = "mftSignature";
    /** String: source agent name (its REPLY queue receives the answers). */
    public static final String SOURCE_AGENT = "mftSourceAgent";
    /** String: source agent queue manager. */
    public static final String SOURCE_QMGR = "mftSourceQMgr";
    /** String: destination agent name. */
    public static final String DESTINATION_AGENT = "mftDestinationAgent";
    /** int: number of items. */
    public static final String ITEM_COUNT = "mftItemCount";
    /** int: chunks between acknowledgements (the source's agentWindowSize). */
    public static final String WINDOW = "mftWindow";
    /** int: chunks between checkpoints (window x frame x checkpoint interval). */
    public static final String CHECKPOINT_CHUNKS = "mftCheckpointChunks";
    /**
     * String: the user the request's {@code <originator>} names, for logs only: whoever sends a
     * request writes it, so it is never an identity.
     */
    public static final String ORIGINATOR_USER = "mftOriginatorUser";
    /**
     * String: the user the source agent's queue manager validated for the request (the command
     * message's {@code JMSXUserID}); absent when it carried none. The destination judges writes by
     * this user's sandbox when it has {@code userSandboxes=true}; there its absence means that no
     * file may be written. Optional, so an agent that does not know it ignores it and the protocol
     * version stays 1.
     */
    public static final String REQUESTER_USER = "mftRequesterUser";
    /** String: job name, when given. */
    public static final String JOB_NAME = "mftJobName";
    /**
     * int: on a resynchronising START, and on an ACK_REQUEST, the lowest item index the source has
     * no result for; the destination sends the results it has for that item and later ones again
     * (an ITEM_DONE is not persistent, and one lost would otherwise wait for a resynchronisation).
     * Absent (an older source): nothing is sent again.
     */
    public static final String FIRST_OPEN_ITEM = "mftFirstOpenItem";
    /**
     * boolean, on a START: the source agent has {@code authorityChecking=true}. Absent means false (an
     * agent that does not know the property never checks), so it needs no new protocol version.
     */
    public static final String AUTHORITY_CHECKING = "mftAuthorityChecking";

    // DATA properties.
    /** long: sequence number of the message within the transfer, from 0, contiguous. */
    public static final String SEQ = "mftSeq";
    /**
     * Int, on DATA and ITEM_ABORT of a transfer spread over several channels: how many; message
     * {@code seq} went over channel {@code seq % n}, and each channel keeps its order, so the
     * destination may hold chunks that overtook others and knows one lost when a later one of the
     * same channel arrives first. Absent: one channel, in order.
     */
    public static final String CHANNELS = "mftChannels";
    /** int: item index, from 0. */
    public static final String ITEM = "mftItem";
    /** long: byte offset of the chunk in the destination file. */
    public static final String OFFSET = "mftOffset";
    /** boolean: first chunk of the item (carries the item metadata below). */
    public static final String FIRST = "mftFirst";
    /** boolean: last chunk of the item (carries the checksum and size). */
    public static final String LAST = "mftLast";
    /** String: destination path as requested. */
    public static final String DEST_PATH = "mftDestPath";
    /** String: "file", "directory" or "queue" (file to message). */
    public static final String DEST_TYPE = "mftDestType";
    /**
     * String, a queue item's only: how the file becomes messages, IBM's {@code <queue>} attributes
     * as {@code name=value} pairs, URL-encoded and joined by {@code &}, plus the source file's
     * {@code lastModified} (milliseconds) for {@code usr.WMQFTEFileLastModified}.
     */
    public static final String QUEUE_OPTIONS = "mftQueueOptions";
    /** String: the file's path relative to the source selection ('/'-separated). */
    public static final String RELATIVE_PATH = "mftRelativePath";
    /** String: "error" or "overwrite". */
    public static final String EXIST = "mftExist";
    /** String: "MD5", "SHA-256" or "none" (as {@code <item checksumMethod>} writes them). */
    public static final String CHECKSUM_METHOD = "mftChecksumMethod";
    /** String: "binary" or "text". */
    public static final String MODE = "mftMode";
    /** String: the source file's path, for logs and results. */
    public static final String SOURCE_PATH = "mftSourcePath";
    /** long: the source file's size. */
    public static final String SOURCE_SIZE = "mftSourceSize";
    /**
     * String: the hex digest of the item's bytes as sent, by the method its first chunk names in
     * {@link #CHECKSUM_METHOD} (last chunk, unless the method is none); on ITEM_DONE, the digest the
     * destination verified.
     */
    public static final String CHECKSUM = "mftChecksum";
    /** long: total bytes of the item as sent (last chunk). */
    public static final String ITEM_BYTES = "mftItemBytes";
    /**
     * long: CRC32C of the DATA message's body, checked before the chunk is used: a damaged chunk is
     * dropped and sent again at once rather than found by the item's checksum at its end.
     */
    public static final String CRC32C = "mftCrc32c";
    /**
     * String, on DATA of a transfer protected for integrity: base64 of the HMAC of the body at its
     * place (see {@code BodySeal}); a body that does not match is treated as lost and asked for again.
     */
    public static final String BODY_MAC = "mftBodyMac";
    /**
     * String, on DATA of a transfer protected for privacy: base64 of the AES-GCM nonce the body was
     * encrypted with; the body is the ciphertext and its GCM tag.
     */
    public static final String NONCE = "mftNonce";
    /**
     * String, on DATA whose body is compressed: the method ({@code lz4} or {@code zstd}, see
     * {@code CompressionMethod}); absent when the body is the chunk as read (compression off, or a
     * chunk that did not shrink). The body is compressed before it is protected, so at privacy it is
     * the ciphertext of the compressed chunk. Offsets, sizes and checksums stay those of the file's bytes.
     */
    public static final String COMPRESSION = "mftCompression";
    /**
     * int, with {@link #COMPRESSION}: the chunk's length before compression. The destination
     * decompresses into at most this many bytes (never more than the largest chunk it accepts) and
     * treats a body that gives any other length as damaged.
     */
    public static final String CHUNK_LENGTH = "mftChunkLength";

    // Answers.
    /**
     * String, on START_OK: the compression methods the destination can decompress, separated by
     * commas (such as {@code lz4,zstd}). A source compresses only with a method listed, so an agent
     * from before compression, which lists none, gets chunks as read.
     */
    public static final String DECOMPRESSES = "mftDecompresses";
    /** long: next expected sequence number (START_OK, NACK). */
    public static final String NEXT_SEQ = "mftNextSeq";
    /** boolean: ACK marks a checkpoint (the data up to SEQ is on disk). */
    public static final String CHECKPOINT = "mftCheckpoint";
    /** int: an MFT result code. */
    public static final String RESULT_CODE = "mftResultCode";
    /** String: message for people (BFG-style). */
    public static final String SUPPLEMENT = "mftSupplement";
    /** boolean: START_REFUSED may be retried later (the destination is busy). */
    public static final String RETRY = "mftRetry";
    /** String: the destination file written. */
    public static final String DEST_FILE = "mftDestFile";

    // Program calls (added within version 2: optional, ignored by agents that do not know them).
    /** boolean, on START_OK: this destination runs program calls ({@link #CALL}). */
    public static final String RUNS_CALLS = "mftRunsCalls";
    /** String, CALL and CALL_RESULT: the phase, as IBM's element name ({@code preDestinationCall}, {@code postDestinationCall}). */
    public static final String CALL_PHASE = "mftCallPhase";
    /** String, CALL: the call in the command-line form ({@code CallSpecs.format}). */
    public static final String CALL_SPEC = "mftCall";
    /** String, CALL_RESULT: {@code success}, {@code failure} or {@code error}. */
    public static final String CALL_OUTCOME = "mftCallOutcome";
    /** int, CALL_RESULT: attempts after the first. */
    public static final String CALL_RETRIES = "mftCallRetries";
    /** int, CALL_RESULT: the last attempt's return code; absent when none ran to its end. */
    public static final String CALL_RETURN_CODE = "mftCallReturnCode";
    /** String, CALL_RESULT: the program's standard output, lines separated by LF, at most {@link #MAX_CALL_OUTPUT_CHARS}. */
    public static final String CALL_STDOUT = "mftCallStdout";
    /** String, CALL_RESULT: its standard error, likewise. */
    public static final String CALL_STDERR = "mftCallStderr";
    /** Most characters of each output a CALL_RESULT carries (the destination's maxCommandOutputSize bounds it first). */
    public static final int MAX_CALL_OUTPUT_CHARS = 65536;

    private Wire() {
    }
}
