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
import org.openmft.agent.scheduler.ScheduleService;
import org.openmft.client.internal.AgentRequests;
import org.openmft.client.internal.Cancellation;
import org.openmft.client.internal.CommandChannel;
import org.openmft.client.internal.DropOldestPublisher;
import org.openmft.client.internal.MonitorRequests;
import org.openmft.client.internal.ProgressFeed;
import org.openmft.client.internal.Requests;
import org.openmft.coordination.logger.LogStore;
import org.openmft.coordination.logger.StoredItem;
import org.openmft.coordination.logger.StoredTransfer;
import org.openmft.coordination.logger.TransferQuery;
import org.openmft.coordination.query.AgentDirectory;
import org.openmft.coordination.query.AgentNamePattern;
import org.openmft.coordination.query.AgentView;
import org.openmft.coordination.query.MonitorDirectory;
import org.openmft.coordination.query.ScheduleDirectory;
import org.openmft.xml.ClearMonitorHistoryRequest;
import org.openmft.xml.CommandDocument;
import org.openmft.xml.DeleteMonitorRequest;
import org.openmft.xml.MonitorControlRequest;
import org.openmft.xml.MonitorDefinition;
import org.openmft.xml.MonitorListing;
import org.openmft.xml.Originator;
import org.openmft.xml.Reply;
import org.openmft.xml.ReplyTo;
import org.openmft.xml.TransferRequest;
import org.openmft.xml.log.AgentStatus;
import org.openmft.xml.log.ScheduleList;
import org.openmft.xml.log.TransferProgress;

/**
 * OpenMFT for applications: submit transfers, await their outcome, follow their progress, cancel
 * them, list agents and their transfers, and create, list, start, stop and delete resource
 * monitors, as the {@code mft} command line does (it uses this class). Requests go to agents' COMMAND queues through the command queue manager; status and
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
    /** How long {@link #stopAgent(String, String, boolean)} waits for the agent's confirmation, as fteStopAgent. */
    public static final Duration STOP_WAIT = Duration.ofSeconds(60);
    /** How long {@link #deleteSchedule} waits for the agent's answer, as fteDeleteScheduledTransfer. */
    public static final Duration SCHEDULE_WAIT = Duration.ofSeconds(30);
    private final ClientSettings settings;
    private final ConnectionListener notices;
    /** The originator of this client's requests: this host and the OS user, or the user acted for. */
    private final Originator originator;

    private MftClient(ClientSettings settings, ConnectionListener notices, Originator originator) {
        this.settings = settings;
        this.notices = notices;
        this.originator = originator;
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
                "listener"), null);
    }

    /**
     * A client like this one whose transfer and cancel requests name {@code userId} as the user
     * who asked ({@code <originator><userID>}, shown in the transfer log), for a server that has
     * authenticated its caller, as IBM's REST API records the user it logged in. Requests of this
     * client name the operating system's user otherwise (as IBM's commands do), or, for a
     * {@link TransferSpec#fromXml document}, the user the document names.
     *
     * @param userId the user, not empty
     * @return the client acting for the user
     */
    public MftClient onBehalfOf(String userId) {
        Originator host = CommandChannel.originator();
        return new MftClient(settings, notices, new Originator(host.hostName(), Objects.requireNonNull(userId,
                "userId"), null));
    }

    /** The request of {@code spec} with this client's originator, if it acts for a user. */
    private TransferRequest request(TransferSpec spec) {
        return originator == null ? spec.request() : spec.request().withOriginator(originator);
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
        TransferRequest request = request(spec);
        return send(request.sourceAgent(), request);
    }

    /**
     * Submits a transfer whose outcome is to be awaited; returns once the source agent has accepted it.
     * Its progress can be followed with {@link TransferHandle#progress()}.
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
     * source agent has accepted it. When a coordination queue manager is configured, the source
     * agent's progress publications are subscribed to before the request is sent, so that none is
     * missed, and passed to {@code listener} and to the subscribers of
     * {@link TransferHandle#progress()} from the acknowledgement until the outcome arrives or the
     * handle is closed.
     *
     * @param spec the request
     * @param listener receives the transfer's progress, or null for none
     * @return the transfer, to {@linkplain TransferHandle#await await} and to close
     * @throws MftClientException as {@link #send}
     */
    public TransferHandle submit(TransferSpec spec, ProgressListener listener) throws MftClientException {
        Objects.requireNonNull(spec, "spec");
        TransferRequest request = request(spec);
        if (request.schedule() != null) {
            throw new IllegalArgumentException("a scheduled transfer has no outcome to await now: send it with"
                    + " createSchedule");
        }
        // Ask for the outcome, item by item, on this transfer's reply queue.
        return submit(request.sourceAgent(), true, listener, (queue, qmgr) -> request.withReply(new ReplyTo(queue,
                qmgr, true)));
    }

    /**
     * Sends a request document as it is (IBM's {@code mft transfer submit FILE} without {@code -w}):
     * a managed transfer (a scheduled one too) or a managed call; returns once its agent has
     * accepted it.
     *
     * @param document the request
     * @return the agent's acknowledgement: the request id, and for a scheduled transfer the
     *     schedule's id in its messages
     * @throws MftClientException as {@link #send(TransferSpec)}
     */
    public Acknowledgement send(RequestDocument document) throws MftClientException {
        Objects.requireNonNull(document, "document");
        return send(document.agentRef(), document.document(originator));
    }

    /**
     * Submits a request document whose outcome is to be awaited ({@code mft transfer submit FILE -w}):
     * the document is sent as it is but for its {@code <reply>} queue, which becomes the handle's
     * (the document's {@code detailed} choice is kept). A managed transfer's progress is followed as
     * {@link #submit(TransferSpec, ProgressListener)} does; a managed call has none, and its outcome
     * is 0 or 40 with the program's result in the messages.
     *
     * @param document the request, not a scheduled transfer (it has no outcome now: {@link #send(RequestDocument)})
     * @param listener receives a transfer's progress, or null for none
     * @return the request, to {@linkplain TransferHandle#await await} and to close
     * @throws MftClientException as {@link #send(TransferSpec)}
     * @throws IllegalArgumentException for a scheduled transfer
     */
    public TransferHandle submit(RequestDocument document, ProgressListener listener) throws MftClientException {
        Objects.requireNonNull(document, "document");
        if (document.scheduled()) {
            throw new IllegalArgumentException("a scheduled transfer has no outcome to await now: send it");
        }
        org.openmft.xml.CommandDocument sent = document.document(originator);
        return submit(document.agentRef(), !document.managedCall(), listener,
                (queue, qmgr) -> document.answeredAt(sent, queue, qmgr));
    }

    /** Sends {@code request} to {@code agent} and waits for its acknowledgement only. */
    private Acknowledgement send(org.openmft.xml.AgentRef agent, org.openmft.xml.CommandDocument request)
            throws MftClientException {
        try (CommandChannel channel = CommandChannel.open(settings.command(), settings.qmgrsDirectory())) {
            channel.toQueueManager(agent.qmgr());
            Reply ack = Requests.acknowledged(channel, agent.agent().toUpperCase(java.util.Locale.ROOT), request);
            return new Acknowledgement(ack.requestId(), ack.supplements());
        } catch (Exception e) {
            throw failure(e);
        }
    }

    /**
     * Sends the request {@code answeredAt} makes for the reply queue (name, queue manager) to
     * {@code target}, following its progress when {@code followProgress}.
     */
    private TransferHandle submit(org.openmft.xml.AgentRef target, boolean followProgress, ProgressListener listener,
            java.util.function.BiFunction<String, String, org.openmft.xml.CommandDocument> answeredAt)
            throws MftClientException {
        CommandChannel channel = null;
        ProgressFeed feed = null;
        DropOldestPublisher<ProgressEvent> events = new DropOldestPublisher<>(TransferHandle.PROGRESS_BUFFER);
        try {
            channel = CommandChannel.openForWait(settings.command(), settings.qmgrsDirectory(), notices::onNotice);
            org.openmft.xml.CommandDocument request = answeredAt.apply(channel.replyQueueName(), channel.qmgrName());
            String agent = target.agent().toUpperCase(java.util.Locale.ROOT);
            feed = followProgress ? progress(agent, listener, events) : null;
            channel.toQueueManager(target.qmgr());
            Reply ack = Requests.acknowledged(channel, agent, request);
            if (feed != null) {
                feed.follow(ack.requestId());
            }
            return new TransferHandle(channel, feed, events, ack.requestId(), ack.supplements());
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

    /**
     * Subscribes to {@code agent}'s progress publications for {@code listener} and {@code events};
     * null when it cannot (the listener is told why, when there is one).
     */
    private ProgressFeed progress(String agent, ProgressListener listener, DropOldestPublisher<ProgressEvent> events) {
        try {
            CoordinationConfig config = settings.coordination();
            QueueManagerConnector connector = QueueManagerConnector.forCommand(config.endpoint(),
                    settings.qmgrsDirectory(), null);
            return ProgressFeed.open(connector, agent, p -> {
                ProgressEvent e = event(p);
                events.publish(e);
                if (listener != null) {
                    listener.onProgress(e);
                }
            });
        } catch (Exception e) {
            if (listener != null) {
                listener.onProgressUnavailable(e.getMessage() == null ? e.toString() : e.getMessage());
            }
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
            Originator asker = asker();
            String accepted = Cancellation.accepted(Cancellation.ask(channel, asker, name, id), name, id);
            onAccepted.accept(accepted);
            if (waitForEnd == null) {
                return new CancelOutcome(accepted, false, Optional.empty());
            }
            boolean ended = Cancellation.awaitEnd(channel, asker, name, id, waitForEnd);
            return new CancelOutcome(accepted, ended, ended ? Optional.empty() : channel.lostConnection());
        } catch (Exception e) {
            throw failure(e);
        }
    }

    /**
     * Pings an agent (IBM's ftePingAgent): sends a ping to its COMMAND queue and waits for the answer,
     * which an agent that runs and reads its commands gives at once.
     *
     * @param agent the agent's name, any case
     * @param agentQMgr the agent's queue manager when it is not the command queue manager (reached
     *     through a channel), or null
     * @param timeout how long to wait for the answer, more than zero (IBM's default is 5 seconds)
     * @return the answer, with the round-trip time
     * @throws MftClientException code 2 (BFGCL0214I) when the agent did not answer within
     *     {@code timeout}: it is not running, or cannot read its queue; 1 for a wrong agent name, an
     *     agent without a COMMAND queue (BFGCL0014E) or a refused ping; 75 when the queue manager is
     *     not available; 78 when it refused the login
     */
    public PingResult ping(String agent, String agentQMgr, Duration timeout) throws MftClientException {
        String name = agentName(agent);
        Duration wait = AgentRequests.positive(timeout, "timeout");
        try (CommandChannel channel = CommandChannel.open(settings.command(), settings.qmgrsDirectory())) {
            Duration roundTrip = AgentRequests.ping(channel, asker(), name, agentQMgr, wait);
            return new PingResult(name, agentQMgr == null ? channel.qmgrName() : agentQMgr, roundTrip);
        } catch (Exception e) {
            throw failure(e);
        }
    }

    /**
     * Stops an agent (IBM's fteStopAgent), waiting at most {@link #STOP_WAIT} for it to confirm.
     *
     * @param agent the agent's name, any case
     * @param agentQMgr the agent's queue manager when it is not the command queue manager, or null
     * @param immediate stop at once, interrupting running transfers (they resume when the agent
     *     starts again), rather than after they finish
     * @throws MftClientException as {@link #stopAgent(String, String, boolean, Duration)}
     */
    public void stopAgent(String agent, String agentQMgr, boolean immediate) throws MftClientException {
        stopAgent(agent, agentQMgr, immediate, STOP_WAIT);
    }

    /**
     * Stops an agent (IBM's fteStopAgent): without {@code immediate} it takes no new transfers and
     * stops once the running ones have finished; with it, it stops at once and the interrupted
     * transfers resume at its next start. Returns when the agent has confirmed that it stopped;
     * the process of an agent of its own may end a moment later.
     *
     * @param agent the agent's name, any case
     * @param agentQMgr the agent's queue manager when it is not the command queue manager, or null
     * @param immediate stop at once rather than after the running transfers
     * @param timeout how long to wait for the agent's confirmation, more than zero
     * @throws MftClientException code 2 (BFGCL0035W) when the agent did not confirm within
     *     {@code timeout} (it may still be finishing transfers, or not be running); 1 for a wrong
     *     agent name, an agent without a COMMAND queue (BFGCL0014E) or a refused stop; 75 when the
     *     queue manager is not available
     */
    public void stopAgent(String agent, String agentQMgr, boolean immediate, Duration timeout)
            throws MftClientException {
        String name = agentName(agent);
        Duration wait = AgentRequests.positive(timeout, "timeout");
        try (CommandChannel channel = CommandChannel.open(settings.command(), settings.qmgrsDirectory())) {
            AgentRequests.stop(channel, asker(), name, agentQMgr, immediate, wait);
        } catch (Exception e) {
            throw failure(e);
        }
    }

    /** The originator of requests: the user acted for, else this host and the OS user. */
    private Originator asker() {
        return originator == null ? CommandChannel.originator() : originator;
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
     * The resource monitors of the agents whose names match {@code agentPattern} (IBM's
     * fteListMonitors {@code -ma}), from the listings the agents publish, retained, on the
     * coordination queue manager; takes a moment, as {@link #agents}.
     *
     * @param agentPattern an agent name pattern ({@code *} any characters, {@code ?} one; any case),
     *     or null for all agents
     * @return the monitors, by agent and then name
     * @throws MftClientException as {@link #agents}
     */
    public List<MonitorInfo> monitors(String agentPattern) throws MftClientException {
        try {
            AgentNamePattern agents = AgentNamePattern.of(agentPattern);
            CoordinationConfig config = settings.coordination();
            return MonitorDirectory.of(QueueManagerConnector.forCommand(config.endpoint(), settings.qmgrsDirectory(),
                    null)).read().stream().filter(l -> agents.matches(l.agent())).map(MftClient::monitor).toList();
        } catch (Exception e) {
            throw failure(e);
        }
    }

    /**
     * Creates a resource monitor on its agent and starts it (IBM's fteCreateMonitor): the agent checks
     * the directory (or queue) and the task, stores the monitor, answers, and publishes its listing
     * ({@link #monitors}) a moment later. The agent must be running.
     *
     * @param spec the monitor
     * @param agentQMgr the agent's queue manager when it is not the command queue manager, or null
     * @throws MftClientException code 1 (BFGCL0252E) when the agent refused, with its
     *     {@linkplain MftClientException#resultCode() result code}: 105 a monitor of that name exists
     *     (and the spec does not replace it), 114 the directory may not be read or is not absolute, 111
     *     the task's source agent is another agent, 100/110 a wrong variable; 1 (BFGCL0014E) for an agent
     *     without a COMMAND queue; 2 (BFGCL0214I) when the agent did not answer within 30 seconds; 75 when
     *     the queue manager is not available
     */
    public void createMonitor(MonitorSpec spec, String agentQMgr) throws MftClientException {
        Objects.requireNonNull(spec, "spec");
        MonitorDefinition monitor = (originator == null ? spec : spec.askedBy(originator)).definition();
        monitorRequest(monitor.agent(), agentQMgr, monitor.name(), reply -> monitor.withReply(reply));
    }

    /**
     * Stops and deletes a resource monitor (IBM's fteDeleteMonitor), with its history; its listing is
     * cleared. The agent must be running.
     *
     * @param agent the monitoring agent, any case
     * @param agentQMgr the agent's queue manager when it is not the command queue manager, or null
     * @param monitor the monitor's name, any case
     * @throws MftClientException code 1 (BFGCL0252E, result code 104) when the agent has no such
     *     monitor, 1 for a wrong name or an agent without a COMMAND queue (BFGCL0014E), 2 (BFGCL0214I)
     *     when the agent did not answer within 30 seconds, 75 when the queue manager is not available
     */
    public void deleteMonitor(String agent, String agentQMgr, String monitor) throws MftClientException {
        String name = monitorName(monitor);
        Originator asker = asker();
        monitorRequest(agentName(agent), agentQMgr, name, reply -> new DeleteMonitorRequest("6.00", name, asker, reply));
    }

    /**
     * Starts a stopped resource monitor (IBM's fteStartMonitor); it polls at once.
     *
     * @param agent the monitoring agent, any case
     * @param agentQMgr the agent's queue manager when it is not the command queue manager, or null
     * @param monitor the monitor's name, any case
     * @throws MftClientException as {@link #deleteMonitor}
     */
    public void startMonitor(String agent, String agentQMgr, String monitor) throws MftClientException {
        control(agent, agentQMgr, monitor, true);
    }

    /**
     * Stops a resource monitor without deleting it (IBM's fteStopMonitor): it no longer polls until
     * {@link #startMonitor started} again; the agent keeps it stopped across its restarts.
     *
     * @param agent the monitoring agent, any case
     * @param agentQMgr the agent's queue manager when it is not the command queue manager, or null
     * @param monitor the monitor's name, any case
     * @throws MftClientException as {@link #deleteMonitor}
     */
    public void stopMonitor(String agent, String agentQMgr, String monitor) throws MftClientException {
        control(agent, agentQMgr, monitor, false);
    }

    /**
     * Makes a resource monitor forget which files it has triggered on (IBM's fteClearMonitorHistory):
     * its next poll triggers on every matching file again.
     *
     * @param agent the monitoring agent, any case
     * @param agentQMgr the agent's queue manager when it is not the command queue manager, or null
     * @param monitor the monitor's name, any case
     * @throws MftClientException as {@link #deleteMonitor}
     */
    public void clearMonitorHistory(String agent, String agentQMgr, String monitor) throws MftClientException {
        String name = monitorName(monitor);
        Originator asker = asker();
        monitorRequest(agentName(agent), agentQMgr, name, reply -> new ClearMonitorHistoryRequest("6.00", name, asker,
                reply));
    }

    private void control(String agent, String agentQMgr, String monitor, boolean start) throws MftClientException {
        String name = monitorName(monitor);
        Originator asker = asker();
        monitorRequest(agentName(agent), agentQMgr, name, reply -> new MonitorControlRequest("6.00", start, name, asker,
                reply));
    }

    private void monitorRequest(String agent, String agentQMgr, String monitor,
            java.util.function.Function<ReplyTo, CommandDocument> document) throws MftClientException {
        try (CommandChannel channel = CommandChannel.open(settings.command(), settings.qmgrsDirectory())) {
            channel.toQueueManager(agentQMgr);
            MonitorRequests.send(channel, agent, monitor, document);
        } catch (Exception e) {
            throw failure(e);
        }
    }

    private static String monitorName(String monitor) throws MftClientException {
        try {
            return MonitorDefinition.monitorName(Objects.requireNonNull(monitor, "monitor").strip());
        } catch (IllegalArgumentException e) {
            throw new MftClientException(MftClientException.FAILED, e.getMessage(), e);
        }
    }

    private static MonitorInfo monitor(MonitorListing l) {
        MonitorDefinition m = l.definition();
        return new MonitorInfo(l.agent().toUpperCase(java.util.Locale.ROOT), m.name(), m.queueMonitor(), l.started(),
                m.queueMonitor() ? m.queue() : m.directory(), m.recursionLevel(),
                Duration.ofSeconds(m.pollInterval().seconds()), m.batchSize(), m.description(), m.jobName());
    }

    /**
     * The transfers the agents run or have queued now, from their status publications; needs no
     * logger. Finished transfers, and the details of running ones, are in the logger's database:
     * {@link #history} and {@link #transfer}.
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

    /**
     * Creates a scheduled transfer (IBM's fteCreateTransfer with {@code -ss}): the source agent
     * keeps the schedule, with the transfer, and starts each occurrence when it is due; the agent
     * must be running then. Returns once the agent has stored it.
     *
     * @param spec a transfer with a {@linkplain TransferSpec.Builder#schedule schedule}
     * @return the schedule's id on its source agent, for {@link #schedules} and {@link #deleteSchedule}
     * @throws IllegalArgumentException when {@code spec} has no schedule
     * @throws MftClientException as {@link #send(TransferSpec)}; the agent refuses a start in the past
     *     or a schedule it cannot read with code 1
     */
    public long createSchedule(TransferSpec spec) throws MftClientException {
        Objects.requireNonNull(spec, "spec");
        if (!spec.scheduled()) {
            throw new IllegalArgumentException("the transfer has no schedule: give one with"
                    + " TransferSpec.Builder.schedule or TransferSpec.withSchedule");
        }
        Acknowledgement ack = send(spec);
        return ScheduleService.createdId(ack.messages()).orElseThrow(() -> new MftClientException(
                MftClientException.FAILED, "agent " + spec.sourceAgent() + " accepted the request but named no"
                        + " schedule: " + String.join("; ", ack.messages())));
    }

    /**
     * The scheduled transfers of the source agents whose names match {@code agentPattern} (IBM's
     * fteListScheduledTransfers), from the lists the agents publish, retained, on the coordination
     * queue manager; takes a moment, as {@link #agents}.
     *
     * @param agentPattern a source agent name pattern ({@code *} any characters, {@code ?} one; any
     *     case), or null for all agents
     * @return the schedules, by agent and then id
     * @throws MftClientException as {@link #agents}
     */
    public List<ScheduledTransfer> schedules(String agentPattern) throws MftClientException {
        try {
            CoordinationConfig config = settings.coordination();
            return ScheduleDirectory.read(QueueManagerConnector.forCommand(config.endpoint(),
                    settings.qmgrsDirectory(), null), agentPattern).stream()
                    .flatMap(l -> l.schedules().stream()).map(MftClient::scheduled).toList();
        } catch (Exception e) {
            throw failure(e);
        }
    }

    private static ScheduledTransfer scheduled(ScheduleList.Entry e) {
        return new ScheduledTransfer(e.id(), e.sourceAgent(), e.destinationAgent(), e.jobName(), e.timebase(),
                e.start(), e.next(), e.interval(), e.frequency(), e.expireCount(), e.expireTime(), e.items().stream()
                        .map(i -> new ScheduledTransfer.Item(i.source(), i.destination(), i.mode())).toList());
    }

    /**
     * Deletes a scheduled transfer from its source agent (IBM's fteDeleteScheduledTransfer), which
     * must be running; occurrences already started run on. Waits at most {@link #SCHEDULE_WAIT}.
     *
     * @param agent the source agent's name, any case
     * @param agentQMgr the agent's queue manager when it is not the command queue manager, or null
     * @param scheduleId the schedule's id, as {@link #schedules} lists it
     * @return what the agent said
     * @throws MftClientException code 1 for a wrong agent name or id (BFGCL0001E), a schedule the
     *     agent does not hold, or an agent without a COMMAND queue (BFGCL0014E); 2 (BFGCL0214I) when
     *     the agent did not answer; 75 when the queue manager is not available
     */
    public String deleteSchedule(String agent, String agentQMgr, long scheduleId) throws MftClientException {
        String name = agentName(agent);
        if (scheduleId < 1) {
            throw new MftClientException(MftClientException.FAILED, "BFGCL0001E: the schedule ID '" + scheduleId
                    + "' is not a positive whole number");
        }
        try (CommandChannel channel = CommandChannel.open(settings.command(), settings.qmgrsDirectory())) {
            return AgentRequests.deleteSchedule(channel, asker(), name, agentQMgr, scheduleId, SCHEDULE_WAIT);
        } catch (Exception e) {
            throw failure(e);
        }
    }

    /**
     * Transfers as the logger's database recorded them (IBM's transfer log, stored by a
     * {@code DATABASE} logger of the configuration options set, see
     * {@link ClientSettings#withLogger}): running and ended ones, newest first, kept across
     * restarts, as {@code mft transfer list} shows them. Without the items; {@link #transfer} has them.
     *
     * @param agent only the transfers of this source or destination agent (any case), or null for all
     * @param limit the most to return, 1 to 100000
     * @return the transfers, newest first; empty when the logger has stored nothing yet
     * @throws MftClientException code 78 when the settings have no data directory or it has no such
     *     database logger, 1 when the database cannot be read
     */
    public List<TransferRecord> history(String agent, int limit) throws MftClientException {
        TransferQuery query;
        try {
            query = TransferQuery.latest(limit);
            if (agent != null && !agent.isBlank()) {
                query = query.withAgent(agentName(agent));
            }
        } catch (IllegalArgumentException e) {
            throw new MftClientException(MftClientException.FAILED, e.getMessage(), e);
        }
        Optional<LogStore> store = settings.history();
        if (store.isEmpty()) {
            return List.of();
        }
        try (LogStore s = store.get()) {
            return s.transfers(query).stream().map(MftClient::record).toList();
        } catch (Exception e) {
            throw failure(e);
        }
    }

    /**
     * One transfer as the logger's database recorded it, with its items (IBM's
     * {@code GET admin/mft/transfer/{id}}, {@code mft transfer show}).
     *
     * @param transferId the transfer id, 48 hexadecimal characters
     * @return the transfer, or empty when the logger stored nothing about it
     * @throws MftClientException as {@link #history}, and code 1 (BFGCL0400E) when the id is not a transfer id
     */
    public Optional<TransferRecord> transfer(String transferId) throws MftClientException {
        String id = Cancellation.transferId(transferId);
        Optional<LogStore> store = settings.history();
        if (store.isEmpty()) {
            return Optional.empty();
        }
        try (LogStore s = store.get()) {
            return s.transfer(id).map(MftClient::record);
        } catch (Exception e) {
            throw failure(e);
        }
    }

    private static TransferRecord record(StoredTransfer t) {
        return new TransferRecord(t.id().toUpperCase(java.util.Locale.ROOT), t.sourceAgent(), t.destinationAgent(),
                t.state().restName(), t.resultCode(), t.originatorUser(), t.jobName(), t.startTime(), t.endTime(),
                t.totalItems(), t.bytesSent(), t.supplements(), t.items().stream().map((StoredItem i) ->
                        new ItemOutcome(i.source(), i.destination(), i.resultCode(), i.supplement())).toList());
    }

    private AgentDirectory directory() throws MftClientException, QueueManagerException {
        return AgentDirectory.forCoordination(settings.coordination(), settings.qmgrsDirectory(), Clock.systemUTC());
    }

    private static AgentInfo info(AgentView v) {
        AgentStatus s = v.status();
        return new AgentInfo(s.agentName(), s.queueManager(), v.shownStatus(), v.publishedStatus(), v.age(),
                s.description(), s.hostName(), s.version(), new LinkedHashMap<>(s.sourceTransferStates()),
                new LinkedHashMap<>(s.destinationTransferStates()), s.maxSourceTransfers(),
                s.maxDestinationTransfers(), s.queuedTransfers(), s.agentType(), s.osName(), s.timeZone(), s.startTime(),
                s.publishTime(), s.publishRateMinSeconds(), s.queueManagerHost(), s.queueManagerPort(),
                s.queueManagerChannel(), s.maxQueuedTransfers());
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
