package org.openmft.agent.transfer.queue;

import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

import jakarta.jms.BytesMessage;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

import org.openmft.agent.messaging.ProviderErrors;
import org.openmft.agent.messaging.Routing;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a received file becomes messages (file to message, at the destination agent): the item
 * is first written and verified like any file, into a spool file in the agent's own directory,
 * then split ({@link MessageSplitter}) and put on its queue, all of its messages in one
 * transaction: the queue holds all of them or none, never half a file.
 *
 * <p>Put once: the first message carries Artemis's duplicate id ({@code _AMQ_DUPL_ID}), made from the
 * transfer id and the item; Artemis ignores a whole transaction holding an id it has committed
 * before. So when the agent stops after the commit and before the item's result is durable, the
 * item is received again after the restart and its second put is dropped, and reported as done.
 * (IBM MQ has no duplicate detection: there a crash in that moment can put the file twice.)
 *
 * <p>Messages of a file that splits into several form a group as JMS maps MQ's: {@code JMSXGroupID}
 * (the same for all, derived from the transfer and the item), {@code JMSXGroupSeq} from 1, and IBM
 * MQ's {@code JMS_IBM_Last_Msg_In_Group} on the last. {@code -qmp true} puts IBM's
 * {@code usr.WMQFTE*} properties on the first message (JMS names without {@code usr.}).
 *
 * <p>Queues an agent uses itself ({@code SYSTEM.FTE.*}) and transmission queues
 * ({@code SYSTEM.CHANNEL.*}) are refused: a transfer that could put there could forge requests,
 * chunks or checkpoints with the agent's own authority.
 *
 * <p>Thread-safe: puts are serialised on one transacted session and its one producer, opened at the
 * first put and opened again after a failure (the DATA dispatcher is the one caller). Queues found to
 * exist, and their destinations, are remembered (asking Artemis costs a round trip, which a file of
 * 256 bytes would otherwise pay three times over beside its commit); a queue deleted later fails its put.
 */
public final class QueueWriter {
    private static final Logger log = LoggerFactory.getLogger(QueueWriter.class);
    /** Artemis's duplicate-detection property. */
    static final String DUPLICATE_ID = "_AMQ_DUPL_ID";
    /** IBM MQ's JMS name of MQGS_LAST_MSG_IN_GROUP. */
    public static final String LAST_IN_GROUP = "JMS_IBM_Last_Msg_In_Group";
    /** The most destinations remembered per session (each is a few names; they are looked up again after). */
    private static final int MAX_DESTINATIONS = 256;
    /** Marks a checkpoint's spooled queue item (before its spool file's path). */
    public static final String SPOOLED = "queue:";

    /** Opens a transacted session on the agent's connection. */
    @FunctionalInterface
    public interface SessionOpener {
        Session open() throws JMSException;
    }

    /** Whether a queue exists on the agent's queue manager. */
    @FunctionalInterface
    public interface QueueProbe {
        boolean exists(Session session, String queue) throws JMSException;
    }

    /** The item cannot be put: why, with IBM's message id. */
    public static final class QueueFailure extends Exception {
        private static final long serialVersionUID = 1L;

        QueueFailure(String reason) {
            super(reason, null, false, false);
        }
    }

    /** What the destination knows of the item, for the properties of {@code -qmp}. */
    public record PutInfo(String transferId, int item, String mode, String sourceAgent, String destinationAgent,
            String sourcePath, long sourceSize, String mqmdUser) {
    }

    /** What a put did: the messages it put, or 0 and {@code repeated} when all had been put before (dropped). */
    public record Put(int messages, boolean repeated) {
    }

    private final boolean enabled;
    private final int maxMessageBytes;
    private final int maxDelimiterMatchLength;
    private final Path spoolDirectory;
    private final SessionOpener sessions;
    private final QueueProbe probe;
    private final Routing routing;
    private final boolean duplicateDetection;
    private final java.util.Set<String> knownQueues = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** The transacted session of the puts; null until the first, and after a failure. */
    private Session session;
    /** The session's one producer, without a destination of its own (named at each send). */
    private MessageProducer producer;
    /**
     * The session's destinations by queue and queue manager: looking one up, and checking it at a
     * producer's creation, are round trips to Artemis, once per queue instead of once per file.
     */
    private final java.util.Map<String, Destination> destinations = new java.util.HashMap<>();

    /**
     * @param enabled                 {@code enableQueueInputOutput}
     * @param maxMessageBytes         {@code maxInputOutputMessageLength}
     * @param maxDelimiterMatchLength {@code maxDelimiterMatchLength}
     * @param spoolDirectory          where received files wait to be put (the agent's own, private)
     * @param duplicateDetection      whether the queue manager drops repeated transactions (Artemis)
     */
    public QueueWriter(boolean enabled, int maxMessageBytes, int maxDelimiterMatchLength, Path spoolDirectory,
            SessionOpener sessions, QueueProbe probe, Routing routing, boolean duplicateDetection) {
        this.enabled = enabled;
        this.maxMessageBytes = maxMessageBytes;
        this.maxDelimiterMatchLength = maxDelimiterMatchLength;
        this.spoolDirectory = spoolDirectory;
        this.sessions = sessions;
        this.probe = probe;
        this.routing = routing;
        this.duplicateDetection = duplicateDetection;
    }

    /** {@code enableQueueInputOutput}: whether this agent writes to queues at all. */
    public boolean enabled() {
        return enabled;
    }

    /** Where item {@code item} of a transfer is spooled before its put. */
    public Path spoolFile(String transferId, int item) throws java.io.IOException {
        Files.createDirectories(spoolDirectory);
        return spoolDirectory.resolve(transferId + "." + item + ".spool");
    }

    /**
     * Why a queue may not be written by a transfer, or null when it may.
     *
     * @param queue the queue's name
     */
    public static String refusal(String queue) {
        String q = queue.toUpperCase(Locale.ROOT);
        if (q.startsWith("SYSTEM.FTE.") || q.startsWith("SYSTEM.CHANNEL.") || q.equals("SYSTEM.FTE")) {
            return "BFGTR0076E: The queue " + queue + " is one the agents use themselves; a transfer may not put"
                    + " messages there, since they would be taken for the agents' own requests, chunks or state.";
        }
        return null;
    }

    /**
     * Splits the spooled file and puts its messages in one transaction.
     *
     * @throws QueueFailure when nothing was put: the queue is refused or unknown, a message would be
     *                      too long, or the queue manager refused the put
     */
    public synchronized Put put(Path spool, QueueOptions options, PutInfo info) throws QueueFailure {
        var d = options.destination();
        String refused = refusal(d.queue());
        if (refused != null) {
            throw new QueueFailure(refused);
        }
        Charset charset = charset(options.encoding());
        boolean text = "text".equals(info.mode());
        MessageSplitter splitter = new MessageSplitter(d, charset, maxMessageBytes, maxDelimiterMatchLength);
        int[] count = {0};
        boolean healthy = false;
        try {
            if (session == null) {
                session = sessions.open();
                producer = session.createProducer(null);
            }
            String local = routing.localQueueFor(d.queue(), d.qmgr());
            if (local != null && !knownQueues.contains(local) && !probe.exists(session, local)) {
                throw new QueueFailure(routing.isRemote(d.qmgr())
                        ? "BFGTR0074E: No channel leads to queue manager " + d.qmgr() + " for the destination queue "
                                + d.spec() + "."
                        : "BFGTR0074E: The destination queue " + d.queue() + " does not exist on queue manager "
                                + routing.localQMgr() + " (MQRC 2085).");
            }
            if (local != null) {
                knownQueues.add(local);
            }
            Destination destination = destination(d.queue(), d.qmgr());
            String group = groupId(info.transferId(), info.item());
            Session s = session;
            MessageProducer p = producer;
            // qdef: the queue's default; Artemis queues have none, and JMS's own default is persistent.
            int deliveryMode = "false".equals(d.persistence()) ? DeliveryMode.NON_PERSISTENT : DeliveryMode.PERSISTENT;
            try (InputStream in = Files.newInputStream(spool)) {
                splitter.split(in, Files.size(spool), (data, length, index, last) -> {
                    Message m;
                    if (text) {
                        m = s.createTextMessage(new String(data, 0, length, charset));
                    } else {
                        BytesMessage b = s.createBytesMessage();
                        b.writeBytes(data, 0, length);
                        m = b;
                    }
                    if (!(index == 0 && last)) {
                        m.setStringProperty("JMSXGroupID", group);
                        m.setIntProperty("JMSXGroupSeq", index + 1);
                        if (last) {
                            m.setBooleanProperty(LAST_IN_GROUP, true);
                        }
                    }
                    if (index == 0) {
                        if (d.setMqProps()) {
                            ibmProperties(m, info, options);
                        }
                        if (duplicateDetection) {
                            m.setStringProperty(DUPLICATE_ID, "openmft:" + info.transferId() + ":" + info.item());
                        }
                    }
                    routing.address(m, d.queue(), d.qmgr());
                    p.send(destination, m, deliveryMode, Message.DEFAULT_PRIORITY, Message.DEFAULT_TIME_TO_LIVE);
                    count[0]++;
                });
                session.commit();
            }
            healthy = true;
            return new Put(count[0], false);
        } catch (QueueFailure e) {
            healthy = rollback(session);
            throw e;
        } catch (MessageSplitter.TooLongException e) {
            healthy = rollback(session);
            throw new QueueFailure(e.getMessage());
        } catch (JMSException e) {
            rollback(session);
            if (duplicate(e)) {
                // Artemis refuses the whole transaction (at the send or the commit): all of it was put before.
                log.info("Transfer {}: item {} was put on {} before the restart; the repeat is dropped",
                        info.transferId(), info.item(), d.spec());
                return new Put(0, true);
            }
            throw new QueueFailure("BFGTR0075E: The messages for queue " + d.spec() + " were not put: "
                    + ProviderErrors.describe(e));
        } catch (Exception e) {
            rollback(session);
            throw new QueueFailure("BFGTR0075E: The messages for queue " + d.spec() + " were not put: " + e);
        } finally {
            if (!healthy) {
                // After a failure of the provider's the session is not trusted again.
                close();
            }
        }
    }

    /** The session's destination for {@code queue} on {@code qmgr}, looked up once per session. */
    private Destination destination(String queue, String qmgr) throws JMSException {
        String key = queue + "@" + qmgr;
        Destination destination = destinations.get(key);
        if (destination == null) {
            if (destinations.size() >= MAX_DESTINATIONS) {
                destinations.clear();
            }
            destination = routing.destination(session, queue, qmgr);
            destinations.put(key, destination);
        }
        return destination;
    }

    /** Closes the session of the puts (and its producer); the next put opens another. */
    public synchronized void close() {
        close(session);
        session = null;
        producer = null;
        destinations.clear();
    }

    private static boolean duplicate(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String name = t.getClass().getSimpleName();
            String message = String.valueOf(t.getMessage());
            if (name.contains("DuplicateId") || message.contains("Duplicate message detected")) {
                return true;
            }
        }
        return false;
    }

    private static void ibmProperties(Message m, PutInfo info, QueueOptions options) throws JMSException {
        m.setStringProperty("WMQFTETransferId", info.transferId());
        m.setStringProperty("WMQFTETransferMode", info.mode());
        m.setStringProperty("WMQFTESourceAgent", info.sourceAgent());
        m.setStringProperty("WMQFTEDestinationAgent", info.destinationAgent());
        m.setStringProperty("WMQFTEFileName", info.sourcePath());
        m.setLongProperty("WMQFTEFileSize", info.sourceSize());
        if (options.lastModifiedMillis() >= 0) {
            m.setLongProperty("WMQFTEFileLastModified", options.lastModifiedMillis());
        }
        m.setIntProperty("WMQFTEFileIndex", info.item());
        if (info.mqmdUser() != null) {
            m.setStringProperty("WMQFTEMqmdUser", info.mqmdUser());
        }
    }

    /** 24 bytes, as MQ's GroupId, in JMS's {@code ID:} hex form; the same for the same item. */
    static String groupId(String transferId, int item) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest((transferId + ":" + item)
                    .getBytes(StandardCharsets.UTF_8));
            return "ID:" + HexFormat.of().formatHex(h, 0, 24);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    private static Charset charset(String encoding) throws QueueFailure {
        if (encoding == null) {
            return StandardCharsets.UTF_8;
        }
        try {
            return org.openmft.agent.transfer.text.Encodings.forName(encoding);
        } catch (RuntimeException e) {
            throw new QueueFailure("BFGTR0077E: The encoding " + encoding + " of queue messages is not known: "
                    + e.getMessage());
        }
    }

    /** Rolls back; whether that worked (the session may be used again). */
    static boolean rollback(Session session) {
        if (session != null) {
            try {
                session.rollback();
                return true;
            } catch (JMSException e) {
                log.debug("Rollback: {}", e.getMessage());
            }
        }
        return false;
    }

    static void close(Session session) {
        if (session != null) {
            try {
                session.close();
            } catch (JMSException e) {
                log.debug("Closing a queue session: {}", e.getMessage());
            }
        }
    }
}
