package org.openmft.agent.transfer.queue;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

import org.openmft.agent.ResultCode;
import org.openmft.agent.messaging.ProviderErrors;
import org.openmft.agent.messaging.Routing;
import org.openmft.xml.QueueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a source queue becomes a file (message to file, at the source agent). The messages are
 * <em>browsed</em>, never taken, and written one after the other into a spool file in the agent's
 * own directory, with the delimiter ({@code -sqdt}/{@code -sqdb}) before ({@code prefix}) or after
 * ({@code postfix}, IBM's default) each; the spool is then sent like any file. Only when the
 * destination has confirmed the file are the messages removed ({@link #remove}), by their ids,
 * in local transactions: a failed or cancelled transfer, or an agent that stops meanwhile,
 * leaves every message on the queue (IBM has browsed and then removed since 9.1 too).
 *
 * <p>What is read: without {@code useGroups} every message on the queue its browse sees when it is
 * read (up to the limits below; on Artemis the browse reads paged messages from disk too, and the
 * removal commits whenever the queue holds the rest back, see {@link #remove}); with
 * {@code useGroups} ({@code -sqgi}) the
 * first complete group in queue order, where a group is complete when its last message is there
 * (IBM MQ's {@code JMS_IBM_Last_Msg_In_Group}, which OpenMFT's file to message puts, or Artemis's
 * {@code JMSXGroupSeq} of -1) and a message outside a group is a group of its own; with a
 * {@code groupId} (a queue monitor's {@code ${GroupId}}) that group only. {@code waitTime}
 * ({@code -sqwt}) is how long to wait for a message or a complete group; without it an empty queue
 * fails the transfer at once.
 *
 * <p>A producer cancels the transfer with a non-zero {@code usr.UserReturnCode} (JMS name
 * {@code UserReturnCode}) and optional {@code usr.UserSupplement} on the last message of a group
 * (or on a message outside a group): the transfer fails with both in its supplement, nothing
 * reaches the destination, and the messages stay on the queue for the producer to deal with.
 *
 * <p>Each message is read by one transfer: two transfers of the agent reading one queue at the same
 * time never write the same message. A transfer <em>claims</em> each message it writes into its
 * spool, and with groups the group, until it ends ({@link #discard}); another transfer's browse
 * passes over what is claimed, as IBM's second reader does not see the messages the first has got
 * under syncpoint. Claims are the agent's own (in memory, at most {@code maxMessages} per running
 * transfer): another agent reading the same queue is not kept out.
 *
 * <p>Bounded: one message in memory at a time (at most {@code maxInputOutputMessageLength}), at
 * most {@code maxMessages} messages and {@code maxBytes} bytes per transfer (a group that does not
 * fit fails the transfer; without groups the file ends at the limit).
 *
 * <p>Thread-safe: every call opens its own session on the agent's connection and closes it.
 */
public final class QueueReader {
    private static final Logger log = LoggerFactory.getLogger(QueueReader.class);
    /** Messages one message-to-file transfer reads at most, by default. */
    public static final int MAX_MESSAGES = 10_000;
    /** Bytes one message-to-file transfer reads at most, by default: 1 GiB. */
    public static final long MAX_BYTES = 1L << 30;
    /** How often an empty queue is looked at again while waiting ({@code -sqwt}). */
    private static final long POLL_MILLIS = 200;
    /** Ids removed by one consumer's selector. */
    private static final int REMOVE_BATCH = 200;
    /**
     * Messages and bytes removed per commit. Artemis stops reading a paged queue's messages from
     * disk while more than 20 MiB of them wait for acknowledgement (its max-read-page-bytes), so
     * one transaction for a big file would wait for messages that never come.
     */
    private static final int COMMIT_MESSAGES = 100;
    private static final long COMMIT_BYTES = 8L << 20;
    /**
     * How long a message to remove may take to come, with removals not yet committed, before they
     * are committed (a paged queue may hold the rest back until they are).
     */
    private static final long PENDING_WAIT_MILLIS = 200;
    /** How long a message to remove may take to come before it is taken as gone. */
    private static final long REMOVE_WAIT_MILLIS = 5_000;
    private static final String GROUP = "JMSXGroupID";
    private static final String SEQUENCE = "JMSXGroupSeq";

    /** Opens a session on the agent's connection (transacted or not). */
    @FunctionalInterface
    public interface SessionOpener {
        Session open(boolean transacted) throws JMSException;
    }

    /** The queue cannot be read into a file: why, with IBM's result code and message id. */
    public static final class QueueFailure extends Exception {
        private static final long serialVersionUID = 1L;
        private final transient ResultCode resultCode;

        QueueFailure(ResultCode resultCode, String reason) {
            super(reason, null, false, false);
            this.resultCode = resultCode;
        }

        /** The transfer's result code. */
        public ResultCode resultCode() {
            return resultCode;
        }
    }

    /**
     * What was read: the spool file to send, and which messages to remove once it is delivered.
     *
     * @param file       the spool file
     * @param bytes      its size
     * @param messageIds the JMS ids of the messages in it, in order
     * @param groupId    the group read ({@code -sqgi}), or null
     */
    public record Spooled(Path file, long bytes, List<String> messageIds, String groupId) {
    }

    private final boolean enabled;
    private final int maxMessageBytes;
    private final int maxMessages;
    private final long maxBytes;
    private final Path spoolDirectory;
    private final SessionOpener sessions;
    private final QueueWriter.QueueProbe probe;
    private final Routing routing;
    private final Clock clock;
    /** Claimed messages ({@code queue \n id}) and groups ({@code queue \n group: id}): the transfer that holds each. */
    private final ConcurrentHashMap<String, String> claims = new ConcurrentHashMap<>();

    /**
     * @param enabled         {@code enableQueueInputOutput}
     * @param maxMessageBytes {@code maxInputOutputMessageLength}
     * @param maxMessages     messages per transfer ({@link #MAX_MESSAGES})
     * @param maxBytes        bytes per transfer ({@link #MAX_BYTES})
     * @param spoolDirectory  where the files wait to be sent (the agent's own, private)
     */
    public QueueReader(boolean enabled, int maxMessageBytes, int maxMessages, long maxBytes, Path spoolDirectory,
            SessionOpener sessions, QueueWriter.QueueProbe probe, Routing routing, Clock clock) {
        this.enabled = enabled;
        this.maxMessageBytes = maxMessageBytes;
        this.maxMessages = maxMessages;
        this.maxBytes = maxBytes;
        this.spoolDirectory = spoolDirectory;
        this.sessions = sessions;
        this.probe = probe;
        this.routing = routing;
        this.clock = clock;
    }

    /** {@code enableQueueInputOutput}: whether this agent reads queues at all. */
    public boolean enabled() {
        return enabled;
    }

    /**
     * Reads the queue into the item's spool file, or finds the spool an earlier run of the agent
     * finished for it (so that a resumed transfer sends the same bytes again).
     *
     * @param charset   what the text of text messages and delimiters is written in
     * @param cancelled asked while waiting
     * @throws QueueFailure when there is nothing to send: nothing arrived in time (40), the agent does
     *                      not read queues (59), a producer cancelled, the queue is refused or unknown
     */
    public Spooled read(String transferId, int item, QueueSource source, Charset charset, BooleanSupplier cancelled)
            throws QueueFailure, InterruptedException {
        if (!enabled) {
            throw new QueueFailure(ResultCode.NO_MESSAGE_TO_FILE, "BFGTR0071E: The source agent does not read"
                    + " messages from queues: its enableQueueInputOutput property is not true.");
        }
        String refused = QueueWriter.refusal(source.queue());
        if (refused != null) {
            throw new QueueFailure(ResultCode.FAILED, refused.replace("put messages there", "read messages there"));
        }
        if (routing.isRemote(source.qmgr())) {
            throw new QueueFailure(ResultCode.FAILED, "BFGTR0074E: The source queue " + source.spec() + " is not on"
                    + " queue manager " + routing.localQMgr() + ": a source agent reads its own queue manager's"
                    + " queues only.");
        }
        Path spool = spoolDirectory.resolve(transferId + "." + item + ".m2f");
        Path ids = spoolDirectory.resolve(transferId + "." + item + ".m2f.ids");
        try {
            Spooled earlier = earlier(spool, ids);
            if (earlier != null) {
                for (String id : earlier.messageIds()) {
                    claims.put(key(source.queue(), id), transferId);
                }
                log.info("Transfer {}: item {} sends the messages of {} read before the restart ({} messages)",
                        transferId, item, source.spec(), earlier.messageIds().size());
                return earlier;
            }
        } catch (IOException e) {
            log.warn("Transfer {}: the spool of item {} from before the restart is unreadable ({}); reading {} again",
                    transferId, item, e.getMessage(), source.spec());
        }
        Charset cs = charset == null ? StandardCharsets.UTF_8 : charset;
        Session session = null;
        try {
            session = sessions.open(false);
            if (!probe.exists(session, source.queue())) {
                throw new QueueFailure(ResultCode.FAILED, "BFGTR0074E: The source queue " + source.queue()
                        + " does not exist on queue manager " + routing.localQMgr() + " (MQRC 2085).");
            }
            jakarta.jms.Queue queue = session.createQueue(source.queue());
            long waitMillis = Math.max(0, source.waitTimeSeconds()) * 1000L;
            long deadline = clock.millis() + waitMillis;
            Selection selection;
            while ((selection = select(session, queue, source, transferId)) == null) {
                long left = deadline - clock.millis();
                if (left <= 0) {
                    throw new QueueFailure(ResultCode.FAILED, "BFGTR0072E: The transfer failed: "
                            + (source.useGroups() || source.groupId() != null ? "no complete group" : "no message")
                            + " on queue " + source.spec() + (source.waitTimeSeconds() > 0 ? " within the wait time of "
                                    + source.waitTimeSeconds() + " seconds (-sqwt)" : " (no wait time, -sqwt, given)")
                            + "; nothing was written.");
                }
                if (cancelled.getAsBoolean()) {
                    throw new QueueFailure(ResultCode.CANCELLED, "BFGTR0079I: The transfer was cancelled while it"
                            + " waited for messages on " + source.spec() + ".");
                }
                Thread.sleep(Math.min(POLL_MILLIS, left));
            }
            Files.createDirectories(spoolDirectory);
            Spooled s = write(session, queue, source, selection, spool, cs, transferId);
            // The ids name the messages to remove: written last, atomically, so that one found after
            // a restart stands for a complete spool.
            Path tmp = ids.resolveSibling(ids.getFileName() + ".tmp");
            List<String> lines = new ArrayList<>();
            lines.add("group=" + (s.groupId() == null ? "" : s.groupId()));
            lines.addAll(s.messageIds());
            Files.write(tmp, lines, StandardCharsets.UTF_8);
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                ch.force(true);
            }
            try {
                Files.move(tmp, ids, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, ids, StandardCopyOption.REPLACE_EXISTING);
            }
            log.info("Transfer {}: item {} read {} messages ({} bytes) from {}{}; they stay there until the"
                    + " destination has the file", transferId, item, s.messageIds().size(), s.bytes(), source.spec(),
                    s.groupId() == null ? "" : " (group " + s.groupId() + ")");
            return s;
        } catch (JMSException e) {
            discard(transferId);
            throw new QueueFailure(ResultCode.FAILED, "BFGTR0072E: The transfer failed: queue " + source.spec()
                    + " could not be read: " + ProviderErrors.describe(e));
        } catch (IOException e) {
            discard(transferId);
            throw new QueueFailure(ResultCode.FAILED, "BFGTR0072E: The transfer failed: the messages of queue "
                    + source.spec() + " could not be spooled: " + e.getMessage());
        } catch (QueueFailure e) {
            discard(transferId);
            throw e;
        } finally {
            QueueWriter.close(session);
        }
    }

    /**
     * Removes the messages of a delivered file from their queue, in local transactions of at most
     * {@link #COMMIT_MESSAGES} messages or {@link #COMMIT_BYTES} bytes, and sooner when no message
     * comes for {@link #PENDING_WAIT_MILLIS} (Artemis reads a paged queue's messages from disk only
     * while fewer than its max-read-page-bytes wait for acknowledgement). A failure part way leaves the
     * rest on the queue (they are read again by a later transfer: at least once, never lost).
     *
     * @return how many were removed; fewer than spooled when someone else took some meanwhile
     * @throws QueueFailure when the removal failed (the uncommitted part rolled back)
     */
    public int remove(String queue, Spooled spooled) throws QueueFailure {
        Session session = null;
        int removed = 0;
        int pendingMessages = 0;
        long pendingBytes = 0;
        try {
            session = sessions.open(true);
            jakarta.jms.Queue q = session.createQueue(queue);
            List<String> ids = spooled.messageIds();
            for (int from = 0; from < ids.size(); from += REMOVE_BATCH) {
                List<String> batch = ids.subList(from, Math.min(ids.size(), from + REMOVE_BATCH));
                Set<String> left = new HashSet<>(batch);
                StringBuilder selector = new StringBuilder("JMSMessageID IN (");
                for (int i = 0; i < batch.size(); i++) {
                    selector.append(i == 0 ? "'" : ",'").append(batch.get(i)).append('\'');
                }
                selector.append(')');
                try (MessageConsumer consumer = session.createConsumer(q, selector.toString())) {
                    while (!left.isEmpty()) {
                        Message m = consumer.receive(pendingMessages > 0 ? PENDING_WAIT_MILLIS : REMOVE_WAIT_MILLIS);
                        if (m == null && pendingMessages > 0) {
                            // A paged queue is read from disk only while what waits for acknowledgement
                            // stays below the address's max-read-page-bytes (and -messages), which may be
                            // lower than a commit's share: commit, and look again.
                            session.commit();
                            pendingMessages = 0;
                            pendingBytes = 0;
                            continue;
                        }
                        if (m == null) {
                            break; // taken by someone else meanwhile
                        }
                        if (left.remove(m.getJMSMessageID())) {
                            removed++;
                        }
                        pendingMessages++;
                        pendingBytes += size(m);
                        if (pendingMessages >= COMMIT_MESSAGES || pendingBytes >= COMMIT_BYTES) {
                            session.commit();
                            pendingMessages = 0;
                            pendingBytes = 0;
                        }
                    }
                }
                if (!left.isEmpty()) {
                    log.warn("{} of the messages written to the file were no longer on queue {} to be removed",
                            left.size(), queue);
                }
            }
            session.commit();
            return removed;
        } catch (JMSException e) {
            QueueWriter.rollback(session);
            throw new QueueFailure(ResultCode.FAILED, "BFGTR0075W: The file was delivered but its messages could not"
                    + " be removed from queue " + queue + ": " + ProviderErrors.describe(e));
        } finally {
            QueueWriter.close(session);
        }
    }

    /** Roughly what a message weighs in the queue manager's memory: its body. */
    private static long size(Message m) throws JMSException {
        if (m instanceof BytesMessage b) {
            return b.getBodyLength();
        }
        if (m instanceof TextMessage t && t.getText() != null) {
            return 2L * t.getText().length();
        }
        return 0;
    }

    /**
     * Deletes a transfer's spool files (once it has ended, whatever its outcome) and gives up its
     * claims: messages it did not remove may be read by the next transfer.
     */
    public void discard(String transferId) {
        claims.values().removeIf(transferId::equals);
        if (!Files.isDirectory(spoolDirectory)) {
            return;
        }
        try (Stream<Path> files = Files.list(spoolDirectory)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                String name = p.getFileName().toString();
                if (name.startsWith(transferId + ".") && name.contains(".m2f")) {
                    Files.deleteIfExists(p);
                }
            }
        } catch (IOException e) {
            log.warn("Transfer {}: its message-to-file spool could not be deleted: {}", transferId, e.getMessage());
        }
    }

    /** The messages to write: a selector (null: all of them), and whether a group is complete in them. */
    private record Selection(String selector, String groupId) {
    }

    /** What is there to read now, or null when nothing (or no complete group) is. */
    private Selection select(Session session, jakarta.jms.Queue queue, QueueSource source, String transferId)
            throws JMSException {
        String name = source.queue();
        if (source.groupId() != null) {
            String selector = GROUP + " = '" + source.groupId() + "'";
            try (QueueBrowser b = session.createBrowser(queue, selector)) {
                Enumeration<?> e = b.getEnumeration();
                int seen = 0;
                while (e.hasMoreElements() && seen++ <= maxMessages) {
                    if (lastInGroup((Message) e.nextElement())) {
                        return claim(name, "group:" + source.groupId(), transferId)
                                ? new Selection(selector, source.groupId()) : null;
                    }
                }
            }
            return null;
        }
        try (QueueBrowser b = session.createBrowser(queue)) {
            Enumeration<?> e = b.getEnumeration();
            if (!source.useGroups()) {
                int seen = 0;
                while (e.hasMoreElements() && seen++ <= maxMessages) {
                    if (!claimedByAnother(name, ((Message) e.nextElement()).getJMSMessageID(), transferId)) {
                        return new Selection(null, null);
                    }
                }
                return null;
            }
            // The first group, in the order groups begin, whose last message is there.
            Map<String, Boolean> complete = new LinkedHashMap<>();
            Set<String> taken = new HashSet<>();
            int seen = 0;
            while (e.hasMoreElements() && seen++ <= maxMessages) {
                Message m = (Message) e.nextElement();
                String group = m.getStringProperty(GROUP);
                if (claimedByAnother(name, m.getJMSMessageID(), transferId)) {
                    taken.add(group == null || group.isEmpty() ? "id:" + m.getJMSMessageID() : group);
                    continue; // another transfer has it, or a message of its group
                }
                if (group == null || group.isEmpty()) {
                    complete.putIfAbsent("id:" + m.getJMSMessageID(), true);
                } else {
                    complete.putIfAbsent(group, false);
                    if (lastInGroup(m)) {
                        complete.put(group, true);
                    }
                }
            }
            for (Map.Entry<String, Boolean> g : complete.entrySet()) {
                String claimed = g.getKey().startsWith("id:") ? g.getKey().substring(3) : "group:" + g.getKey();
                if (g.getValue() && !taken.contains(g.getKey()) && claim(name, claimed, transferId)) {
                    String key = g.getKey();
                    return key.startsWith("id:") ? new Selection("JMSMessageID = '" + key.substring(3) + "'", null)
                            : new Selection(GROUP + " = '" + key.replace("'", "''") + "'", key);
                }
            }
            return null;
        }
    }

    private Spooled write(Session session, jakarta.jms.Queue queue, QueueSource source, Selection selection,
            Path spool, Charset charset, String transferId) throws JMSException, IOException, QueueFailure {
        byte[] delimiter = source.delimiterBytes(charset);
        boolean prefix = "prefix".equals(source.delimiterPosition());
        boolean group = selection.groupId() != null || source.useGroups();
        List<String> ids = new ArrayList<>();
        long bytes = 0;
        boolean ended = false;
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(spool), 64 * 1024);
                QueueBrowser b = selection.selector() == null ? session.createBrowser(queue)
                        : session.createBrowser(queue, selection.selector())) {
            Enumeration<?> e = b.getEnumeration();
            while (e.hasMoreElements() && !ended) {
                Message m = (Message) e.nextElement();
                if (!claim(source.queue(), m.getJMSMessageID(), transferId)) {
                    if (group) {
                        throw new QueueFailure(ResultCode.FAILED, "BFGTR0072E: The transfer failed: another transfer"
                                + " reads messages of the group on " + source.spec() + "; nothing was written.");
                    }
                    continue; // another transfer of this agent writes it
                }
                byte[] body = body(m, charset, source);
                long grows = body.length + (delimiter == null ? 0 : delimiter.length);
                if (ids.size() == maxMessages || bytes + grows > maxBytes) {
                    if (group) {
                        throw new QueueFailure(ResultCode.FAILED, "BFGTR0072E: The transfer failed: the group on "
                                + source.spec() + " has more than " + maxMessages + " messages or " + maxBytes
                                + " bytes, the most one message-to-file transfer reads.");
                    }
                    log.info("Queue {}: the file ends at {} messages ({} bytes), the most one transfer reads; the rest"
                            + " stays for the next transfer", source.spec(), ids.size(), bytes);
                    break;
                }
                ended = group && lastInGroup(m);
                producerCancel(m, source, lastInGroup(m));
                if (delimiter != null && prefix) {
                    out.write(delimiter);
                }
                out.write(body);
                if (delimiter != null && !prefix) {
                    out.write(delimiter);
                }
                bytes += grows;
                ids.add(m.getJMSMessageID());
            }
            if (group && !ended) {
                throw new QueueFailure(ResultCode.FAILED, "BFGTR0072E: The transfer failed: the group on "
                        + source.spec() + " lost messages while it was read; nothing was written.");
            }
            if (ids.isEmpty()) {
                throw new QueueFailure(ResultCode.FAILED, "BFGTR0072E: The transfer failed: no message on queue "
                        + source.spec() + "; nothing was written.");
            }
        }
        try (FileChannel ch = FileChannel.open(spool, StandardOpenOption.WRITE)) {
            ch.force(true);
        }
        return new Spooled(spool, Files.size(spool), List.copyOf(ids), selection.groupId());
    }

    /** The message's data: a text message's text in {@code charset}, a bytes message's bytes. */
    private byte[] body(Message m, Charset charset, QueueSource source) throws JMSException, QueueFailure {
        if (m instanceof BytesMessage b) {
            long length = b.getBodyLength();
            if (length > maxMessageBytes) {
                throw tooLong(source, length);
            }
            byte[] data = new byte[(int) length];
            b.readBytes(data);
            return data;
        }
        if (m instanceof TextMessage t) {
            String text = t.getText();
            byte[] data = text == null ? new byte[0] : text.getBytes(charset);
            if (data.length > maxMessageBytes) {
                throw tooLong(source, data.length);
            }
            return data;
        }
        throw new QueueFailure(ResultCode.FAILED, "BFGTR0072E: The transfer failed: message " + m.getJMSMessageID()
                + " on " + source.spec() + " is neither a bytes nor a text message; nothing was written.");
    }

    private QueueFailure tooLong(QueueSource source, long length) {
        return new QueueFailure(ResultCode.FAILED, "BFGTR0072E: The transfer failed: a message of " + length
                + " bytes on " + source.spec() + " is longer than maxInputOutputMessageLength (" + maxMessageBytes
                + " bytes); nothing was written.");
    }

    /** A non-zero {@code usr.UserReturnCode} on the last message of a group: the producer cancels. */
    private static void producerCancel(Message m, QueueSource source, boolean last) throws JMSException,
            QueueFailure {
        if (!last || !m.propertyExists("UserReturnCode")) {
            return;
        }
        String code = String.valueOf(m.getObjectProperty("UserReturnCode")).strip();
        if (code.equals("0")) {
            return;
        }
        String supplement = m.propertyExists("UserSupplement") ? m.getStringProperty("UserSupplement") : null;
        throw new QueueFailure(ResultCode.FAILED, "BFGTR0072E: The transfer was cancelled by the application that put"
                + " the messages on " + source.spec() + ": usr.UserReturnCode=" + code
                + (supplement == null ? "" : ", usr.UserSupplement=" + supplement)
                + "; nothing was written and the messages stay on the queue.");
    }

    private static String key(String queue, String id) {
        return queue + "\n" + id;
    }

    /** Claims a message (or {@code group:} a group) of {@code queue} for the transfer: false when another holds it. */
    private boolean claim(String queue, String id, String transferId) {
        String holder = claims.putIfAbsent(key(queue, id), transferId);
        return holder == null || holder.equals(transferId);
    }

    private boolean claimedByAnother(String queue, String id, String transferId) {
        String holder = claims.get(key(queue, id));
        return holder != null && !holder.equals(transferId);
    }

    /** IBM MQ's last-in-group flag, or Artemis's closing sequence number (-1). */
    private static boolean lastInGroup(Message m) throws JMSException {
        if (m.propertyExists(QueueWriter.LAST_IN_GROUP) && m.getBooleanProperty(QueueWriter.LAST_IN_GROUP)) {
            return true;
        }
        String group = m.getStringProperty(GROUP);
        if (group == null || group.isEmpty()) {
            return true;
        }
        return m.propertyExists(SEQUENCE) && m.getIntProperty(SEQUENCE) < 0;
    }

    /** A spool an earlier run finished (its ids written), or null. */
    private static Spooled earlier(Path spool, Path ids) throws IOException {
        if (!Files.exists(ids) || !Files.exists(spool)) {
            return null;
        }
        List<String> lines = Files.readAllLines(ids, StandardCharsets.UTF_8);
        if (lines.isEmpty() || !lines.get(0).startsWith("group=")) {
            throw new IOException(ids + " is not a list of message ids");
        }
        String group = lines.get(0).substring("group=".length());
        return new Spooled(spool, Files.size(spool), List.copyOf(lines.subList(1, lines.size())),
                group.isEmpty() ? null : group);
    }
}
