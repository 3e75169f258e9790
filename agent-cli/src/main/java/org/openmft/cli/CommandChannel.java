package org.openmft.cli;

import java.net.InetAddress;
import java.time.Duration;
import java.util.Optional;

import javax.jms.Connection;
import javax.jms.JMSException;
import javax.jms.Message;
import javax.jms.MessageConsumer;
import javax.jms.MessageProducer;
import javax.jms.Session;
import javax.jms.TemporaryQueue;
import javax.jms.TextMessage;

import org.openmft.agent.config.CommandConfig;
import org.openmft.agent.config.DataDirectory;
import org.openmft.agent.messaging.ProviderErrors;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.xml.CommandDocument;
import org.openmft.xml.DocumentWriter;
import org.openmft.xml.MalformedRequestException;
import org.openmft.xml.Originator;
import org.openmft.xml.Reply;
import org.openmft.xml.RequestParser;

/**
 * A command's connection to its command queue manager ({@code command.properties}), as IBM MFT's
 * commands have: requests go to an agent's COMMAND queue, replies come back on a temporary queue
 * (IBM's {@code WMQFTE.*} dynamic queue). Requests carry a time-to-live equal to the wait, so a
 * request to an agent that is not running does not act later when it starts.
 */
final class CommandChannel implements AutoCloseable {
    private final Connection connection;
    private final Session session;
    private final TemporaryQueue replies;
    private final String qmgrName;
    private final QueueManagerConnector connector;
    private final DocumentWriter writer = new DocumentWriter();
    private final RequestParser parser = new RequestParser();

    private CommandChannel(Connection connection, Session session, TemporaryQueue replies, String qmgrName,
            QueueManagerConnector connector) {
        this.connector = connector;
        this.connection = connection;
        this.session = session;
        this.replies = replies;
        this.qmgrName = qmgrName;
    }

    /** Connects to the command queue manager of the configuration options {@code coordination}. */
    static CommandChannel open(DataDirectory dd, String coordination) throws Exception {
        java.nio.file.Path file = dd.commandProperties(coordination);
        if (!java.nio.file.Files.exists(file)) {
            throw new CommandFailure(ExitCodes.CONFIGURATION, "no command configuration " + file
                    + ": run 'mft setup commands -connectionQMgr <QMGR>' first");
        }
        CommandConfig config = CommandConfig.load(file, System.getenv());
        QueueManagerConnector connector = QueueManagerConnector.forCommand(config.endpoint(),
                dd.qmgrsDir(), null);
        Connection connection = connector.connect();
        try {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            TemporaryQueue replies = session.createTemporaryQueue();
            connection.start();
            return new CommandChannel(connection, session, replies, config.endpoint().qmgrName(), connector);
        } catch (JMSException e) {
            connection.close();
            throw new CommandFailure(ExitCodes.QMGR_UNAVAILABLE, "cannot use " + connector.description() + ": "
                    + ProviderErrors.describe(e), e);
        }
    }

    /** The command queue manager's name. */
    String qmgrName() {
        return qmgrName;
    }

    /** The name of the temporary reply queue, for a document's {@code <reply>} element. */
    String replyQueueName() throws JMSException {
        return replies.getQueueName();
    }

    /**
     * Puts a request on {@code queue} and waits for the first reply correlated to it.
     *
     * @return the reply, or empty when none arrived within {@code wait}
     */
    Optional<Reply> request(String queue, CommandDocument document, Duration wait) throws Exception {
        try {
            if (!connector.queueExists(session, queue)) {
                throw new javax.jms.InvalidDestinationException(queue);
            }
            return requestOrFail(queue, document, wait);
        } catch (javax.jms.InvalidDestinationException e) {
            throw new CommandFailure(ExitCodes.FAILED, "BFGCL0014E: queue " + queue + " does not exist on queue"
                    + " manager " + qmgrName + ": is the agent name right, and was the agent created there?", e);
        }
    }

    private Optional<Reply> requestOrFail(String queue, CommandDocument document, Duration wait) throws Exception {
        TextMessage m = session.createTextMessage(writer.write(document));
        m.setJMSReplyTo(replies);
        try (MessageProducer producer = session.createProducer(session.createQueue(queue));
                MessageConsumer consumer = session.createConsumer(replies)) {
            producer.setTimeToLive(Math.max(1000, wait.toMillis()));
            producer.send(m);
            String requestId = m.getJMSMessageID();
            Optional<Message> r = next(consumer, wait,
                    msg -> requestId == null || requestId.equals(msg.getJMSCorrelationID()));
            if (r.isEmpty()) {
                return Optional.empty();
            }
            try {
                return Optional.of(parser.parseReply(text(r.get())));
            } catch (MalformedRequestException e) {
                throw new CommandFailure(ExitCodes.FAILED, "the agent's reply could not be read: " + e.getMessage());
            }
        }
    }

    /** Decides whether a received message is the one waited for. */
    @FunctionalInterface
    private interface Wanted {
        boolean test(Message m) throws JMSException;
    }

    /** The first message within {@code wait} that {@code wanted} takes; others are skipped. */
    private static Optional<Message> next(MessageConsumer consumer, Duration wait, Wanted wanted)
            throws JMSException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            long left = (deadline - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                return Optional.empty();
            }
            Message r = consumer.receive(left);
            if (r == null) {
                return Optional.empty();
            }
            if (wanted.test(r)) {
                return Optional.of(r);
            }
        }
    }

    private static String text(Message m) throws JMSException {
        String text = m instanceof TextMessage t ? t.getText() : null;
        return text == null ? "" : text;
    }

    /**
     * Waits for a later reply about {@code requestId} (a transfer's outcome), skipping others.
     *
     * @return the reply, or empty when none arrived within {@code wait}
     */
    Optional<Reply> awaitReply(String requestId, Duration wait) throws Exception {
        try (MessageConsumer consumer = session.createConsumer(replies)) {
            Reply[] found = new Reply[1];
            next(consumer, wait, msg -> {
                try {
                    Reply reply = parser.parseReply(text(msg));
                    if (requestId.equals(reply.requestId())) {
                        found[0] = reply;
                        return true;
                    }
                } catch (MalformedRequestException e) {
                    // Not a reply document: keep waiting for ours.
                }
                return false;
            });
            return Optional.ofNullable(found[0]);
        }
    }

    /** The originator block IBM's commands fill in: this host and the OS user. */
    static Originator originator() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            host = System.getenv().getOrDefault("HOSTNAME", "localhost");
        }
        return new Originator(host, System.getProperty("user.name"), null);
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (JMSException e) {
            // Nothing to do: the command is ending.
        }
    }
}
