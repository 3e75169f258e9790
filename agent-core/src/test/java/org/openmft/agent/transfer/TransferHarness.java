package org.openmft.agent.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TextMessage;

import org.openmft.agent.Agent;
import org.openmft.agent.AgentListener;
import org.openmft.agent.ItemOutcome;
import org.openmft.agent.TransferOutcome;
import org.openmft.agent.config.AgentConfig;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.EmbeddedQueueManager;
import org.openmft.agent.qmgr.QueueManagerSettings;
import org.openmft.xml.AgentRef;
import org.openmft.xml.ChecksumMethod;
import org.openmft.xml.CommandDocument;
import org.openmft.xml.DestinationType;
import org.openmft.xml.Disposition;
import org.openmft.xml.DocumentWriter;
import org.openmft.xml.ExistAction;
import org.openmft.xml.ItemDestination;
import org.openmft.xml.ItemSource;
import org.openmft.xml.LineEnding;
import org.openmft.xml.Mode;
import org.openmft.xml.Originator;
import org.openmft.xml.Reply;
import org.openmft.xml.RequestParser;
import org.openmft.xml.TransferItem;
import org.openmft.xml.TransferRequest;
import org.openmft.xml.TransferSet;

/**
 * A real embedded queue manager with agents SRC and DST (bindings or client mode) in this JVM, for
 * transfer tests: builds requests, submits them as any MQ application would (an XML text message
 * on the source agent's COMMAND queue with a JMSReplyTo) and collects the replies and events.
 */
final class TransferHarness implements AutoCloseable {
    static final Originator ME = new Originator("testhost", "tester", null);

    final Path root;
    /** The queue manager's name. */
    final String qmName;
    /** Replaced by {@link #startQueueManager} after a {@link #stopQueueManager}. */
    EmbeddedQueueManager qm;
    final int port;
    final boolean client;
    final Map<String, Agent> agents = new HashMap<>();
    final Map<String, QueueManagerConnector> connectors = new HashMap<>();
    /** The administrator's connector, for what a test does behind the agents' backs. */
    QueueManagerConnector admin;
    /** A requester's connector (user {@value #REQUESTER}), through which requests are submitted. */
    QueueManagerConnector requester;
    private final org.openmft.agent.credentials.Credentials requesterLogin;
    static final String REQUESTER = "tester";
    final List<String> events = new CopyOnWriteArrayList<>();
    final List<TransferOutcome> destinationOutcomes = new CopyOnWriteArrayList<>();
    final List<TransferOutcome> sourceOutcomes = new CopyOnWriteArrayList<>();
    /** Bytes sent so far per transfer, as the source's latest progress event said (resends included). */
    final Map<String, Long> lastBytesSent = new java.util.concurrent.ConcurrentHashMap<>();
    /**
     * Sees every source progress event and every item's result at the source, on the source's
     * transfer thread: a test may block in it to hold a transfer in the middle of a file, or right
     * after an item's result is journaled, without racing a clock.
     */
    volatile AgentListener progressTap = AgentListener.NONE;
    /**
     * Sees every {@link AgentListener#transferPlanning} event, on the source's planner thread: a test
     * may block in it to hold a request between its acknowledgement and its planning.
     */
    volatile AgentListener planningTap = AgentListener.NONE;
    /** Sees every transferEnded event, on the thread that ends the transfer, before it forgets it. */
    volatile AgentListener endTap = AgentListener.NONE;

    /**
     * What each agent started by {@link #agent(String, Map)} gets as its listener, given its
     * configuration and the harness's own listener (which it must pass events on to).
     */
    volatile java.util.function.BiFunction<AgentConfig, AgentListener, AgentListener> listenerFor = (c, l) -> l;

    /** Every {@link AgentListener#requestRejected} event, in order. */
    final List<Rejection> rejections = new CopyOnWriteArrayList<>();

    /** Runs on the planner thread when a request is queued: its sources are chosen, none is read yet. */
    volatile java.util.function.Consumer<org.openmft.agent.TransferInfo> onQueued = transfer -> { };

    /** A refused command message, as the agent reported it to its listener. */
    record Rejection(String agent, String messageId, int resultCode, String reason) {
    }

    /** An agent-to-agent message an agent dropped unread, as it reported it to its listener. */
    record ProtocolRejection(String agent, String queue, String type, String transferId, String sender,
            String reason) {
    }

    /** Every {@link AgentListener#protocolMessageRejected} event, in order. */
    final List<ProtocolRejection> protocolRejections = new CopyOnWriteArrayList<>();

    /** A program call's result as the listener heard it. */
    record CallEvent(String agent, org.openmft.agent.AgentListener.Role role, String transferId, String phase, org.openmft.xml.ProgramCall call,
            org.openmft.agent.calls.CallResult result) {
    }

    final List<CallEvent> calls = new CopyOnWriteArrayList<>();

    /** A managed call's end, as the agent reported it. */
    record ManagedCallEvent(String agent, String callId, org.openmft.agent.calls.CallResult result, int resultCode,
            String supplement) {
    }

    final List<ManagedCallEvent> managedCalls = new CopyOnWriteArrayList<>();
    /** Every {@link AgentListener#managedCallStarted} request, in order. */
    final List<org.openmft.xml.ManagedCallRequest> managedCallRequests = new CopyOnWriteArrayList<>();

    /** Every {@link AgentListener#notAuthorized} event, in order. */
    final List<org.openmft.agent.authority.AuthorityRefusal> refusals = new CopyOnWriteArrayList<>();

    /** Every {@link AgentListener#monitorAction} event, in order. */
    final List<org.openmft.agent.monitor.MonitorEvent> monitorEvents = new CopyOnWriteArrayList<>();

    /** Every {@link AgentListener#scheduleAction} event, in order. */
    final List<org.openmft.agent.scheduler.ScheduleEvent> scheduleEvents = new CopyOnWriteArrayList<>();
    /** The latest {@link AgentListener#schedulesChanged} list. */
    volatile List<org.openmft.agent.scheduler.ScheduleEntry> schedules = List.of();

    final AgentListener listener = new AgentListener() {
        @Override
        public void monitorAction(String agent, org.openmft.agent.monitor.MonitorEvent event) {
            monitorEvents.add(event);
        }

        @Override
        public void scheduleAction(String agent, org.openmft.agent.scheduler.ScheduleEvent event) {
            scheduleEvents.add(event);
        }

        @Override
        public void schedulesChanged(String agent, List<org.openmft.agent.scheduler.ScheduleEntry> list) {
            schedules = list;
        }

        @Override
        public void stateChanged(String agent, org.openmft.agent.AgentState state) {
            events.add("state " + agent + " " + state);
        }

        @Override
        public void transferPlanning(String agent, String transferId) {
            events.add("planning " + agent + " " + transferId);
            planningTap.transferPlanning(agent, transferId);
        }

        @Override
        public void notAuthorized(String agent, org.openmft.agent.authority.AuthorityRefusal refusal) {
            refusals.add(refusal);
        }

        @Override
        public void protocolMessageRejected(String agent, String queue, String type, String transferId,
                String sender, String reason) {
            protocolRejections.add(new ProtocolRejection(agent, queue, type, transferId, sender, reason));
        }

        @Override
        public void requestRejected(String agent, String messageId, int resultCode, String reason) {
            rejections.add(new Rejection(agent, messageId, resultCode, reason));
        }

        @Override
        public void transferQueued(String agent, org.openmft.agent.TransferInfo transfer, int queued) {
            onQueued.accept(transfer);
        }

        @Override
        public void transferStarted(String agent, Role role, org.openmft.agent.TransferInfo transfer) {
            events.add("started " + role + " " + transfer.transferId());
        }

        @Override
        public void transferResumed(String agent, Role role, org.openmft.agent.TransferInfo transfer, String reason) {
            events.add("resumed " + role + " " + transfer.transferId());
        }

        @Override
        public void recovering(String agent, String transferId, String reason) {
            events.add("recovering " + agent + " " + transferId + " " + reason);
        }

        @Override
        public void recovered(String agent, String transferId) {
            events.add("recovered " + agent + " " + transferId);
        }

        @Override
        public void checkpointed(String agent, String transferId, long nextSeq) {
            events.add("checkpoint " + transferId + " " + nextSeq);
        }

        @Override
        public void progress(String agent, String transferId, int item, long itemBytesSent, long bytesSent) {
            lastBytesSent.put(transferId, bytesSent);
            progressTap.progress(agent, transferId, item, itemBytesSent, bytesSent);
        }

        @Override
        public void itemCompleted(String agent, Role role, String transferId, org.openmft.agent.ItemOutcome item) {
            if (role == Role.SOURCE) {
                progressTap.itemCompleted(agent, role, transferId, item);
            }
        }

        @Override
        public void resending(String agent, String transferId, long fromSeq, String reason) {
            events.add("resend " + transferId + " " + fromSeq + " " + reason);
        }

        @Override
        public void windowResized(String agent, String transferId, int chunks, long roundTripMicros,
                long bytesPerSecond) {
            events.add("window " + transferId + " " + chunks);
        }

        @Override
        public void callCompleted(String agent, Role role, String transferId, String phase,
                org.openmft.xml.ProgramCall call, org.openmft.agent.calls.CallResult result) {
            calls.add(new CallEvent(agent, role, transferId, phase, call, result));
        }

        @Override
        public void managedCallStarted(String agent, String callId, org.openmft.xml.ManagedCallRequest request) {
            managedCallRequests.add(request);
            events.add("call started " + callId);
        }

        @Override
        public void managedCallEnded(String agent, String callId, org.openmft.xml.ManagedCallRequest request,
                org.openmft.agent.calls.CallResult result, int resultCode, String supplement) {
            managedCalls.add(new ManagedCallEvent(agent, callId, result, resultCode, supplement));
            events.add("call ended " + callId + " " + resultCode);
        }

        @Override
        public void transferEnded(String agent, Role role, TransferOutcome outcome) {
            (role == Role.SOURCE ? sourceOutcomes : destinationOutcomes).add(outcome);
            events.add("ended " + role + " " + outcome.transferId() + " " + outcome.resultCode());
            endTap.transferEnded(agent, role, outcome);
        }
    };

    TransferHarness(Path root, boolean client) throws Exception {
        this(root, client, "QMT");
    }

    /**
     * A harness whose queue manager is named {@code qmName}, its data in {@code root/qm}: several
     * harnesses, each with its own root, make several queue managers in one test.
     */
    TransferHarness(Path root, boolean client, String qmName) throws Exception {
        this.root = root;
        this.client = client;
        this.qmName = qmName;
        this.port = freePort();
        this.qm = EmbeddedQueueManager.start(new QueueManagerSettings(qmName, root.resolve("qm"), "127.0.0.1", port));
        this.requesterLogin = qm.users().add(REQUESTER,
                java.util.Set.of(org.openmft.agent.qmgr.security.Permissions.REQUESTER), true);
        makeConnectors();
    }

    private void makeConnectors() throws Exception {
        var ep = new org.openmft.agent.config.QueueManagerEndpoint(org.openmft.agent.config.MessagingProvider.ARTEMIS,
                qmName, client ? "127.0.0.1" : null, port, "SYSTEM.DEF.SVRCONN");
        this.admin = QueueManagerConnector.forAgent(ep, qm.administrator().orElseThrow());
        this.requester = QueueManagerConnector.forAgent(ep, requesterLogin);
    }

    /** Stops the queue manager cleanly, its agents first (a test starts again those it needs). */
    void stopQueueManager() {
        agents.values().forEach(Agent::close);
        agents.clear();
        connectors.clear();
        qm.close();
    }

    /**
     * Starts the stopped queue manager again from its directory, on the same port; the connectors are
     * made again, since an in-VM queue manager gets a new address at each start.
     */
    void startQueueManager() throws Exception {
        qm = EmbeddedQueueManager.start(new QueueManagerSettings(qmName, root.resolve("qm"), "127.0.0.1", port));
        makeConnectors();
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** Starts an agent with extra agent.properties values. */
    Agent agent(String name, Map<String, String> extra) throws Exception {
        Map<String, String> raw = new HashMap<>(Map.of("agentName", name, "agentQMgr", qmName,
                "agentQMgrPort", String.valueOf(port), "immediateShutdownTimeout", "5",
                "transferRoot", root.toString()));
        if (client) {
            raw.put("agentQMgrHost", "127.0.0.1");
        }
        // Each agent logs in as a user of its own, as fteCreateAgent sets it up, so that every transfer
        // test runs with the permissions of agents (not the administrator's).
        Path credentials = root.resolve("credentials-" + name + ".xml");
        qm.users().addAgent(name, credentials);
        qm.applySecurityChanges();
        raw.put("agentQMgrAuthenticationCredentialsFile", credentials.toString());
        raw.putAll(extra);
        AgentConfig config = AgentConfig.from(raw, Map.of());
        QueueManagerConnector c = QueueManagerConnector.forAgent(config.endpoint(), null);
        Agent agent = new Agent(config, c, listenerFor.apply(config, listener), root.resolve("state-" + name));
        agent.start();
        agents.put(name, agent);
        connectors.put(name, c);
        return agent;
    }

    /**
     * A connector for a scripted peer posing as agent {@code name}: logged in as a user of its own with
     * that agent's role, as a real agent would be, so that the agents may answer on its queues.
     */
    QueueManagerConnector peer(String name) throws Exception {
        var credentials = qm.users().addAgent(name, root.resolve("credentials-" + name + ".xml"));
        qm.applySecurityChanges();
        var ep = new org.openmft.agent.config.QueueManagerEndpoint(org.openmft.agent.config.MessagingProvider.ARTEMIS,
                qmName, client ? "127.0.0.1" : null, port, "SYSTEM.DEF.SVRCONN");
        return QueueManagerConnector.forAgent(ep, credentials);
    }

    Agent agent(String name) throws Exception {
        return agent(name, Map.of());
    }

    /** The configuration directory of an agent started with {@link #agentFromFile}. */
    Path configDirectory(String name) {
        return root.resolve("config-" + name);
    }

    /**
     * Starts an agent as the launchers do, from an agent.properties in its own configuration
     * directory ({@link #configDirectory}), where it finds files such as UserSandboxes.xml.
     */
    Agent agentFromFile(String name, Map<String, String> extra) throws Exception {
        Map<String, String> raw = new HashMap<>(Map.of("agentName", name, "agentQMgr", qmName,
                "agentQMgrPort", String.valueOf(port), "immediateShutdownTimeout", "5",
                "transferRoot", root.toString()));
        if (client) {
            raw.put("agentQMgrHost", "127.0.0.1");
        }
        raw.putAll(extra);
        Path file = Files.createDirectories(configDirectory(name)).resolve("agent.properties");
        StringBuilder text = new StringBuilder();
        raw.forEach((k, v) -> text.append(k).append('=').append(v.replace("\\", "\\\\")).append('\n'));
        Files.writeString(file, text);
        AgentConfig config = AgentConfig.load(file, Map.of());
        QueueManagerConnector c = QueueManagerConnector.forAgent(config.endpoint(), null);
        Agent agent = new Agent(config, c, listener, root.resolve("state-" + name));
        agent.start();
        agents.put(name, agent);
        connectors.put(name, c);
        return agent;
    }

    /** Stops an agent immediately (as {@code fteStopAgent -i}): its transfers are suspended. */
    void stopImmediately(String name) {
        Agent a = agents.remove(name);
        connectors.remove(name);
        a.close();
    }

    /** The last checkpoint the destination recorded for a transfer (its next sequence number), or -1. */
    long lastCheckpoint(String id) {
        long last = -1;
        for (String e : events) {
            if (e.startsWith("checkpoint " + id + " ")) {
                last = Long.parseLong(e.substring(e.lastIndexOf(' ') + 1));
            }
        }
        return last;
    }

    static TransferItem item(String source, String destination, DestinationType type) {
        return item(source, destination, type, ChecksumMethod.MD5);
    }

    static TransferItem item(String source, String destination, DestinationType type, ChecksumMethod checksum) {
        return new TransferItem(Mode.BINARY, checksum,
                new ItemSource(false, Disposition.LEAVE, source, null),
                new ItemDestination(type, ExistAction.ERROR, destination, null, null));
    }

    static TransferRequest request(String from, String to, int priority, TransferItem... items) {
        return new TransferRequest("6.00", ME, new AgentRef(from, "QMT"), new AgentRef(to, "QMT"),
                new org.openmft.xml.ReplyTo("WMQFTE.TEST.REPLY", "QMT", true),
                new TransferSet(priority, null, Map.of(), List.of(items)), null);
    }

    static TransferItem textItem(String source, String sourceEncoding, String destination, String destEncoding,
            LineEnding eol) {
        return new TransferItem(Mode.TEXT, ChecksumMethod.MD5,
                new ItemSource(false, Disposition.LEAVE, source, sourceEncoding),
                new ItemDestination(DestinationType.FILE, ExistAction.ERROR, destination, destEncoding, eol));
    }

    /** A submitted request: the acknowledgement, and the final reply once it comes. */
    final class Submission implements AutoCloseable {
        final Connection connection;
        final MessageConsumer replies;
        final Reply ack;

        Submission(Connection connection, MessageConsumer replies, Reply ack) {
            this.connection = connection;
            this.replies = replies;
            this.ack = ack;
        }

        String id() {
            return ack.requestId();
        }

        Reply awaitFinal(long seconds) throws Exception {
            Message m = replies.receive(TimeUnit.SECONDS.toMillis(seconds));
            assertThat(m).as("final reply within %d s; events: %s", seconds, events).isNotNull();
            return new RequestParser().parseReply(((TextMessage) m).getText());
        }

        @Override
        public void close() throws jakarta.jms.JMSException {
            connection.close();
        }
    }

    /** Puts a document on {@code agent}'s COMMAND queue without waiting for any reply. */
    void send(String agent, CommandDocument doc) throws Exception {
        try (Connection conn = requester.connect()) {
            Session s = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
            try (MessageProducer p = s.createProducer(s.createQueue("SYSTEM.FTE.COMMAND." + agent))) {
                p.send(s.createTextMessage(new DocumentWriter().write(doc)));
            }
        }
    }

    /** Puts a document on {@code agent}'s COMMAND queue and waits for the first reply. */
    Submission submit(String agent, CommandDocument doc) throws Exception {
        return submitText(agent, new DocumentWriter().write(doc));
    }

    Submission submitText(String agent, String xml) throws Exception {
        return submitText(agent, xml, Map.of());
    }

    /**
     * Puts a document on {@code agent}'s COMMAND queue logged in as {@code user} (a requester made
     * for it on first use), and waits for the first reply. The queue manager writes that login into
     * the message's JMSXUserID, which is what the agent reads.
     *
     * @param user the user to log in as
     */
    Submission submitAs(String agent, CommandDocument doc, String user) throws Exception {
        return send(agent, new DocumentWriter().write(doc), Map.of(), loggedInAs(user));
    }

    /** Submits with string properties on the request message, as a requester may set any. */
    Submission submitText(String agent, String xml, Map<String, String> properties) throws Exception {
        return send(agent, xml, properties, requester);
    }

    private final Map<String, QueueManagerConnector> requesters = new HashMap<>();

    /**
     * Grants a role to a user of the queue manager (a requester made for it on first use unless it
     * exists, such as an agent's user) and waits until the queue manager applied it.
     */
    void grant(String user, String role) throws Exception {
        if (!qm.users().users().containsKey(user)) {
            loggedInAs(user);
        }
        qm.users().grant(user, role);
        qm.applySecurityChanges();
    }

    /** Takes a role from a user and waits until the queue manager applied it. */
    void revoke(String user, String role) throws Exception {
        qm.users().revoke(user, role);
        qm.applySecurityChanges();
    }

    /**
     * Puts a document on {@code agent}'s COMMAND queue logged in as {@code user}, with string
     * properties on the message as a sender may set any, and waits for the first reply.
     */
    Submission submitAs(String agent, CommandDocument doc, String user, Map<String, String> properties)
            throws Exception {
        return send(agent, new DocumentWriter().write(doc), properties, loggedInAs(user));
    }

    private QueueManagerConnector loggedInAs(String user) throws Exception {
        QueueManagerConnector c = requesters.get(user);
        if (c == null) {
            var credentials = qm.users().add(user,
                    java.util.Set.of(org.openmft.agent.qmgr.security.Permissions.REQUESTER), true);
            qm.applySecurityChanges();
            var ep = new org.openmft.agent.config.QueueManagerEndpoint(
                    org.openmft.agent.config.MessagingProvider.ARTEMIS, qmName, client ? "127.0.0.1" : null, port,
                    "SYSTEM.DEF.SVRCONN");
            c = QueueManagerConnector.forAgent(ep, credentials);
            requesters.put(user, c);
        }
        return c;
    }

    private Submission send(String agent, String xml, Map<String, String> properties,
            QueueManagerConnector connector) throws Exception {
        Connection conn = connector.connect();
        Session s = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
        TemporaryQueue replies = s.createTemporaryQueue();
        conn.start();
        TextMessage m = s.createTextMessage(xml);
        for (Map.Entry<String, String> p : properties.entrySet()) {
            m.setStringProperty(p.getKey(), p.getValue());
        }
        m.setJMSReplyTo(replies);
        try (MessageProducer p = s.createProducer(s.createQueue("SYSTEM.FTE.COMMAND." + agent))) {
            p.send(m);
        }
        MessageConsumer consumer = s.createConsumer(replies);
        Message first = consumer.receive(30_000);
        assertThat(first).as("acknowledgement").isNotNull();
        return new Submission(conn, consumer, new RequestParser().parseReply(((TextMessage) first).getText()));
    }

    /** Submits and waits for the final reply. */
    Reply transfer(TransferRequest request, long seconds) throws Exception {
        try (Submission s = submit(request.sourceAgent().agent(), request)) {
            assertThat(s.ack.resultCode()).as("acknowledgement: %s", s.ack.supplements()).isZero();
            return s.awaitFinal(seconds);
        }
    }

    static void await(String what, long seconds, BooleanSupplier condition) throws InterruptedException {
        org.openmft.agent.Poll.until(what, java.time.Duration.ofSeconds(seconds), condition);
    }

    /**
     * Waits until an agent's state directory holds no file of a transfer (the agent's state key
     * stays): an agent removes a transfer's files after it answered the requester.
     */
    static void awaitNoTransferState(String what, Path stateDirectory) throws InterruptedException {
        var left = new java.util.concurrent.atomic.AtomicReference<List<String>>();
        try {
            await(what, 20, () -> {
                try {
                    left.set(transferStateFiles(stateDirectory));
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                return left.get().isEmpty();
            });
        } catch (AssertionError e) {
            throw new AssertionError(what + ": still there: " + left.get(), e);
        }
    }

    /** The names of the files of transfers in an agent's state directory: all but the agent's state key. */
    static List<String> transferStateFiles(Path stateDirectory) throws IOException {
        try (var files = Files.list(stateDirectory)) {
            return files.map(p -> p.getFileName().toString())
                    .filter(name -> !name.equals(org.openmft.agent.transfer.state.StateTag.KEY_FILE)).sorted()
                    .toList();
        }
    }

    static String md5(Path file) throws Exception {
        return digest(file, "MD5");
    }

    static String sha256(Path file) throws Exception {
        return digest(file, "SHA-256");
    }

    private static String digest(Path file, String algorithm) throws Exception {
        MessageDigest d = MessageDigest.getInstance(algorithm);
        try (var in = Files.newInputStream(file)) {
            byte[] b = new byte[1 << 16];
            int n;
            while ((n = in.read(b)) > 0) {
                d.update(b, 0, n);
            }
        }
        return HexFormat.of().formatHex(d.digest());
    }

    /** Writes {@code size} pseudo-random bytes (deterministic per seed). */
    static Path randomFile(Path file, long size, long seed) throws IOException {
        Files.createDirectories(file.getParent());
        java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
        byte[] block = new byte[1 << 16];
        try (var out = Files.newOutputStream(file)) {
            long left = size;
            while (left > 0) {
                for (int i = 0; i < block.length; i += 8) {
                    long v = r.nextLong();
                    for (int j = 0; j < 8 && i + j < block.length; j++) {
                        block[i + j] = (byte) (v >>> (8 * j));
                    }
                }
                int n = (int) Math.min(left, block.length);
                out.write(block, 0, n);
                left -= n;
            }
        }
        return file;
    }

    static List<String> failedSupplements(Reply r) {
        List<String> out = new ArrayList<>(r.supplements());
        r.items().stream().filter(i -> i.resultCode() == ItemOutcome.FAILED).forEach(i -> out.add(i.supplement()));
        return out;
    }

    @Override
    public void close() {
        for (Agent a : agents.values()) {
            a.close();
        }
        qm.close();
    }
}
