package org.openmft.agent.config;

import static org.openmft.agent.config.CommonKeys.CONNECTION;
import static org.openmft.agent.config.CommonKeys.EXITS;
import static org.openmft.agent.config.CommonKeys.HIGH_AVAILABILITY;
import static org.openmft.agent.config.CommonKeys.LIMITS;
import static org.openmft.agent.config.CommonKeys.LOGGING;
import static org.openmft.agent.config.CommonKeys.MONITORS;
import static org.openmft.agent.config.CommonKeys.QUEUE_IO;
import static org.openmft.agent.config.CommonKeys.SECURITY;
import static org.openmft.agent.config.CommonKeys.STATUS;
import static org.openmft.agent.config.CommonKeys.TIMEOUTS;
import static org.openmft.agent.config.CommonKeys.TRANSFER;
import static org.openmft.agent.config.CommonKeys.WINDOWS;

import java.nio.file.Path;

import org.openmft.agent.compression.CompressionMethod;
import org.openmft.agent.compression.CompressionPolicy;
import org.openmft.agent.protection.MessageProtection;
import org.openmft.agent.protection.ProtectionLevel;

/**
 * The keys of {@code agent.properties}, with IBM MFT's names and defaults. Keys OpenMFT does not
 * implement yet are declared too ({@code supported=false}), so that an IBM file loads with one
 * warning per such key instead of "unknown key" noise, and so that the reference lists them.
 *
 * <p>Where IBM documents no range, the range is OpenMFT's, chosen to refuse values that can only be
 * typing mistakes.
 *
 * <p>Why this file stays whole (over 600 lines): it is IBM's {@code agent.properties} as one list,
 * in the order of the written files and of the README's reference, which is generated from it;
 * split by group, the order and the one place an administrator's key is looked up would be lost.
 */
public final class AgentProperties {

    private AgentProperties() {
    }

    // ---- Connection ----------------------------------------------------------------------------

    /** Agent name, upper-cased when read; 1 to 28 characters so that every queue name fits in 48. */
    public static final ConfigKey<String> AGENT_NAME = ConfigKey.string("agentName").required()
            .validator(QueueNames.AGENT_NAME_RULE).normalizer(ConfigKey::upperCase).supported().group(CONNECTION)
            .description("Agent name, used in queue names such as SYSTEM.FTE.COMMAND.<agentName>; upper-cased when read.")
            .build();

    /** Free-text description. */
    public static final ConfigKey<String> AGENT_DESC = ConfigKey.string("agentDesc").supported().group(CONNECTION)
            .description("Free-text description, published in the agent status.").build();

    /** Agent queue manager name. */
    public static final ConfigKey<String> AGENT_QMGR = CommonKeys.qmgr("agentQMgr",
            "Agent queue manager, which holds the agent's SYSTEM.FTE queues.");

    /** Host of the agent queue manager; absent means bindings. */
    public static final ConfigKey<String> AGENT_QMGR_HOST = CommonKeys.host("agentQMgrHost", "agentQMgr");

    /** Client port of the agent queue manager. */
    public static final ConfigKey<Integer> AGENT_QMGR_PORT = CommonKeys.port("agentQMgrPort");

    /** Server-connection channel of the agent queue manager. */
    public static final ConfigKey<String> AGENT_QMGR_CHANNEL = CommonKeys.channel("agentQMgrChannel");

    /** Standby instance of a multi-instance agent queue manager (not supported yet). */
    public static final ConfigKey<String> AGENT_QMGR_STANDBY = CommonKeys.standby("agentQMgrStandby");

    /** Kind of agent; only STANDARD is implemented, so anything else is refused rather than ignored. */
    public static final ConfigKey<String> AGENT_TYPE = ConfigKey.string("agentType").defaultValue("STANDARD")
            .validator(Validator.oneOf("STANDARD")).supported().group(CONNECTION)
            .description("Kind of agent. OpenMFT implements STANDARD agents only, not IBM's BRIDGE, CD_BRIDGE, "
                    + "EMBEDDED or SFG agents.")
            .build();

    // ---- OpenMFT -------------------------------------------------------------------------------

    /** Messaging system of the agent queue manager (OpenMFT only). */
    public static final ConfigKey<MessagingProvider> AGENT_QMGR_PROVIDER =
            CommonKeys.provider("agentQMgrProvider", "agentQMgr");

    /** Planned items held across queued and running source transfers (OpenMFT only). */
    public static final ConfigKey<Integer> MAX_PLANNED_ITEMS = ConfigKey.integer("openmft.maxPlannedItems")
            .defaultValue(100000).validator(Validator.intRange(1, 10000000)).supported().group(CommonKeys.OPENMFT)
            .description("OpenMFT only: files planned (after wildcard expansion) that the source agent holds across"
                    + " its queued and running transfers; a transfer that would go beyond fails (result 44)."
                    + " Bounds the memory of maxQueuedTransfers × maxFilesForTransfer.")
            .build();

    // ---- Transfer data flow --------------------------------------------------------------------

    /** Bytes of file data per data message. */
    public static final ConfigKey<Integer> AGENT_CHUNK_SIZE = ConfigKey.integer("agentChunkSize").defaultValue(262144)
            .validator(Validator.intRange(1024, 4128768)).unit("bytes").supported().group(TRANSFER)
            .description("File data carried by one data message.").build();

    /** Chunks sent before waiting for an acknowledgement. */
    public static final ConfigKey<Integer> AGENT_WINDOW_SIZE = ConfigKey.integer("agentWindowSize").defaultValue(10)
            .validator(Validator.intRange(1, 1000)).unit("chunks").supported().group(TRANSFER)
            .description("Chunks the source sends before it waits for an acknowledgement from the destination.")
            .build();

    /** Windows per frame. */
    public static final ConfigKey<Integer> AGENT_FRAME_SIZE = ConfigKey.integer("agentFrameSize").defaultValue(5)
            .validator(Validator.intRange(1, 1000)).unit("windows").supported().group(TRANSFER)
            .description("Windows in one frame, the unit in which chunk numbers are counted.").build();

    /** Frames between checkpoints. */
    public static final ConfigKey<Integer> AGENT_CHECKPOINT_INTERVAL = ConfigKey.integer("agentCheckpointInterval")
            .defaultValue(1).validator(Validator.intRange(1, 1000)).unit("frames").supported().group(TRANSFER)
            .description("Complete frames between the checkpoints a transfer restarts from after recovery.").build();

    /** Messages per commit in queue transfers (not supported yet). */
    public static final ConfigKey<Integer> AGENT_MESSAGE_BATCH_SIZE = ConfigKey.integer("agentMessageBatchSize")
            .defaultValue(5).validator(Validator.intRange(1, 10000)).unit("messages").group(TRANSFER)
            .description("Messages read or written per commit in message-to-file and file-to-message transfers.")
            .build();

    /** Largest file of a one-file transfer carried inline, with the negotiation. */
    public static final ConfigKey<Long> MAX_INLINE_FILE_SIZE = ConfigKey.longInteger("maxInlineFileSize")
            .defaultValue(0L).validator(Validator.longRange(0, 104857600)).unit("bytes").supported().group(TRANSFER)
            .description("Largest file of a one-file transfer (file to file or file to message) whose data goes"
                    + " with the start of the transfer, before the destination answers; 0 turns inline transfers off."
                    + " Binary files of at most one agentChunkSize only.")
            .build();

    /** Write to the final name directly instead of a .part file. */
    public static final ConfigKey<Boolean> DO_NOT_USE_TEMP_OUTPUT_FILE = ConfigKey.bool("doNotUseTempOutputFile")
            .defaultValue(false).supported().group(TRANSFER)
            .description("true writes straight to the destination file name instead of <name>.part renamed at the end.")
            .build();

    /** Base of relative paths; the agent user's home directory by default. */
    public static final ConfigKey<Path> TRANSFER_ROOT = ConfigKey.path("transferRoot")
            .computedDefault(() -> Path.of(System.getProperty("user.home")), "home directory of the agent user")
            .supported().group(TRANSFER)
            .description("Directory that relative source and destination paths are resolved against.").build();

    /** z/OS data set qualifier (not supported). */
    public static final ConfigKey<String> TRANSFER_ROOT_HLQ = ConfigKey.string("transferRootHLQ").group(TRANSFER)
            .description("z/OS high-level qualifier for relative data set names.").build();

    /** Replacement for unmappable characters in text transfers; empty makes the item fail instead. */
    public static final ConfigKey<String> TEXT_REPLACEMENT_CHARACTER_SEQUENCE =
            ConfigKey.string("textReplacementCharacterSequence").defaultValue("").supported().group(TRANSFER)
                    .description("Replaces characters a text transfer cannot convert; empty makes the item fail instead.")
                    .build();

    /** I/O worker threads (not supported yet). */
    public static final ConfigKey<Integer> IO_THREAD_POOL_SIZE = ConfigKey.integer("ioThreadPoolSize").defaultValue(10)
            .validator(Validator.intRange(1, 1000)).unit("threads").group(TRANSFER)
            .description("Threads doing file input and output for transfers.").build();

    /** Heap check before a transfer starts (not supported yet). */
    public static final ConfigKey<Boolean> ENABLE_MEMORY_ALLOCATION_CHECKING =
            ConfigKey.bool("enableMemoryAllocationChecking").defaultValue(false).group(TRANSFER)
                    .description("Refuse a transfer when the heap cannot hold its chunk buffers.").build();

    /** Spread data over several channels (IBM's queue manager aliases SYSTEM.FTE.<QM>_n). */
    public static final ConfigKey<Boolean> AGENT_MULTIPLE_CHANNELS_ENABLED =
            ConfigKey.bool("agentMultipleChannelsEnabled").defaultValue(false).supported().group(TRANSFER)
                    .description("As a source, spread the data of a transfer to an agent on another queue manager"
                            + " over the channels that the queue manager aliases SYSTEM.FTE.<QM>_1, _2, ... (consecutive"
                            + " from 1) lead through, chunk by chunk in turn; with fewer than two aliases, as without"
                            + " it. On an embedded queue manager the aliases are its parallel channels ('mft qmgr"
                            + " channel create --channels N'); on IBM MQ, QREMOTE aliases ('mft qmgr channel mqsc"
                            + " --channels N').")
                    .build();

    /** A flow-control window sized from the link (OpenMFT only). */
    public static final ConfigKey<Boolean> ADAPTIVE_WINDOW = ConfigKey.bool("openmft.adaptiveWindow")
            .defaultValue(false).supported().group(TRANSFER)
            .description("OpenMFT only: the source sizes each transfer's window of unacknowledged chunks from the"
                    + " link: about twice the bandwidth-delay product it measures (the smallest recent round trip"
                    + " from a chunk to its acknowledgement, times the rate acknowledged), never below"
                    + " agentWindowSize × agentFrameSize chunks and never above 32 MiB of chunks. For links with"
                    + " long round trips (tens of milliseconds and more), where the fixed window, not the link,"
                    + " would limit the rate. Off by default: see docs/architecture.md, \"Flow control over a"
                    + " long link\".")
            .build();

    /** Chunk compression between agents (IBM MQ's channel attribute COMPMSG). */
    public static final ConfigKey<CompressionMethod> COMPRESSION = ConfigKey.enumeration("openmft.compression",
            CompressionMethod.class, CompressionMethod::word).defaultValue(CompressionMethod.NONE).supported()
            .group(TRANSFER).validator(Validator.of(CompressionMethod::available, "none, lz4 or zstd (zstd where its"
                    + " native library loads on this platform)"))
            .description("OpenMFT only: how this agent, as a source, compresses the chunks it sends (IBM MQ's "
                    + "channel compression, COMPMSG, done end to end by the agents): none, lz4 (fast, a pure Java "
                    + "fallback where its native code does not load) or zstd (a better ratio for more CPU). A chunk "
                    + "that does not shrink (random or already compressed data) goes as it is. The destination "
                    + "decompresses whatever its own setting, and a destination that cannot (an older agent) gets "
                    + "chunks uncompressed. Compression comes before message protection. The default, none, is "
                    + "IBM's: it costs CPU on both agents and pays only where the network, not the disk or the CPU,"
                    + " limits transfers of compressible files.")
            .build();

    /** Per-agent exceptions to openmft.compression. */
    public static final ConfigKey<String> COMPRESSION_BY_AGENT = ConfigKey.string("openmft.compressionByAgent")
            .supported().group(TRANSFER)
            .validator(Validator.of(AgentProperties::isCompressionByAgent, "AGENT=none|lz4|zstd pairs separated by"
                    + " commas (zstd where its native library loads on this platform)"))
            .description("OpenMFT only: the compression with named destination agents, overriding "
                    + "openmft.compression for them: AGENT=method pairs separated by commas, such as "
                    + "REMOTE=zstd,LOCAL=none.")
            .build();

    // ---- Queue input/output --------------------------------------------------------------------

    /** Allow file-to-message (as destination) and message-to-file (as source) transfers. */
    public static final ConfigKey<Boolean> ENABLE_QUEUE_INPUT_OUTPUT = ConfigKey.bool("enableQueueInputOutput")
            .defaultValue(false).supported().group(QUEUE_IO)
            .description("Allow file-to-message (as destination) and message-to-file (as source) transfers. A"
                    + " file-to-message transfer to an agent without it ends with result 56, a message-to-file"
                    + " transfer from one with result 59.").build();

    /** Largest message read or written in queue transfers. */
    public static final ConfigKey<Integer> MAX_INPUT_OUTPUT_MESSAGE_LENGTH =
            ConfigKey.integer("maxInputOutputMessageLength").defaultValue(1048576)
                    .validator(Validator.intRange(1, 104857600)).unit("bytes").supported().group(QUEUE_IO)
                    .description("Largest message read from a source queue or written to a destination queue.").build();

    /** Longest match of a regular-expression delimiter. */
    public static final ConfigKey<Integer> MAX_DELIMITER_MATCH_LENGTH = ConfigKey.integer("maxDelimiterMatchLength")
            .defaultValue(5).validator(Validator.intRange(1, 100000)).unit("characters").supported().group(QUEUE_IO)
            .description("Most characters a regular-expression delimiter may match when a text file is split into "
                    + "messages.")
            .build();

    // ---- Limits --------------------------------------------------------------------------------

    /** Concurrent transfers as source; 0 refuses all. */
    public static final ConfigKey<Integer> MAX_SOURCE_TRANSFERS = ConfigKey.integer("maxSourceTransfers")
            .defaultValue(25).validator(Validator.intRange(0, 1000)).supported().group(LIMITS)
            .description("Transfers this agent runs at once as source; 0 refuses every source transfer (result 51).")
            .build();

    /** Concurrent transfers as destination; 0 refuses all. */
    public static final ConfigKey<Integer> MAX_DESTINATION_TRANSFERS = ConfigKey.integer("maxDestinationTransfers")
            .defaultValue(25).validator(Validator.intRange(0, 1000)).supported().group(LIMITS)
            .description("Transfers this agent runs at once as destination; 0 refuses every one (result 52).")
            .build();

    /** Transfers waiting to start. */
    public static final ConfigKey<Integer> MAX_QUEUED_TRANSFERS = ConfigKey.integer("maxQueuedTransfers")
            .defaultValue(1000).validator(Validator.intRange(0, 100000)).supported().group(LIMITS)
            .description("Transfers waiting to start that the source agent holds; more are rejected (result 44).")
            .build();

    /** Items per transfer after wildcard expansion. */
    public static final ConfigKey<Integer> MAX_FILES_FOR_TRANSFER = ConfigKey.integer("maxFilesForTransfer")
            .defaultValue(5000).validator(Validator.intRange(1, 1000000)).supported().group(LIMITS)
            .description("Items one transfer may hold after wildcard expansion; more fail the transfer (BFGSS0033E).")
            .build();

    /** Captured output of calls. */
    public static final ConfigKey<Integer> MAX_COMMAND_OUTPUT_SIZE = ConfigKey.integer("maxCommandOutputSize")
            .defaultValue(10240).validator(Validator.intRange(0, 104857600)).unit("bytes").supported().group(LIMITS)
            .description("Standard output and error (together) kept from a pre- or post-call; a program that writes"
                    + " more is ended and the call's outcome is error (BFGCR0004E).").build();

    // ---- Timeouts and recovery -----------------------------------------------------------------

    /** Wait for an acknowledgement. */
    public static final ConfigKey<Integer> TRANSFER_ACK_TIMEOUT = ConfigKey.integer("transferAckTimeout")
            .defaultValue(60000).validator(Validator.intRange(1000, 86400000)).unit("ms").supported().group(TIMEOUTS)
            .description("How long the source waits for an acknowledgement from the destination.").build();

    /** Retries of the acknowledgement wait before recovery. */
    public static final ConfigKey<Integer> TRANSFER_ACK_TIMEOUT_RETRIES = ConfigKey.integer("transferAckTimeoutRetries")
            .defaultValue(5).validator(Validator.intRange(0, 1000)).supported().group(TIMEOUTS)
            .description("Times the acknowledgement wait is repeated before the transfer goes into recovery.").build();

    /** Seconds to keep recovering; -1 forever, 0 fail at once. */
    public static final ConfigKey<Integer> TRANSFER_RECOVERY_TIMEOUT = ConfigKey.integer("transferRecoveryTimeout")
            .defaultValue(-1).validator(Validator.intRange(-1, 31536000)).unit("s").supported().group(TIMEOUTS)
            .description("How long a source agent keeps recovering a stalled transfer before it fails it (result 69); "
                    + "-1 for ever, 0 fails at once.")
            .build();

    /** How long a destination keeps a transfer whose source says nothing. */
    public static final ConfigKey<Integer> SOURCE_SILENCE_TIMEOUT = ConfigKey.integer("openmft.sourceSilenceTimeout")
            .defaultValue(86400).validator(Validator.intRange(-1, 31536000)).unit("s").supported().group(TIMEOUTS)
            .description("OpenMFT only: how long a destination agent keeps a transfer whose source agent has sent"
                    + " nothing that counts (a message with the transfer's tag); then it ends the transfer there"
                    + " (result 69), removes its partial file and frees its slot. -1 keeps it for ever (until"
                    + " fteCleanAgent -trs). Counted again from each start of the agent.")
            .build();

    /** How long one attempt of a program call may run. */
    public static final ConfigKey<Integer> CALL_TIMEOUT = ConfigKey.integer("openmft.callTimeout")
            .defaultValue(3600).validator(Validator.intRange(1, 604800)).unit("s").supported().group(TIMEOUTS)
            .description("OpenMFT only: how long one attempt of a pre- or post-call may run; then the program (and"
                    + " what it started) is ended and the attempt counts as an error, so a hung program cannot"
                    + " hold its transfer for ever.")
            .build();

    /** Grace period of an immediate stop. */
    public static final ConfigKey<Integer> IMMEDIATE_SHUTDOWN_TIMEOUT = ConfigKey.integer("immediateShutdownTimeout")
            .defaultValue(10).validator(Validator.intRange(0, 86400)).unit("s").supported().group(TIMEOUTS)
            .description("How long an immediate stop (fteStopAgent -i) waits for running transfers to be suspended "
                    + "(they resume on the next start) before the process ends.")
            .build();

    /** Restarts allowed within maxRestartInterval: written into the agent's systemd unit by 'mft agent unit'. */
    public static final ConfigKey<Integer> MAX_RESTART_COUNT = ConfigKey.integer("maxRestartCount").defaultValue(4)
            .validator(Validator.intRange(0, 1000)).supported().group(TIMEOUTS)
            .description("Restarts of an agent that ended unexpectedly allowed within maxRestartInterval. Applied"
                    + " by systemd through the drop-in 'mft agent unit' writes (Restart=on-failure, StartLimitBurst"
                    + " = this + 1 for the first start; 0 is Restart=no); an agent started otherwise is not"
                    + " restarted.").build();

    /** Window for maxRestartCount: written into the agent's systemd unit by 'mft agent unit'. */
    public static final ConfigKey<Integer> MAX_RESTART_INTERVAL = ConfigKey.integer("maxRestartInterval")
            .defaultValue(120).validator(Validator.intRange(1, 86400)).unit("s").supported().group(TIMEOUTS)
            .description("Time window in which maxRestartCount is counted (systemd's StartLimitIntervalSec in the"
                    + " drop-in 'mft agent unit' writes).").build();

    /** Pause before restarting again (not supported yet). */
    public static final ConfigKey<Integer> MAX_RESTART_DELAY = ConfigKey.integer("maxRestartDelay").defaultValue(-1)
            .validator(Validator.intRange(-1, 86400)).unit("s").group(TIMEOUTS)
            .description("After too many restarts, wait this long and start counting again; -1 or 0 stops the agent.")
            .build();

    // ---- Status publication --------------------------------------------------------------------

    /** Minimum gap between status publications caused by changes. */
    public static final ConfigKey<Integer> AGENT_STATUS_PUBLISH_RATE_LIMIT =
            ConfigKey.integer("agentStatusPublishRateLimit").defaultValue(30).validator(Validator.intRange(1, 86400))
                    .unit("s").supported().group(STATUS)
                    .description("Shortest time between two status publications caused by transfer changes.").build();

    /** Maximum gap between status publications. */
    public static final ConfigKey<Integer> AGENT_STATUS_PUBLISH_RATE_MIN =
            ConfigKey.integer("agentStatusPublishRateMin").defaultValue(300).validator(Validator.intRange(1, 86400))
                    .unit("s").supported().group(STATUS)
                    .description("Longest time between two status publications, even with nothing to report.").build();

    /** MQMD user stamped on publications (not supported yet). */
    public static final ConfigKey<String> PUBLICATION_MD_USER = ConfigKey.string("publicationMDUser").group(STATUS)
            .description("MQMD user identifier put on every status and log publication.").build();

    /** Per-item detail in replies (not supported yet). */
    public static final ConfigKey<Boolean> ENABLE_DETAILED_REPLY_MESSAGES =
            ConfigKey.bool("enableDetailedReplyMessages").group(STATUS)
                    .description("false leaves per-item detail out of reply messages.").build();

    // ---- Security ------------------------------------------------------------------------------

    /** Authority checks through the AUTH queues. */
    public static final ConfigKey<Boolean> AUTHORITY_CHECKING = ConfigKey.bool("authorityChecking").defaultValue(false)
            .supported().group(SECURITY)
            .description("Check the authority of the user the queue manager validated for each request on the "
                    + "agent's SYSTEM.FTE.AUTH*.<agent> queues (transfer, cancel, stop, agent to agent); a request "
                    + "without it is refused with result 53 and a NotAuthorized log message. Both agents of a "
                    + "transfer must agree (else result 54). Embedded (Artemis) queue managers: grant with 'mft qmgr"
                    + " user grant <user> SYSTEM.FTE.AUTHTRN1.<agent>+browse'; IBM MQ: the queues' authority records (setmqaut"
                    + " -n SYSTEM.FTE.AUTHTRN1.<agent> -t queue -p <user> +browse), checked by alternate-user opens, "
                    + "so the agent's user needs +altusr on its queue manager and +inq on the queues.")
            .build();

    /** End-to-end protection of agent-to-agent messages. */
    public static final ConfigKey<ProtectionLevel> MESSAGE_PROTECTION = ConfigKey.enumeration(
            "openmft.messageProtection", ProtectionLevel.class, ProtectionLevel::word).defaultValue(ProtectionLevel.NONE)
            .supported().group(SECURITY)
            .description("OpenMFT only: end-to-end protection of the messages between this agent and the others, "
                    + "whatever the queue manager (IBM MQ AMS's qualities): none (a per-transfer key in the START, "
                    + "readable by the queue manager's administrators), integrity (the START signed, the key wrapped"
                    + " for the destination's certificate, every chunk's body MACed: nothing can be changed or "
                    + "forged, even by the queue manager) or privacy (integrity, and every chunk AES-256-GCM "
                    + "encrypted: the queue manager holds no plaintext of any file). A source sends at its level for"
                    + " the destination; a destination refuses a START below its level for the source (result 67)."
                    + " Above none, openmft.protectionKeyStore and openmft.protectionTrustStore are required.")
            .build();

    /** Per-agent exceptions to openmft.messageProtection. */
    public static final ConfigKey<String> MESSAGE_PROTECTION_BY_AGENT = ConfigKey.string(
            "openmft.messageProtectionByAgent").supported().group(SECURITY)
            .validator(Validator.of(AgentProperties::isProtectionByAgent,
                    "AGENT=none|integrity|privacy pairs separated by commas"))
            .description("OpenMFT only: the level with named agents, overriding openmft.messageProtection for them: "
                    + "AGENT=level pairs separated by commas, such as AGENT2=privacy,LEGACY=none. Each agent named "
                    + "above none must have a certificate in openmft.protectionTrustStore.")
            .build();

    /** This agent's message protection key. */
    public static final ConfigKey<Path> PROTECTION_KEY_STORE = ConfigKey.path("openmft.protectionKeyStore").supported()
            .group(SECURITY)
            .description("OpenMFT only: PKCS12 store with this agent's RSA key (at least 2048 bits) and certificate, "
                    + "in the entry named after the agent (or its only key entry): keytool -genkeypair -alias "
                    + "AGENT1 -keyalg RSA -keysize 3072 -dname CN=AGENT1 -storetype pkcs12 -keystore protection.p12. "
                    + "Needed to receive protected transfers and to send them.")
            .build();

    /** Its password. */
    public static final ConfigKey<Path> PROTECTION_KEY_STORE_CREDENTIALS_FILE = ConfigKey.path(
            "openmft.protectionKeyStoreCredentialsFile").supported().group(SECURITY)
            .description("OpenMFT only: file holding the password of openmft.protectionKeyStore (also the key's), "
                    + "in the forms of agentSslKeyStoreCredentialsFile; must not be readable by other users.")
            .build();

    /** The peers' certificates. */
    public static final ConfigKey<Path> PROTECTION_TRUST_STORE = ConfigKey.path("openmft.protectionTrustStore")
            .supported().group(SECURITY)
            .description("OpenMFT only: store with the certificate of every agent this one exchanges protected "
                    + "transfers with, each under the agent's name: keytool -importcert -alias AGENT2 -file "
                    + "AGENT2.cer -storetype pkcs12 -keystore peers.p12. Certificates are pinned by name; no "
                    + "certificate authority is trusted.")
            .build();

    /** Its password. */
    public static final ConfigKey<Path> PROTECTION_TRUST_STORE_CREDENTIALS_FILE = ConfigKey.path(
            "openmft.protectionTrustStoreCredentialsFile").supported().group(SECURITY)
            .description("OpenMFT only: file holding the password of openmft.protectionTrustStore, in the same forms.")
            .build();

    /** The {@code openmft.metrics.*} keys: where the Prometheus endpoint listens and how it is protected. */
    public static final MetricsKeys METRICS_KEYS = MetricsKeys.of("agent");

    /** Agent sandbox. */
    public static final ConfigKey<String> SANDBOX_ROOT = ConfigKey.pathList("sandboxRoot").supported().group(SECURITY)
            .description("Directories the agent may read and write, separated by the platform path separator; a "
                    + "leading ! excludes a directory. fteCreateAgent writes the agent's transfer directory and each "
                    + "--sandbox-dir. Not together with userSandboxes=true.")
            .build();

    /** Per-user sandboxes from UserSandboxes.xml. */
    public static final ConfigKey<Boolean> USER_SANDBOXES = ConfigKey.bool("userSandboxes").defaultValue(false)
            .supported().group(SECURITY)
            .description("Apply per-user sandboxes from UserSandboxes.xml in the agent's configuration directory to "
                    + "the user the queue manager validated for each request (JMSXUserID); a request without one, "
                    + "or a missing file, may touch no file.")
            .build();

    /** Reload period of UserSandboxes.xml. */
    public static final ConfigKey<Integer> XML_CONFIG_RELOAD_INTERVAL = ConfigKey.integer("xmlConfigReloadInterval")
            .defaultValue(30).validator(Validator.intRange(1, 86400)).unit("s").supported().group(SECURITY)
            .description("How often UserSandboxes.xml is looked at again; a changed, valid file replaces the rules "
                    + "without a restart.")
            .build();

    /** Extra sandbox checks of wildcards. */
    public static final ConfigKey<Boolean> ADDITIONAL_WILDCARD_SANDBOX_CHECKING =
            ConfigKey.bool("additionalWildcardSandboxChecking").defaultValue(false).supported().group(SECURITY)
                    .description("A wildcard source that reaches outside the sandbox fails the whole transfer "
                            + "(BFGSS0077E, BFGSS0078E) instead of only the files refused.")
                    .build();

    /** Where pre/post-call programs may come from. */
    public static final ConfigKey<String> COMMAND_PATH = ConfigKey.pathList("commandPath").supported().group(SECURITY)
            .description("Directories from which pre- and post-calls may run programs; empty, no program can run."
                    + " A program is looked up along the path (first match) or named by a path inside it; its real"
                    + " location (symbolic links followed) must lie in one of the directories (BFGCR0003E).").build();

    /** Group allowed local diagnostics (not supported yet). */
    public static final ConfigKey<String> ADMIN_GROUP = ConfigKey.string("adminGroup").group(SECURITY)
            .description("Operating-system group whose members may run diagnostics against the agent.").build();

    /** Credentials for the agent queue manager (not supported yet). */
    public static final ConfigKey<Path> AGENT_QMGR_AUTHENTICATION_CREDENTIALS_FILE =
            CommonKeys.credentialsFile("agentQMgrAuthenticationCredentialsFile");

    /** Key file of an encrypted credentials file (not supported yet). */
    public static final ConfigKey<Path> AGENT_CREDENTIALS_KEY_FILE =
            CommonKeys.credentialsKeyFile("agentCredentialsKeyFile");

    // ---- Monitors ------------------------------------------------------------------------------

    /** Files a directory monitor triggers per poll; the rest wait for the next poll. */
    public static final ConfigKey<Integer> MONITOR_MAX_RESOURCES_IN_POLL = ConfigKey.integer("monitorMaxResourcesInPoll")
            .defaultValue(-1).validator(Validator.intRange(-1, 1000000)).supported().group(MONITORS)
            .description("Files or groups a resource monitor acts on per poll; -1 for no limit.")
            .build();

    /** Whether a failed trigger (a task that cannot be substituted or submitted) is published. */
    public static final ConfigKey<Boolean> MONITOR_REPORT_TRIGGER_FAIL = ConfigKey.bool("monitorReportTriggerFail")
            .defaultValue(true).supported().group(MONITORS)
            .description("Publish a monitor log entry when evaluating a trigger fails.").build();

    /** How many failures in a row a monitor reports before it goes quiet (until a trigger works). */
    public static final ConfigKey<Integer> MONITOR_GROUP_RETRY_LIMIT = ConfigKey.integer("monitorGroupRetryLimit")
            .defaultValue(10).validator(Validator.intRange(-1, 1000000)).supported().group(MONITORS)
            .description("Times a queue monitor triggers a group (or message) again while it stays on the queue after"
                    + " the transfer it triggered failed; -1 without limit. Counted from the agent's start.")
            .build();
    public static final ConfigKey<Integer> MONITOR_SILENCE_ON_TRIGGER_FAILURE =
            ConfigKey.integer("monitorSilenceOnTriggerFailure").defaultValue(5)
            .validator(Validator.intRange(0, 1000000)).supported().group(MONITORS)
            .description("Repeated trigger failures reported before the monitor goes quiet.")
            .build();

    private static final ConfigKey<?>[] MONITOR_KEYS = {
        MONITOR_MAX_RESOURCES_IN_POLL,
        MONITOR_REPORT_TRIGGER_FAIL,
        ConfigKey.bool("monitorReportTriggerNotSatisfied").defaultValue(false).group(MONITORS)
                .description("Publish a monitor log entry when a trigger is not satisfied.").build(),
        MONITOR_SILENCE_ON_TRIGGER_FAILURE,
        MONITOR_GROUP_RETRY_LIMIT,
    };

    // ---- Exits ---------------------------------------------------------------------------------

    /** Where exit classes come from besides the agent's exits directory. */
    public static final ConfigKey<String> EXIT_CLASS_PATH = ConfigKey.pathList("exitClassPath").supported()
            .group(EXITS).description("Where user exit classes are loaded from, besides the jars of the agent's"
                    + " exits directory: directories and jars.").build();
    /** Exits before a source transfer. */
    public static final ConfigKey<String> SOURCE_TRANSFER_START_EXIT_CLASSES = transferExitClasses(
            "sourceTransferStartExitClasses", "before a source transfer starts (implementing"
                    + " org.openmft.agent.exits.SourceTransferStartExit; one may cancel the transfer, result 21)");
    /** Exits after a source transfer. */
    public static final ConfigKey<String> SOURCE_TRANSFER_END_EXIT_CLASSES = transferExitClasses(
            "sourceTransferEndExitClasses", "after a source transfer ends (SourceTransferEndExit)");
    /** Exits before a destination transfer. */
    public static final ConfigKey<String> DESTINATION_TRANSFER_START_EXIT_CLASSES = transferExitClasses(
            "destinationTransferStartExitClasses", "before a destination transfer starts"
                    + " (DestinationTransferStartExit; one may refuse the transfer, result 21)");
    /** Exits after a destination transfer. */
    public static final ConfigKey<String> DESTINATION_TRANSFER_END_EXIT_CLASSES = transferExitClasses(
            "destinationTransferEndExitClasses", "after a destination transfer succeeded or partly succeeded"
                    + " (DestinationTransferEndExit)");

    private static final ConfigKey<?>[] EXIT_KEYS = {
        EXIT_CLASS_PATH,
        SOURCE_TRANSFER_START_EXIT_CLASSES,
        SOURCE_TRANSFER_END_EXIT_CLASSES,
        DESTINATION_TRANSFER_START_EXIT_CLASSES,
        DESTINATION_TRANSFER_END_EXIT_CLASSES,
        exitClasses("monitorExitClasses", "when a resource monitor triggers"),
        exitClasses("protocolBridgeCredentialExitClasses", "to map users to protocol bridge credentials"),
        exitClasses("ioExitClasses", "to replace file input and output"),
    };

    // ---- Logging -------------------------------------------------------------------------------

    /** Number of rotated output logs. */
    public static final ConfigKey<Integer> OUTPUT_LOG_FILES = ConfigKey.integer("outputLogFiles").defaultValue(5)
            .validator(Validator.intRange(1, 1000)).unit("files").supported().group(LOGGING)
            .description("Output log files (output0.log ...) kept before the oldest is overwritten.").build();

    /** Size of one output log. */
    public static final ConfigKey<Integer> OUTPUT_LOG_SIZE = ConfigKey.integer("outputLogSize").defaultValue(1)
            .validator(Validator.intRange(1, 10240)).unit("MB").supported().group(LOGGING)
            .description("Size at which an output log file is rotated.").build();

    /** Capture of every published message (not supported yet). */
    public static final ConfigKey<Boolean> LOG_CAPTURE = ConfigKey.bool("logCapture").defaultValue(false)
            .group(LOGGING).description("Write every message the agent publishes to capture0.log.").build();

    private static final ConfigKey<?>[] DIAGNOSTIC_KEYS = {
        ConfigKey.string("logTransfer").group(LOGGING)
                .description("Level of the JSON transfer log (transferlogN.json): info, moderate or verbose.").build(),
        ConfigKey.string("trace").group(LOGGING).description("Trace specification enabled at start-up.").build(),
        ConfigKey.integer("traceFiles").group(LOGGING).description("Trace files kept.").build(),
        ConfigKey.integer("traceSize").unit("MB").group(LOGGING).description("Size of one trace file.").build(),
        ConfigKey.integer("traceMaxFileSize").unit("MB").group(LOGGING).description("Largest trace file.").build(),
        ConfigKey.path("javaCoreTriggerFile").group(LOGGING)
                .description("File whose appearance makes the agent write a Java core dump.").build(),
    };

    // ---- High availability and Windows ---------------------------------------------------------

    private static final ConfigKey<?>[] OTHER_KEYS = {
        ConfigKey.bool("highlyAvailable").defaultValue(false).group(HIGH_AVAILABILITY)
                .description("Run active and standby instances of this agent, locked through SYSTEM.FTE.HA.<agent>.")
                .build(),
        ConfigKey.integer("standbyPollInterval").unit("s").group(HIGH_AVAILABILITY)
                .description("How often a standby instance checks whether the active one has gone.").build(),
        ConfigKey.string("windowsService").group(WINDOWS)
                .description("Written by IBM's tooling when the agent runs as a Windows service; do not edit.").build(),
        ConfigKey.string("windowsServiceVersion").group(WINDOWS)
                .description("Written by IBM's tooling when the agent runs as a Windows service; do not edit.").build(),
    };

    /** All keys of agent.properties, in the order of written files and of the reference. */
    public static final ConfigRegistry REGISTRY = ConfigRegistry.builder("agent.properties")
            .add(AGENT_NAME, AGENT_DESC, AGENT_QMGR, AGENT_QMGR_HOST, AGENT_QMGR_PORT, AGENT_QMGR_CHANNEL,
                    AGENT_QMGR_STANDBY, AGENT_TYPE)
            .add(AGENT_QMGR_PROVIDER, MAX_PLANNED_ITEMS)
            .add(AGENT_CHUNK_SIZE, AGENT_WINDOW_SIZE, AGENT_FRAME_SIZE, AGENT_CHECKPOINT_INTERVAL,
                    AGENT_MESSAGE_BATCH_SIZE, MAX_INLINE_FILE_SIZE, DO_NOT_USE_TEMP_OUTPUT_FILE, TRANSFER_ROOT,
                    TRANSFER_ROOT_HLQ, TEXT_REPLACEMENT_CHARACTER_SEQUENCE, IO_THREAD_POOL_SIZE,
                    ENABLE_MEMORY_ALLOCATION_CHECKING, AGENT_MULTIPLE_CHANNELS_ENABLED, ADAPTIVE_WINDOW, COMPRESSION,
                    COMPRESSION_BY_AGENT)
            .add(ENABLE_QUEUE_INPUT_OUTPUT, MAX_INPUT_OUTPUT_MESSAGE_LENGTH, MAX_DELIMITER_MATCH_LENGTH)
            .add(MAX_SOURCE_TRANSFERS, MAX_DESTINATION_TRANSFERS, MAX_QUEUED_TRANSFERS, MAX_FILES_FOR_TRANSFER,
                    MAX_COMMAND_OUTPUT_SIZE)
            .add(TRANSFER_ACK_TIMEOUT, TRANSFER_ACK_TIMEOUT_RETRIES, TRANSFER_RECOVERY_TIMEOUT, SOURCE_SILENCE_TIMEOUT,
                    CALL_TIMEOUT, IMMEDIATE_SHUTDOWN_TIMEOUT, MAX_RESTART_COUNT, MAX_RESTART_INTERVAL, MAX_RESTART_DELAY)
            .add(AGENT_STATUS_PUBLISH_RATE_LIMIT, AGENT_STATUS_PUBLISH_RATE_MIN, PUBLICATION_MD_USER,
                    ENABLE_DETAILED_REPLY_MESSAGES)
            .add(AUTHORITY_CHECKING, SANDBOX_ROOT, USER_SANDBOXES, XML_CONFIG_RELOAD_INTERVAL,
                    ADDITIONAL_WILDCARD_SANDBOX_CHECKING, COMMAND_PATH, ADMIN_GROUP,
                    AGENT_QMGR_AUTHENTICATION_CREDENTIALS_FILE, AGENT_CREDENTIALS_KEY_FILE)
            .add(MESSAGE_PROTECTION, MESSAGE_PROTECTION_BY_AGENT, PROTECTION_KEY_STORE,
                    PROTECTION_KEY_STORE_CREDENTIALS_FILE, PROTECTION_TRUST_STORE,
                    PROTECTION_TRUST_STORE_CREDENTIALS_FILE)
            .addAll(CommonKeys.ssl("agent"))
            .add(MONITOR_KEYS)
            .add(EXIT_KEYS)
            .add(OUTPUT_LOG_FILES, OUTPUT_LOG_SIZE, LOG_CAPTURE)
            .addAll(METRICS_KEYS.all())
            .add(DIAGNOSTIC_KEYS)
            .add(OTHER_KEYS)
            // IBM documents this rule; without it the "at least every RateMin" promise would be broken.
            .rule(ConfigRegistry.atLeast(AGENT_STATUS_PUBLISH_RATE_MIN, AGENT_STATUS_PUBLISH_RATE_LIMIT))
            // IBM documents the two sandboxes as mutually exclusive; applying one and ignoring the
            // other would leave the administrator believing in a restriction that is not there.
            .rule(ConfigRegistry.notTogether(USER_SANDBOXES, SANDBOX_ROOT))
            .build();

    private static ConfigKey<String> transferExitClasses(String name, String when) {
        return ConfigKey.string(name).supported().group(EXITS).description("Comma-separated user exit classes called "
                + when + "; a class that cannot be loaded stops the agent at its start.").build();
    }

    private static ConfigKey<String> exitClasses(String name, String when) {
        // Protection: an exit named but never called would let through what it exists to stop.
        return ConfigKey.string(name).protection().group(EXITS)
                .description("Comma-separated user exit classes called " + when + ".").build();
    }

    private static boolean isCompressionByAgent(String value) {
        try {
            return CompressionPolicy.parseByAgent(value).values().stream().allMatch(CompressionMethod::available);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static boolean isProtectionByAgent(String value) {
        try {
            MessageProtection.parseByAgent(value);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
