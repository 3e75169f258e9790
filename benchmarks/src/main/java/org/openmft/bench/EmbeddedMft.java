package org.openmft.bench;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import javax.jms.Connection;
import javax.jms.JMSException;
import javax.jms.Message;
import javax.jms.MessageConsumer;
import javax.jms.MessageProducer;
import javax.jms.Session;
import javax.jms.TemporaryQueue;
import javax.jms.TextMessage;

import org.openmft.agent.Agent;
import org.openmft.agent.AgentListener;
import org.openmft.agent.config.AgentConfig;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.EmbeddedQueueManager;
import org.openmft.agent.qmgr.QueueManagerSettings;
import org.openmft.xml.AgentRef;
import org.openmft.xml.ChecksumMethod;
import org.openmft.xml.DestinationType;
import org.openmft.xml.Disposition;
import org.openmft.xml.DocumentWriter;
import org.openmft.xml.ExistAction;
import org.openmft.xml.ItemDestination;
import org.openmft.xml.ItemSource;
import org.openmft.xml.MalformedRequestException;
import org.openmft.xml.Mode;
import org.openmft.xml.Originator;
import org.openmft.xml.Reply;
import org.openmft.xml.ReplyTo;
import org.openmft.xml.RequestParser;
import org.openmft.xml.TransferItem;
import org.openmft.xml.TransferRequest;
import org.openmft.xml.TransferSet;

/**
 * One embedded queue manager in this JVM with two pairs of agents: SRCB and DSTB connected in
 * bindings mode (in-VM), SRCC and DSTC in client mode (TCP on loopback). Transfers are requested as
 * any MQ application would: the request XML as a text message on the source agent's COMMAND queue,
 * with a temporary reply queue that receives the acknowledgement and then the final reply.
 */
final class EmbeddedMft implements AutoCloseable {
    static final String QMGR = "QMBENCH";
    private static final Originator ORIGINATOR = new Originator("localhost", "benchmark", null);

    private final EmbeddedQueueManager qm;
    private final int port;
    private final Path root;
    private final List<Agent> agents = new ArrayList<>();
    private final Map<ConnectionMode, QueueManagerConnector> connectors = new EnumMap<>(ConnectionMode.class);
    private final Map<ConnectionMode, Requester> requesters = new EnumMap<>(ConnectionMode.class);
    private final Map<String, AtomicInteger> resends = new ConcurrentHashMap<>();
    private final RequestParser parser = new RequestParser();
    private final DocumentWriter writer = new DocumentWriter();

    private final AgentListener listener = new AgentListener() {
        @Override
        public void resending(String agent, String transferId, long fromSeq, String reason) {
            resends.computeIfAbsent(transferId, k -> new AtomicInteger()).incrementAndGet();
        }
    };

    /** The outcome of one requested transfer. */
    record Result(Reply reply, int resends, String failure) {
    }

    private EmbeddedMft(Path root) throws Exception {
        this.root = root;
        this.port = freePort();
        this.qm = EmbeddedQueueManager.start(new QueueManagerSettings(QMGR, root.resolve("qm"), "127.0.0.1", port));
    }

    /**
     * Starts the queue manager under {@code root} and both agent pairs.
     *
     * @param agentProperties extra agent.properties values for all four agents (agentChunkSize, ...)
     * @param transferRoot    the agents' transferRoot
     */
    static EmbeddedMft start(Path root, Map<String, String> agentProperties, Path transferRoot) throws Exception {
        EmbeddedMft mft = new EmbeddedMft(root);
        try {
            for (ConnectionMode mode : ConnectionMode.values()) {
                QueueManagerConnector c = mft.startAgent(sourceAgent(mode), mode, agentProperties, transferRoot);
                mft.startAgent(destinationAgent(mode), mode, agentProperties, transferRoot);
                mft.connectors.put(mode, c);
                mft.requesters.put(mode, mft.new Requester(c));
            }
            return mft;
        } catch (Exception e) {
            mft.close();
            throw e;
        }
    }

    static String sourceAgent(ConnectionMode mode) {
        return mode == ConnectionMode.BINDINGS ? "SRCB" : "SRCC";
    }

    static String destinationAgent(ConnectionMode mode) {
        return mode == ConnectionMode.BINDINGS ? "DSTB" : "DSTC";
    }

    private QueueManagerConnector startAgent(String name, ConnectionMode mode, Map<String, String> extra,
            Path transferRoot) throws Exception {
        Map<String, String> raw = new HashMap<>(Map.of("agentName", name, "agentQMgr", QMGR,
                "agentQMgrPort", String.valueOf(port), "immediateShutdownTimeout", "5",
                "transferRoot", transferRoot.toString()));
        if (mode == ConnectionMode.CLIENT) {
            raw.put("agentQMgrHost", "127.0.0.1");
        }
        raw.putAll(extra);
        AgentConfig config = AgentConfig.from(raw, Map.of());
        QueueManagerConnector connector = QueueManagerConnector.forAgent(config.endpoint(), null);
        Agent agent = new Agent(config, connector, listener, root.resolve("state").resolve(name));
        agents.add(agent);
        agent.start();
        return connector;
    }

    /** The connector the agents of {@code mode} use: the raw JMS ceiling goes through the same one. */
    QueueManagerConnector connector(ConnectionMode mode) {
        return connectors.get(mode);
    }

    /** A binary item from {@code source} to the file {@code destination}. */
    static TransferItem binaryItem(Path source, Path destination, ChecksumMethod checksum) {
        return new TransferItem(Mode.BINARY, checksum,
                new ItemSource(false, Disposition.LEAVE, source.toString(), null),
                new ItemDestination(DestinationType.FILE, ExistAction.ERROR, destination.toString(), null, null));
    }

    /**
     * Requests one transfer of {@code items} between the agents of {@code mode} and waits for its
     * final reply. The caller times this call.
     */
    Result transfer(ConnectionMode mode, List<TransferItem> items, long timeoutMillis) throws Exception {
        Requester r = requesters.get(mode);
        // As with IBM MFT, the final reply goes only to a requester whose request has a <reply>
        // element; the JMSReplyTo (the same temporary queue) says where it goes.
        TransferRequest request = new TransferRequest("6.00", ORIGINATOR, new AgentRef(sourceAgent(mode), QMGR),
                new AgentRef(destinationAgent(mode), QMGR), new ReplyTo(r.replyQueueName(), QMGR, false),
                new TransferSet(0, null, Map.of(), items), null);
        Reply ack = r.send("SYSTEM.FTE.COMMAND." + sourceAgent(mode), writer.write(request), 30_000);
        if (ack == null) {
            return new Result(null, 0, "no acknowledgement within 30 s");
        }
        if (ack.resultCode() != 0) {
            return new Result(ack, 0, "request refused with result " + ack.resultCode() + ": " + ack.supplements());
        }
        Reply done = r.next(timeoutMillis);
        if (done == null) {
            return new Result(null, 0, "no final reply within " + timeoutMillis / 1000 + " s (transfer "
                    + ack.requestId() + ")");
        }
        AtomicInteger n = resends.get(ack.requestId());
        int resent = n == null ? 0 : n.get();
        if (done.resultCode() != 0) {
            return new Result(done, resent, "transfer ended with result " + done.resultCode() + ": "
                    + done.supplements() + " " + done.items());
        }
        return new Result(done, resent, null);
    }

    @Override
    public void close() {
        for (Requester r : requesters.values()) {
            r.close();
        }
        for (Agent a : agents) {
            a.close();
        }
        qm.close();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** A requester's connection, opened once so that no transfer's time includes connecting. */
    private final class Requester {
        private final Connection connection;
        private final Session session;
        private final TemporaryQueue replies;
        private final MessageConsumer consumer;

        Requester(QueueManagerConnector connector) throws Exception {
            this.connection = connector.connect();
            this.session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            this.replies = session.createTemporaryQueue();
            this.consumer = session.createConsumer(replies);
            connection.start();
        }

        String replyQueueName() throws JMSException {
            return replies.getQueueName();
        }

        /** Puts {@code xml} on {@code queue} and returns the first reply, or null on time-out. */
        Reply send(String queue, String xml, long timeoutMillis) throws JMSException, MalformedRequestException {
            TextMessage m = session.createTextMessage(xml);
            m.setJMSReplyTo(replies);
            try (MessageProducer p = session.createProducer(session.createQueue(queue))) {
                p.send(m);
            }
            return next(timeoutMillis);
        }

        Reply next(long timeoutMillis) throws JMSException, MalformedRequestException {
            Message m = consumer.receive(timeoutMillis);
            return m == null ? null : parser.parseReply(((TextMessage) m).getText());
        }

        void close() {
            try {
                connection.close();
            } catch (JMSException e) {
                // Closing at the end of the run: nothing to do about it.
            }
        }
    }
}
