package org.openmft.client;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import org.openmft.agent.config.ConfigurationException;
import org.openmft.agent.config.CoordinationConfig;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.QueueManagerException;
import org.openmft.client.internal.Cancellation;
import org.openmft.client.internal.CommandChannel;
import org.openmft.client.internal.ProgressFeed;
import org.openmft.client.internal.Requests;
import org.openmft.coordination.query.AgentDirectory;
import org.openmft.coordination.query.AgentView;
import org.openmft.xml.Reply;
import org.openmft.xml.ReplyTo;
import org.openmft.xml.TransferRequest;
import org.openmft.xml.log.AgentStatus;
import org.openmft.xml.log.TransferProgress;

/**
 * OpenMFT for applications: submit transfers, await their outcome, follow their progress, cancel
 * them, and list agents and their transfers, as the {@code mft} command line does (it uses this
 * class). Requests go to agents' COMMAND queues through the command queue manager; status and
 * progress come from the coordination queue manager ({@link ClientSettings}).
 *
 * <pre>{@code
 * try (MftClient client = MftClient.connect(ClientSettings.fromDataDirectory(null, "QM1"));
 *         TransferHandle transfer = client.submit(TransferSpec.builder()
 *                 .sourceAgent("AGENT1").destinationAgent("AGENT2")
 *                 .file("/data/out/a.csv", "/data/in/a.csv").build())) {
 *     TransferOutcome outcome = transfer.await(Duration.ofMinutes(10)).orElseThrow();
 *     System.out.println(outcome.succeeded() ? "done" : "result code " + outcome.resultCode());
 * }
 * }</pre>
 *
 * <p>Each operation opens its own connections and closes them when it is done (a submitted
 * transfer's when its {@link TransferHandle} is closed), so a client holds nothing between
 * operations and may be shared between threads. Failures are {@link MftClientException}s whose
 * {@linkplain MftClientException#code() code} is the one {@code mft} exits with.
 */
public final class MftClient implements AutoCloseable {
    private final ClientSettings settings;
    private final ConnectionListener notices;

    private MftClient(ClientSettings settings, ConnectionListener notices) {
        this.settings = settings;
        this.notices = notices;
    }

    /**
     * A client for {@code settings}, telling nobody about lost connections.
     *
     * @param settings where and how to connect
     * @return the client
     */
    public static MftClient connect(ClientSettings settings) {
        return connect(settings, ConnectionListener.IGNORE);
    }

    /**
     * A client for {@code settings}. Nothing is connected to until an operation needs it.
     *
     * @param settings where and how to connect
     * @param listener told when a waiting operation loses its connection and gets it back
     * @return the client
     */
    public static MftClient connect(ClientSettings settings, ConnectionListener listener) {
        return new MftClient(Objects.requireNonNull(settings, "settings"), Objects.requireNonNull(listener,
                "listener"));
    }

    /**
     * The settings of this client.
     *
     * @return the settings
     */
    public ClientSettings settings() {
        return settings;
    }

    /**
     * Sends a transfer request without waiting for its outcome (IBM's fteCreateTransfer without
     * {@code -w}); returns once the source agent has accepted it.
     *
     * @param spec the request
     * @return the agent's acknowledgement, with the transfer id
     * @throws MftClientException code 3 when the agent did not acknowledge within 30 seconds, 1 (with
     *     BFGCL0014E) when its COMMAND queue does not exist, 75 when the queue manager is not available,
     *     the agent's result code when it refused the request
     */
    public Acknowledgement send(TransferSpec spec) throws MftClientException {
        Objects.requireNonNull(spec, "spec");
        try (CommandChannel channel = CommandChannel.open(settings.command(), settings.qmgrsDirectory())) {
            TransferRequest request = spec.request();
            channel.toQueueManager(request.sourceAgent().qmgr());
            Reply ack = Requests.acknowledged(channel, request.sourceAgent().agent(), request);
            return new Acknowledgement(ack.requestId(), ack.supplements());
        } catch (Exception e) {
            throw failure(e);
        }
    }

    /**
     * Submits a transfer whose outcome is to be awaited; returns once the source agent has accepted it.
     *
     * @param spec the request
     * @return the transfer, to {@linkplain TransferHandle#await await} and to close
     * @throws MftClientException as {@link #send}
     */
    public TransferHandle submit(TransferSpec spec) throws MftClientException {
        return submit(spec, null);
    }

    /**
     * Submits a transfer whose outcome is to be awaited, following its progress; returns once the
     * source agent has accepted it. The progress publications are subscribed to before the request
     * is sent, so that none is missed.
     *
     * @param spec the request
     * @param listener receives the transfer's progress while {@link TransferHandle#await} waits, or
     *     null for none
     * @return the transfer, to {@linkplain TransferHandle#await await} and to close
     * @throws MftClientException as {@link #send}
     */
    public TransferHandle submit(TransferSpec spec, ProgressListener listener) throws MftClientException {
        Objects.requireNonNull(spec, "spec");
        CommandChannel channel = null;
        ProgressFeed feed = null;
        try {
            channel = CommandChannel.openForWait(settings.command(), settings.qmgrsDirectory(), notices::onNotice);
            // Ask for the outcome, item by item, on this transfer's reply queue.
            TransferRequest request = spec.request().withReply(new ReplyTo(channel.replyQueueName(),
                    channel.qmgrName(), true));
            String agent = request.sourceAgent().agent();
            if (listener != null) {
                feed = progress(agent, listener);
            }
            channel.toQueueManager(request.sourceAgent().qmgr());
            Reply ack = Requests.acknowledged(channel, agent, request);
            return new TransferHandle(channel, feed, ack.requestId(), ack.supplements());
        } catch (Exception e) {
            if (feed != null) {
                feed.close();
            }
            if (channel != null) {
                channel.close();
            }
            throw failure(e);
        }
    }

    /** Subscribes to {@code agent}'s progress publications; null (and the listener told) when it cannot. */
    private ProgressFeed progress(String agent, ProgressListener listener) {
        try {
            CoordinationConfig config = settings.coordination();
            QueueManagerConnector connector = QueueManagerConnector.forCommand(config.endpoint(),
                    settings.qmgrsDirectory(), null);
            return ProgressFeed.open(connector, agent, p -> listener.onProgress(event(p)));
        } catch (Exception e) {
            listener.onProgressUnavailable(e.getMessage() == null ? e.toString() : e.getMessage());
            return null;
        }
    }

    static ProgressEvent event(TransferProgress p) {
        return new ProgressEvent(p.transferId(), p.sourceAgent().agent(), p.destinationAgent().agent(), p.time(),
                p.bytes(), p.seconds(), p.currentItem(), p.totalItems(), p.currentTransferred(), p.currentSize(),
                p.currentSource(), p.currentDestination());
    }

    /**
     * Cancels a transfer (IBM's fteCancelTransfer) through its source or destination agent on the
     * command queue manager, without waiting for it to end.
     *
     * @param agent the transfer's source or destination agent
     * @param transferId the transfer id
     * @return what the agent said
     * @throws MftClientException as {@link #cancel(String, String, String, Duration)}
     */
    public CancelOutcome cancel(String agent, String transferId) throws MftClientException {
        return cancel(agent, null, transferId, null);
    }

    /**
     * Cancels a transfer (IBM's fteCancelTransfer) through its source or destination agent. Files
     * already transferred stay; a partly written file is removed; the transfer ends with result 41.
     *
     * @param agent the transfer's source or destination agent, any case
     * @param agentQMgr the agent's queue manager when it is not the command queue manager, or null
     * @param transferId the transfer id, 48 hexadecimal characters
     * @param waitForEnd how long to wait for the transfer to end, or null not to wait
     * @return what the agent said, and whether the transfer ended within the wait
     * @throws MftClientException code 1 for a wrong agent name or transfer id (BFGCL0400E), a transfer
     *     the agent does not know (BFGCL0039E) or a refused cancel; 3 when the agent did not answer
     *     within 30 seconds; 75 when the queue manager is not available
     */
    public CancelOutcome cancel(String agent, String agentQMgr, String transferId, Duration waitForEnd)
            throws MftClientException {
        return cancel(agent, agentQMgr, transferId, waitForEnd, text -> { });
    }

    /**
     * As {@link #cancel(String, String, String, Duration)}, telling {@code onAccepted} what the agent
     * said as soon as it accepted the cancel, before the wait for the end begins.
     *
     * @param agent the transfer's source or destination agent, any case
     * @param agentQMgr the agent's queue manager when it is not the command queue manager, or null
     * @param transferId the transfer id, 48 hexadecimal characters
     * @param waitForEnd how long to wait for the transfer to end, or null not to wait
     * @param onAccepted receives the agent's answer, on the calling thread
     * @return what the agent said, and whether the transfer ended within the wait
     * @throws MftClientException as {@link #cancel(String, String, String, Duration)}
     */
    public CancelOutcome cancel(String agent, String agentQMgr, String transferId, Duration waitForEnd,
            java.util.function.Consumer<String> onAccepted) throws MftClientException {
        Objects.requireNonNull(onAccepted, "onAccepted");
        String name = agentName(agent);
        if (waitForEnd != null && (waitForEnd.isNegative() || waitForEnd.isZero())) {
            throw new IllegalArgumentException("waitForEnd " + waitForEnd + " is not more than zero");
        }
        String id = Cancellation.transferId(transferId);
        try (CommandChannel channel = waitForEnd == null
                ? CommandChannel.open(settings.command(), settings.qmgrsDirectory())
                : CommandChannel.openForWait(settings.command(), settings.qmgrsDirectory(), notices::onNotice)) {
            channel.toQueueManager(agentQMgr);
            String accepted = Cancellation.accepted(Cancellation.ask(channel, name, id), name, id);
            onAccepted.accept(accepted);
            if (waitForEnd == null) {
                return new CancelOutcome(accepted, false, Optional.empty());
            }
            boolean ended = Cancellation.awaitEnd(channel, name, id, waitForEnd);
            return new CancelOutcome(accepted, ended, ended ? Optional.empty() : channel.lostConnection());
        } catch (Exception e) {
            throw failure(e);
        }
    }

    /**
     * The agents of the coordination queue manager (IBM's fteListAgents), from their retained status
     * publications; takes a moment (the publications are read until quiet, at most 30 seconds).
     *
     * @param pattern a name pattern ({@code *} any characters, {@code ?} one; any case), or null for all
     * @return the agents, by name
     * @throws MftClientException code 78 without a coordination configuration, 75 when its queue
     *     manager is not available
     */
    public List<AgentInfo> agents(String pattern) throws MftClientException {
        try {
            return directory().agents(pattern).stream().map(MftClient::info).toList();
        } catch (Exception e) {
            throw failure(e);
        }
    }

    /**
     * One agent (IBM's fteShowAgentDetails).
     *
     * @param agent the agent's name, any case
     * @return the agent, or empty when it has published no status
     * @throws MftClientException as {@link #agents}
     */
    public Optional<AgentInfo> agent(String agent) throws MftClientException {
        String name = agentName(agent);
        try {
            return directory().agent(name).map(MftClient::info);
        } catch (Exception e) {
            throw failure(e);
        }
    }

    /**
     * The transfers the agents run or have queued now, from their status publications; finished
     * transfers are in the transfer log ({@code mft transfer list} with a database logger).
     *
     * @return the transfers, by agent
     * @throws MftClientException as {@link #agents}
     */
    public List<TransferInfo> transfers() throws MftClientException {
        List<TransferInfo> out = new ArrayList<>();
        for (AgentInfo a : agents(null)) {
            a.sourceTransfers().forEach((id, state) -> out.add(new TransferInfo(id, a.name(), "source", state)));
            a.destinationTransfers().forEach((id, state) -> out.add(new TransferInfo(id, a.name(), "destination",
                    state)));
        }
        return Collections.unmodifiableList(out);
    }

    private AgentDirectory directory() throws MftClientException, QueueManagerException {
        return AgentDirectory.forCoordination(settings.coordination(), settings.qmgrsDirectory(), Clock.systemUTC());
    }

    private static AgentInfo info(AgentView v) {
        AgentStatus s = v.status();
        return new AgentInfo(s.agentName(), s.queueManager(), v.shownStatus(), v.publishedStatus(), v.age(),
                s.description(), s.hostName(), s.version(), new LinkedHashMap<>(s.sourceTransferStates()),
                new LinkedHashMap<>(s.destinationTransferStates()), s.maxSourceTransfers(),
                s.maxDestinationTransfers(), s.queuedTransfers());
    }

    private static String agentName(String agent) throws MftClientException {
        try {
            return QueueNames.validateAgentName(Objects.requireNonNull(agent, "agent").strip());
        } catch (IllegalArgumentException e) {
            throw new MftClientException(MftClientException.FAILED, e.getMessage(), e);
        }
    }

    /** Nothing to release: each operation closes its own connections. */
    @Override
    public void close() {
    }

    /** Any failure of an operation as an {@link MftClientException} with the command line's code. */
    static MftClientException failure(Exception e) {
        if (e instanceof MftClientException m) {
            return m;
        }
        String message = e.getMessage() == null ? e.toString() : e.getMessage();
        if (e instanceof QueueManagerException q) {
            return new MftClientException(q.exitCode(), message, e);
        }
        if (e instanceof ConfigurationException) {
            return new MftClientException(MftClientException.CONFIGURATION, message, e);
        }
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        return new MftClientException(MftClientException.FAILED, message, e);
    }

    /** For the maps of {@link AgentInfo}: kept in the agent's order. */
    static <K, V> Map<K, V> ordered(Map<K, V> m) {
        return Collections.unmodifiableMap(new LinkedHashMap<>(m));
    }
}
