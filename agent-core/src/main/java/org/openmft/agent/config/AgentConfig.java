package org.openmft.agent.config;

import static org.openmft.agent.config.AgentProperties.*;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import org.openmft.agent.compression.CompressionPolicy;
import org.openmft.agent.protection.MessageProtection;
import org.openmft.agent.protection.ProtectionException;

/**
 * The typed, validated contents of one {@code agent.properties}, read once at start-up. Accessors
 * exist for every key OpenMFT supports, with units in the types ({@link Duration}) or the names
 * ({@code Bytes}); any key, supported or not, can be read with {@link #get}.
 *
 * <p>Immutable and thread-safe; owns no threads, connections or counters.
 */
public final class AgentConfig extends QueueManagerConfig {

    /** The directory of the agent.properties read, or null when the values did not come from a file. */
    private final Path configDirectory;

    private AgentConfig(ConfigValues values, Path configDirectory) throws ConfigurationException {
        super(values, AGENT_QMGR, AGENT_QMGR_HOST, AGENT_QMGR_PORT,
                AGENT_QMGR_CHANNEL, AGENT_QMGR_PROVIDER);
        this.configDirectory = configDirectory;
    }

    /**
     * Reads and parses an agent.properties file.
     *
     * @param agentPropertiesFile the file
     * @param env the environment for {@code ${VAR}} in paths, normally {@link System#getenv()}
     * @return the configuration
     * @throws ConfigurationException when the file is missing, unreadable or has a bad or missing value;
     *         messages name the file by its path
     */
    public static AgentConfig load(Path agentPropertiesFile, Map<String, String> env) throws ConfigurationException {
        Path directory = agentPropertiesFile.toAbsolutePath().normalize().getParent();
        return new AgentConfig(REGISTRY.parse(PropertiesFiles.read(agentPropertiesFile), agentPropertiesFile.toString(),
                env), directory);
    }

    /**
     * Parses raw key-value pairs, as from a file or a test; messages call the source "agent.properties".
     *
     * @param raw key to value
     * @param env the environment for {@code ${VAR}} in paths
     * @return the configuration
     * @throws ConfigurationException when a value is bad or missing
     */
    public static AgentConfig from(Map<String, String> raw, Map<String, String> env) throws ConfigurationException {
        return new AgentConfig(REGISTRY.parse(raw, REGISTRY.fileName(), env), null);
    }

    /**
     * The agent name, upper-cased.
     *
     * @return {@code agentName}
     */
    public String agentName() {
        return values.get(AGENT_NAME);
    }

    /**
     * The description.
     *
     * @return {@code agentDesc}, if set
     */
    public Optional<String> agentDesc() {
        return Optional.ofNullable(values.get(AGENT_DESC));
    }

    /**
     * The agent queue manager name.
     *
     * @return {@code agentQMgr}
     */
    public String agentQMgr() {
        return values.get(AGENT_QMGR);
    }

    /**
     * Bytes of file data per data message.
     *
     * @return {@code agentChunkSize}
     */
    public int chunkSize() {
        return values.get(AGENT_CHUNK_SIZE);
    }

    /**
     * Chunks sent before waiting for an acknowledgement.
     *
     * @return {@code agentWindowSize}
     */
    public int windowSize() {
        return values.get(AGENT_WINDOW_SIZE);
    }

    /**
     * Windows per frame.
     *
     * @return {@code agentFrameSize}
     */
    public int frameSize() {
        return values.get(AGENT_FRAME_SIZE);
    }

    /**
     * Frames between checkpoints.
     *
     * @return {@code agentCheckpointInterval}
     */
    public int checkpointInterval() {
        return values.get(AGENT_CHECKPOINT_INTERVAL);
    }

    /**
     * Concurrent source transfers; 0 refuses all.
     *
     * @return {@code maxSourceTransfers}
     */
    public int maxSourceTransfers() {
        return values.get(MAX_SOURCE_TRANSFERS);
    }

    /**
     * Concurrent destination transfers; 0 refuses all.
     *
     * @return {@code maxDestinationTransfers}
     */
    public int maxDestinationTransfers() {
        return values.get(MAX_DESTINATION_TRANSFERS);
    }

    /**
     * Transfers held waiting to start.
     *
     * @return {@code maxQueuedTransfers}
     */
    public int maxQueuedTransfers() {
        return values.get(MAX_QUEUED_TRANSFERS);
    }

    /** @return {@code monitorMaxResourcesInPoll}: files a monitor triggers per poll, -1 for no limit */
    public int monitorMaxResourcesInPoll() {
        return values.get(AgentProperties.MONITOR_MAX_RESOURCES_IN_POLL);
    }

    /** @return {@code monitorReportTriggerFail}: whether failed triggers are published */
    public boolean monitorReportTriggerFail() {
        return values.get(AgentProperties.MONITOR_REPORT_TRIGGER_FAIL);
    }

    /** @return {@code monitorSilenceOnTriggerFailure}: failures in a row reported before going quiet */
    public int monitorSilenceOnTriggerFailure() {
        return values.get(AgentProperties.MONITOR_SILENCE_ON_TRIGGER_FAILURE);
    }

    /** @return {@code monitorGroupRetryLimit}: times a queue monitor triggers a failed group again, -1 without limit */
    public int monitorGroupRetryLimit() {
        return values.get(AgentProperties.MONITOR_GROUP_RETRY_LIMIT);
    }

    /** @return {@code enableQueueInputOutput}: whether files go to queues here (file to message) */
    public boolean enableQueueInputOutput() {
        return values.get(AgentProperties.ENABLE_QUEUE_INPUT_OUTPUT);
    }

    /** @return {@code maxInputOutputMessageLength}: the largest message put on a queue, in bytes */
    public int maxInputOutputMessageLength() {
        return values.get(AgentProperties.MAX_INPUT_OUTPUT_MESSAGE_LENGTH);
    }

    /** @return {@code maxDelimiterMatchLength}: the most characters a text delimiter may match */
    public int maxDelimiterMatchLength() {
        return values.get(AgentProperties.MAX_DELIMITER_MATCH_LENGTH);
    }

    /**
     * Items allowed in one transfer.
     *
     * @return {@code maxFilesForTransfer}
     */
    public int maxFilesForTransfer() {
        return values.get(MAX_FILES_FOR_TRANSFER);
    }

    /**
     * Planned items held across queued and running source transfers.
     *
     * @return {@code openmft.maxPlannedItems}
     */
    public int maxPlannedItems() {
        return values.get(MAX_PLANNED_ITEMS);
    }

    /**
     * Whether the source sizes its window from the link.
     *
     * @return {@code openmft.adaptiveWindow}
     */
    public boolean adaptiveWindow() {
        return values.get(ADAPTIVE_WINDOW);
    }

    /**
     * The largest file a transfer of one item carries inline, its data right behind the START.
     *
     * @return {@code maxInlineFileSize}, bytes; 0 for none
     */
    public long maxInlineFileSize() {
        return values.get(MAX_INLINE_FILE_SIZE);
    }

    /**
     * How long the source waits for an acknowledgement.
     *
     * @return {@code transferAckTimeout} (milliseconds in the file)
     */
    public Duration transferAckTimeout() {
        return Duration.ofMillis(values.get(TRANSFER_ACK_TIMEOUT));
    }

    /**
     * Repeats of the acknowledgement wait before recovery.
     *
     * @return {@code transferAckTimeoutRetries}
     */
    public int transferAckTimeoutRetries() {
        return values.get(TRANSFER_ACK_TIMEOUT_RETRIES);
    }

    /**
     * How long a stalled transfer is recovered before it fails.
     *
     * @return {@code transferRecoveryTimeout} (seconds in the file); empty means for ever (-1),
     *         {@link Duration#ZERO} means fail as soon as recovery starts
     */
    public Optional<Duration> transferRecoveryTimeout() {
        int seconds = values.get(TRANSFER_RECOVERY_TIMEOUT);
        return seconds < 0 ? Optional.empty() : Optional.of(Duration.ofSeconds(seconds));
    }

    /**
     * How long a destination keeps a transfer whose source is silent.
     *
     * @return {@code openmft.sourceSilenceTimeout} (seconds in the file); empty means for ever (-1)
     */
    public Optional<Duration> sourceSilenceTimeout() {
        int seconds = values.get(SOURCE_SILENCE_TIMEOUT);
        return seconds < 0 ? Optional.empty() : Optional.of(Duration.ofSeconds(seconds));
    }

    /**
     * Grace period of an immediate stop.
     *
     * @return {@code immediateShutdownTimeout} (seconds in the file)
     */
    public Duration immediateShutdownTimeout() {
        return Duration.ofSeconds(values.get(IMMEDIATE_SHUTDOWN_TIMEOUT));
    }

    /**
     * Restarts allowed, within {@link #maxRestartInterval()}, of an agent that ended unexpectedly;
     * applied by the service manager (systemd), not by the agent.
     *
     * @return {@code maxRestartCount}; 0 means never restart
     */
    public int maxRestartCount() {
        return values.get(MAX_RESTART_COUNT);
    }

    /**
     * The window in which {@link #maxRestartCount()} is counted.
     *
     * @return {@code maxRestartInterval} (seconds in the file)
     */
    public Duration maxRestartInterval() {
        return Duration.ofSeconds(values.get(MAX_RESTART_INTERVAL));
    }

    /**
     * Whether the agent writes straight to destination names instead of {@code .part} files.
     *
     * @return {@code doNotUseTempOutputFile}
     */
    public boolean doNotUseTempOutputFile() {
        return values.get(DO_NOT_USE_TEMP_OUTPUT_FILE);
    }

    /**
     * Base of relative transfer paths.
     *
     * @return {@code transferRoot}, the agent user's home directory by default
     */
    public Path transferRoot() {
        return values.get(TRANSFER_ROOT);
    }

    /**
     * Replacement for unconvertible characters in text transfers.
     *
     * @return {@code textReplacementCharacterSequence}; empty means the item fails instead
     */
    public String textReplacementCharacterSequence() {
        return values.get(TEXT_REPLACEMENT_CHARACTER_SEQUENCE);
    }

    /**
     * The agent sandbox in IBM's syntax ({@code [!]dir<sep>[!]dir…}), with {@code ${VAR}} expanded.
     *
     * @return {@code sandboxRoot}, empty when the agent has no sandbox
     */
    public Optional<String> sandboxRoot() {
        return Optional.ofNullable(values.get(SANDBOX_ROOT));
    }

    /** {@code commandPath}: the directories programs of calls may come from; empty, none may run. */
    public Optional<String> commandPath() {
        return Optional.ofNullable(values.get(COMMAND_PATH));
    }

    /** {@code exitClassPath}: directories and jars exit classes come from, besides the exits directory. */
    public Optional<String> exitClassPath() {
        return Optional.ofNullable(values.get(EXIT_CLASS_PATH));
    }

    /**
     * The exit classes named by the keys of transfer exits, by key name, in order; keys not set are absent.
     */
    public java.util.Map<String, java.util.List<String>> transferExitClasses() {
        java.util.Map<String, java.util.List<String>> result = new java.util.LinkedHashMap<>();
        for (ConfigKey<String> key : java.util.List.of(SOURCE_TRANSFER_START_EXIT_CLASSES,
                SOURCE_TRANSFER_END_EXIT_CLASSES, DESTINATION_TRANSFER_START_EXIT_CLASSES,
                DESTINATION_TRANSFER_END_EXIT_CLASSES)) {
            String value = values.get(key);
            if (value != null && !value.isBlank()) {
                result.put(key.name(), java.util.Arrays.stream(value.split(",")).map(String::strip)
                        .filter(v -> !v.isEmpty()).toList());
            }
        }
        return result;
    }

    /** {@code maxCommandOutputSize}, bytes of a call's output kept. */
    public int maxCommandOutputSize() {
        return values.get(MAX_COMMAND_OUTPUT_SIZE);
    }

    /** {@code openmft.callTimeout}: how long one attempt of a call may run. */
    public Duration callTimeout() {
        return Duration.ofSeconds(values.get(CALL_TIMEOUT));
    }

    /**
     * The agent's configuration directory, which holds its agent.properties and, with
     * {@link #userSandboxes()}, its {@code UserSandboxes.xml}.
     *
     * @return the directory of the file read by {@link #load}; empty for values not read from a file
     */
    public Optional<Path> configDirectory() {
        return Optional.ofNullable(configDirectory);
    }

    /**
     * Whether per-user sandboxes from {@code UserSandboxes.xml} apply (never together with
     * {@link #sandboxRoot()}).
     *
     * @return {@code userSandboxes}
     */
    public boolean userSandboxes() {
        return values.get(USER_SANDBOXES);
    }

    /**
     * Whether each request's validated user needs its authority on the agent's
     * {@code SYSTEM.FTE.AUTH*.<agent>} queues.
     *
     * @return {@code authorityChecking}
     */
    public boolean authorityChecking() {
        return values.get(AUTHORITY_CHECKING);
    }

    /**
     * Whether this agent, as a source, spreads its data over the queue manager aliases
     * {@code SYSTEM.FTE.<QM>_n} of the destination's queue manager.
     *
     * @return {@code agentMultipleChannelsEnabled}
     */
    public boolean multipleChannelsEnabled() {
        return values.get(AGENT_MULTIPLE_CHANNELS_ENABLED);
    }

    /**
     * How often {@code UserSandboxes.xml} is looked at again.
     *
     * @return {@code xmlConfigReloadInterval} (seconds in the file)
     */
    public Duration xmlConfigReloadInterval() {
        return Duration.ofSeconds(values.get(XML_CONFIG_RELOAD_INTERVAL));
    }

    /**
     * Whether a wildcard source that reaches outside the sandbox fails the whole transfer.
     *
     * @return {@code additionalWildcardSandboxChecking}
     */
    public boolean additionalWildcardSandboxChecking() {
        return values.get(ADDITIONAL_WILDCARD_SANDBOX_CHECKING);
    }

    /**
     * Shortest gap between status publications caused by changes.
     *
     * @return {@code agentStatusPublishRateLimit} (seconds in the file)
     */
    public Duration statusPublishRateLimit() {
        return Duration.ofSeconds(values.get(AGENT_STATUS_PUBLISH_RATE_LIMIT));
    }

    /**
     * Longest gap between status publications.
     *
     * @return {@code agentStatusPublishRateMin} (seconds in the file)
     */
    public Duration statusPublishRateMin() {
        return Duration.ofSeconds(values.get(AGENT_STATUS_PUBLISH_RATE_MIN));
    }

    /**
     * Output log files kept.
     *
     * @return {@code outputLogFiles}
     */
    public int outputLogFiles() {
        return values.get(OUTPUT_LOG_FILES);
    }

    /**
     * Size at which an output log is rotated.
     *
     * @return {@code outputLogSize} converted from megabytes (MiB) to bytes
     */
    public long outputLogSizeBytes() {
        return values.get(OUTPUT_LOG_SIZE) * 1024L * 1024L;
    }

    /**
     * How this agent compresses the chunks it sends, per destination agent.
     *
     * @return {@code openmft.compression} with {@code openmft.compressionByAgent}'s exceptions
     */
    public CompressionPolicy compression() {
        return new CompressionPolicy(values.get(COMPRESSION),
                CompressionPolicy.parseByAgent(values.get(COMPRESSION_BY_AGENT)));
    }

    /**
     * The end-to-end message protection this agent asks for, with its keys opened.
     *
     * @param clock for the certificates' validity
     * @return {@code openmft.messageProtection} and the keys that go with it
     * @throws ConfigurationException (exit 78) naming the key and what is wrong: a store missing or
     *         unreadable, no RSA key, an agent named without a valid certificate
     */
    public MessageProtection messageProtection(java.time.Clock clock) throws ConfigurationException {
        try {
            return MessageProtection.open(agentName(), values.get(MESSAGE_PROTECTION),
                    MessageProtection.parseByAgent(values.get(MESSAGE_PROTECTION_BY_AGENT)),
                    values.get(PROTECTION_KEY_STORE), values.get(PROTECTION_KEY_STORE_CREDENTIALS_FILE),
                    values.get(PROTECTION_TRUST_STORE), values.get(PROTECTION_TRUST_STORE_CREDENTIALS_FILE), clock);
        } catch (ProtectionException e) {
            throw new ConfigurationException(values.sourceName() + ": message protection cannot be used: "
                    + e.getMessage(), e);
        }
    }

    /**
     * Where this agent serves its Prometheus metrics, when it does.
     *
     * @return {@code openmft.metrics.*}; empty when {@code openmft.metrics.port} is not set
     * @throws ConfigurationException (exit 78) when the endpoint would not be secure: a non-loopback
     *         address without a key store or credentials file, a key store without its password file
     */
    public java.util.Optional<org.openmft.agent.metrics.MetricsSettings> metrics() throws ConfigurationException {
        return METRICS_KEYS.settings(values);
    }

    @Override
    public String toString() {
        return "AgentConfig[" + agentName() + "@" + agentQMgr() + "]";
    }
}
