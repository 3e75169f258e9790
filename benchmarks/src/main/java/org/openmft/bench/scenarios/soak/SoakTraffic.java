package org.openmft.bench.scenarios.soak;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TextMessage;

import org.openmft.agent.config.QueueNames;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.QueueManagerException;
import org.openmft.xml.AgentRef;
import org.openmft.xml.ChecksumMethod;
import org.openmft.xml.DestinationType;
import org.openmft.xml.Disposition;
import org.openmft.xml.DocumentWriter;
import org.openmft.xml.ExistAction;
import org.openmft.xml.ItemDestination;
import org.openmft.xml.ItemResult;
import org.openmft.xml.ItemSource;
import org.openmft.xml.MalformedRequestException;
import org.openmft.xml.Mode;
import org.openmft.xml.Originator;
import org.openmft.xml.PingAgentRequest;
import org.openmft.xml.Reply;
import org.openmft.xml.ReplyTo;
import org.openmft.xml.RequestParser;
import org.openmft.xml.TransferItem;
import org.openmft.xml.TransferRequest;
import org.openmft.xml.TransferSet;

/**
 * The soak's traffic: a pool of random source files, transfers of a few of them at a time
 * requested as an MQ application requests them, their replies collected and their destination
 * files checked, across every fault the scenario injects.
 *
 * <p>Requests go as persistent messages to the source agent's COMMAND queue with a named,
 * persistent reply queue ({@value #REPLY_QUEUE}) both as JMSReplyTo and in the request's
 * {@code <reply>} element, so that acknowledgements and final replies outlive a queue manager
 * crash. Each request carries Artemis's duplicate-detection id: a put whose outcome a crash left
 * unknown is simply put again, and the queue manager drops it if the first one had arrived. Every
 * connection of this class is re-opened after a failure, with a bounded pause.
 *
 * <p>A final reply maps to its transfer by the transfer id of its acknowledgement, or by the
 * destination paths of its items (every transfer writes into a directory of its own). Each
 * finished transfer is checked at once (result 0, every item's result 0, every destination file's
 * MD5 equal to its source's, no partial file left) and its directory removed to keep the disk small.
 */
final class SoakTraffic implements AutoCloseable {
    static final String REPLY_QUEUE = "SOAK.REPLY";
    /** Artemis's duplicate-detection property. */
    private static final String DUPLICATE_ID = "_AMQ_DUPL_ID";
    private static final Originator ORIGINATOR = new Originator("localhost", "soak", null);
    private static final Duration RETRY_PAUSE = Duration.ofMillis(500);

    /** A source file and what its copies must hash to. */
    record SourceFile(Path path, long bytes, String md5) {
    }

    /** One requested transfer and everything learnt about it. */
    static final class Submission {
        final int number;
        final String duplicateId;
        final List<SourceFile> sources;
        final List<Path> destinations;
        final Path directory;
        final long bytes;
        /** JMS message ids of every put of the request (more than one after an uncertain put). */
        final Set<String> messageIds = ConcurrentHashMap.newKeySet();
        volatile long submittedNanos;
        volatile boolean submitted;
        volatile String transferId;
        volatile Reply finalReply;
        volatile long endedNanos;
        /** Why the transfer counts as failed, or null while it is fine. */
        volatile String failure;
        volatile boolean done;
        /** Its files were written again after it had ended (see {@link #filesWrittenAgain}). */
        volatile boolean writtenAgain;
        /** Faults injected while it ran. */
        final List<Integer> faults = new CopyOnWriteArrayList<>();

        Submission(int number, String duplicateId, List<SourceFile> sources, List<Path> destinations, Path directory) {
            this.number = number;
            this.duplicateId = duplicateId;
            this.sources = List.copyOf(sources);
            this.destinations = List.copyOf(destinations);
            this.directory = directory;
            this.bytes = sources.stream().mapToLong(SourceFile::bytes).sum();
        }

        boolean ok() {
            return done && failure == null;
        }

        double seconds() {
            return endedNanos == 0 || submittedNanos == 0 ? Double.NaN : (endedNanos - submittedNanos) / 1e9;
        }

        String label() {
            return "transfer #" + number + (transferId == null ? " (no transfer id: never acknowledged)"
                    : " (" + transferId + ")");
        }
    }

    private final SoakScenario.Settings settings;
    private final String qmgr;
    private final String sourceAgent;
    private final String destinationAgent;
    private final QueueManagerConnector connector;
    private final Path out;
    private final Random random;
    private final Consumer<String> log;
    private final DocumentWriter writer = new DocumentWriter();
    private final RequestParser parser = new RequestParser();
    private final List<SourceFile> small = new ArrayList<>();
    private final List<SourceFile> big = new ArrayList<>();
    private final List<Submission> submissions = new CopyOnWriteArrayList<>();
    private final Map<String, Submission> byMessageId = new ConcurrentHashMap<>();
    private final Map<String, Submission> byTransferId = new ConcurrentHashMap<>();
    private final Map<Path, Submission> byDirectory = new ConcurrentHashMap<>();
    private final Link submitLink;
    private final Link replyLink;
    private final Link pingLink;
    private final Object progress = new Object();
    private volatile boolean submitting;
    private volatile String submitterFailure;
    private volatile boolean closed;
    private Thread submitter;
    private Thread collector;
    /** Final replies received more than once (a restart may send one again); counted, not an error. */
    private volatile int duplicateFinals;
    private final Object acks = new Object();
    /** Acknowledgements that arrived before their put's message id was recorded, by that id. */
    private final Map<String, Reply> earlyAcks = new java.util.HashMap<>();
    /** Replies that matched no submission. */
    private final List<String> strayReplies = new CopyOnWriteArrayList<>();

    SoakTraffic(SoakScenario.Settings settings, String qmgr, String sourceAgent, String destinationAgent,
            QueueManagerConnector connector, Path work, Random random, Consumer<String> log) throws IOException {
        this.settings = settings;
        this.qmgr = qmgr;
        this.sourceAgent = sourceAgent;
        this.destinationAgent = destinationAgent;
        this.connector = connector;
        this.out = Files.createDirectories(work.resolve("out"));
        this.random = random;
        this.log = log;
        this.submitLink = new Link("submit");
        this.replyLink = new Link("replies");
        this.pingLink = new Link("ping");
        generate(Files.createDirectories(work.resolve("in")));
    }

    // ------------------------------------------------------------------------------------------
    // Source files

    private void generate(Path in) throws IOException {
        // One empty file, then sizes spread over four orders of magnitude up to smallMaxBytes.
        small.add(write(in.resolve("small-00.bin"), 0));
        for (int i = 1; i < settings.smallFiles(); i++) {
            double f = random.nextDouble();
            long size = Math.max(1, (long) Math.pow(settings.smallMaxBytes(), f));
            small.add(write(in.resolve(String.format("small-%02d.bin", i)), size));
        }
        for (int i = 0; i < settings.bigFiles(); i++) {
            long size = settings.bigMinBytes()
                    + (long) (random.nextDouble() * (settings.bigMaxBytes() - settings.bigMinBytes()));
            big.add(write(in.resolve(String.format("big-%02d.bin", i)), size));
        }
    }

    private SourceFile write(Path file, long size) throws IOException {
        MessageDigest md5 = md5();
        byte[] buffer = new byte[1 << 20];
        try (OutputStream os = Files.newOutputStream(file)) {
            long left = size;
            while (left > 0) {
                int n = (int) Math.min(buffer.length, left);
                random.nextBytes(buffer);
                os.write(buffer, 0, n);
                md5.update(buffer, 0, n);
                left -= n;
            }
        }
        return new SourceFile(file, size, HexFormat.of().formatHex(md5.digest()));
    }

    long sourceBytes() {
        return Stream.concat(small.stream(), big.stream()).mapToLong(SourceFile::bytes).sum();
    }

    int sourceFiles() {
        return small.size() + big.size();
    }

    // ------------------------------------------------------------------------------------------
    // Submitting

    /** Starts keeping {@code settings.outstanding()} transfers requested and collecting replies. */
    void start() {
        submitting = true;
        collector = new Thread(this::collect, "soak-replies");
        collector.setDaemon(true);
        collector.start();
        submitter = new Thread(this::submitLoop, "soak-submitter");
        submitter.setDaemon(true);
        submitter.start();
    }

    /** No new transfers from now on; the ones requested go on. */
    void stopSubmitting() throws InterruptedException {
        submitting = false;
        synchronized (progress) {
            progress.notifyAll();
        }
        if (submitter != null) {
            submitter.join(TimeUnit.MINUTES.toMillis(2));
        }
    }

    List<Submission> submissions() {
        return List.copyOf(submissions);
    }

    /** Transfers requested (or being requested) that have no final outcome yet. */
    List<Submission> inFlight() {
        return submissions.stream().filter(s -> !s.done).toList();
    }

    int duplicateFinals() {
        return duplicateFinals;
    }

    List<String> strayReplies() {
        List<String> out = new ArrayList<>(strayReplies);
        synchronized (acks) {
            earlyAcks.forEach((id, r) -> out.add("acknowledgement " + id + " for transfer " + r.requestId()
                    + " matches no request"));
        }
        return out;
    }

    /**
     * Waits until every requested transfer has its outcome or the deadline passes.
     *
     * @return whether all have one
     */
    boolean awaitAllDone(long deadlineNanos) throws InterruptedException {
        synchronized (progress) {
            while (!inFlight().isEmpty()) {
                long left = deadlineNanos - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                progress.wait(Math.max(1, Math.min(TimeUnit.NANOSECONDS.toMillis(left), 1000)));
            }
        }
        return true;
    }

    private void submitLoop() {
        int number = 0;
        try {
            while (submitting && !closed) {
                synchronized (progress) {
                    if (inFlight().size() >= settings.outstanding()) {
                        progress.wait(500);
                        continue;
                    }
                }
                Submission s = plan(++number);
                submissions.add(s);
                submit(s);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            submitterFailure = "the submitter stopped on " + e;
            log.accept("soak: " + submitterFailure);
        }
    }

    /** Why the submitter stopped before it was told to, or null. */
    String submitterFailure() {
        return submitterFailure;
    }

    private Submission plan(int number) throws IOException {
        int items = settings.itemsMin() + random.nextInt(settings.itemsMax() - settings.itemsMin() + 1);
        List<SourceFile> pick = new ArrayList<>();
        if (!big.isEmpty() && random.nextDouble() < settings.bigShare()) {
            pick.add(big.get(random.nextInt(big.size())));
        }
        List<SourceFile> pool = new ArrayList<>(small);
        while (pick.size() < items && !pool.isEmpty()) {
            pick.add(pool.remove(random.nextInt(pool.size())));
        }
        java.util.Collections.shuffle(pick, random);
        Path dir = Files.createDirectories(out.resolve(String.format("t%05d", number)));
        List<Path> destinations = new ArrayList<>();
        for (int i = 0; i < pick.size(); i++) {
            destinations.add(dir.resolve(i + "-" + pick.get(i).path().getFileName()));
        }
        Submission s = new Submission(number, "soak-" + Long.toHexString(settings.seed()) + "-" + number, pick,
                destinations, dir);
        byDirectory.put(dir, s);
        return s;
    }

    private TransferRequest request(Submission s) {
        List<TransferItem> items = new ArrayList<>();
        for (int i = 0; i < s.sources.size(); i++) {
            items.add(new TransferItem(Mode.BINARY, ChecksumMethod.MD5,
                    new ItemSource(false, Disposition.LEAVE, s.sources.get(i).path().toString(), null),
                    new ItemDestination(DestinationType.FILE, ExistAction.ERROR, s.destinations.get(i).toString(),
                            null, null)));
        }
        return new TransferRequest("6.00", ORIGINATOR, new AgentRef(sourceAgent, qmgr),
                new AgentRef(destinationAgent, qmgr), new ReplyTo(REPLY_QUEUE, qmgr, true),
                new TransferSet(0, null, Map.of(), items), "SOAK-" + s.number);
    }

    /**
     * Puts the request until a put is confirmed. A put that failed may still have arrived; the one
     * after it carries the same duplicate-detection id and is then dropped by the queue manager.
     */
    private void submit(Submission s) throws InterruptedException {
        String xml = writer.write(request(s));
        s.submittedNanos = System.nanoTime();
        while (!closed) {
            TextMessage m = null;
            try {
                Session session = submitLink.session();
                m = session.createTextMessage(xml);
                m.setJMSReplyTo(session.createQueue(REPLY_QUEUE));
                m.setStringProperty(DUPLICATE_ID, s.duplicateId);
                try (MessageProducer p = session.createProducer(session.createQueue(QueueNames.command(sourceAgent)))) {
                    p.setDeliveryMode(DeliveryMode.PERSISTENT);
                    // A persistent put returns once the queue manager has it (Artemis blocks on
                    // durable sends).
                    p.send(m);
                }
                recordMessageId(s, m);
                s.submitted = true;
                return;
            } catch (JMSException | QueueManagerException | RuntimeException e) {
                // The put may have arrived all the same: its acknowledgement must still find us.
                recordMessageId(s, m);
                submitLink.reset();
                TimeUnit.MILLISECONDS.sleep(RETRY_PAUSE.toMillis());
            }
        }
    }

    private void recordMessageId(Submission s, Message m) {
        String id;
        try {
            id = m == null ? null : m.getJMSMessageID();
        } catch (JMSException e) {
            return;
        }
        if (id == null) {
            return;
        }
        Reply early;
        synchronized (acks) {
            s.messageIds.add(id);
            byMessageId.put(id, s);
            early = earlyAcks.remove(id);
        }
        if (early != null) {
            acknowledged(s, early);
        }
    }

    // ------------------------------------------------------------------------------------------
    // Replies

    private void collect() {
        MessageConsumer consumer = null;
        while (!closed) {
            try {
                if (consumer == null) {
                    Session session = replyLink.session();
                    consumer = session.createConsumer(session.createQueue(REPLY_QUEUE));
                }
                Message m = consumer.receive(500);
                if (replyLink.broken()) {
                    throw new JMSException("connection lost");
                }
                if (m instanceof TextMessage t) {
                    onReply(t.getJMSCorrelationID(), parser.parseReply(t.getText()));
                }
            } catch (JMSException | QueueManagerException | RuntimeException e) {
                consumer = null;
                replyLink.reset();
                try {
                    TimeUnit.MILLISECONDS.sleep(RETRY_PAUSE.toMillis());
                } catch (InterruptedException ie) {
                    return;
                }
            } catch (MalformedRequestException e) {
                strayReplies.add("unparseable reply: " + e.getMessage());
            }
        }
    }

    private void onReply(String correlationId, Reply reply) {
        String transferId = reply.requestId();
        boolean isFinal = correlationId != null && correlationId.equals(transferId);
        if (!isFinal) {
            Submission s;
            synchronized (acks) {
                s = correlationId == null ? null : byMessageId.get(correlationId);
                if (s == null && correlationId != null) {
                    // The agent was quicker than the submitter thread recording the put's id.
                    earlyAcks.put(correlationId, reply);
                    return;
                }
            }
            if (s == null) {
                strayReplies.add("acknowledgement for transfer " + transferId + " without a correlation id");
                return;
            }
            acknowledged(s, reply);
            return;
        }
        Submission s = byTransferId.get(transferId);
        if (s == null) {
            s = reply.items().stream().map(i -> i.destination() == null ? null
                    : byDirectory.get(Path.of(i.destination()).getParent())).filter(x -> x != null).findFirst()
                    .orElse(null);
        }
        if (s == null) {
            strayReplies.add("final reply for transfer " + transferId + " (result " + reply.resultCode()
                    + ") matches no request");
            return;
        }
        if (s.transferId == null) {
            s.transferId = transferId;
            byTransferId.put(transferId, s);
        } else if (!s.done && !s.transferId.equals(transferId)) {
            s.failure = "the request ran as transfers " + s.transferId + " and " + transferId;
        }
        if (s.done) {
            duplicateFinals++;
            if (s.transferId != null && !s.transferId.equals(transferId)) {
                // One request, two transfers: the agent ran it twice.
                s.failure = (s.failure == null ? "" : s.failure + "; ") + "the request ran a second time as transfer "
                        + transferId + ", which ended with result " + reply.resultCode() + " " + reply.supplements();
                log.accept("soak: " + s.label() + " FAILED: " + s.failure);
            } else if (s.finalReply != null && s.finalReply.resultCode() != reply.resultCode() && s.failure == null) {
                s.failure = "a second final reply says result " + reply.resultCode() + " after result "
                        + s.finalReply.resultCode();
                log.accept("soak: " + s.label() + " FAILED: " + s.failure);
            }
            return;
        }
        finish(s, reply, check(s, reply));
    }

    private void acknowledged(Submission s, Reply ack) {
        if (s.transferId != null && !s.transferId.equals(ack.requestId())) {
            s.failure = (s.failure == null ? "" : s.failure + "; ") + "the request was accepted twice, as transfers "
                    + s.transferId + " and " + ack.requestId();
            log.accept("soak: " + s.label() + " FAILED: " + s.failure);
        } else {
            s.transferId = ack.requestId();
        }
        byTransferId.put(ack.requestId(), s);
        if (ack.resultCode() != 0 && !s.done) {
            finish(s, ack, "the request was refused with result " + ack.resultCode() + ": " + ack.supplements());
        }
    }

    private void finish(Submission s, Reply reply, String failure) {
        s.finalReply = reply;
        s.endedNanos = System.nanoTime();
        s.failure = s.failure == null ? failure : failure == null ? s.failure : s.failure + "; " + failure;
        s.done = true;
        if (s.failure == null) {
            // The files go (the disk stays small); the directory stays, so that a file written
            // there again later is seen at the end.
            deleteFiles(s.directory);
        } else {
            log.accept("soak: " + s.label() + " FAILED: " + s.failure);
        }
        synchronized (progress) {
            progress.notifyAll();
        }
    }

    /** Checks a finished transfer's reply and files; null when all is well. */
    private String check(Submission s, Reply reply) {
        if (reply.resultCode() != 0) {
            return "result " + reply.resultCode() + ": " + reply.supplements() + " " + failedItems(reply);
        }
        if (reply.items().size() != s.sources.size()) {
            return "the detailed reply lists " + reply.items().size() + " items, the request had "
                    + s.sources.size();
        }
        String items = failedItems(reply);
        if (!items.isEmpty()) {
            return "result 0 but items failed: " + items;
        }
        List<String> bad = new ArrayList<>();
        for (int i = 0; i < s.sources.size(); i++) {
            SourceFile src = s.sources.get(i);
            Path dst = s.destinations.get(i);
            try {
                if (!Files.isRegularFile(dst)) {
                    bad.add(dst.getFileName() + " is missing");
                    continue;
                }
                long size = Files.size(dst);
                String sum = md5(dst);
                if (size != src.bytes() || !sum.equals(src.md5())) {
                    bad.add(dst.getFileName() + " has " + size + " bytes, MD5 " + sum + "; its source has "
                            + src.bytes() + " bytes, MD5 " + src.md5());
                }
            } catch (IOException e) {
                bad.add(dst.getFileName() + " cannot be read: " + e.getMessage());
            }
        }
        try (Stream<Path> files = Files.list(s.directory)) {
            files.filter(p -> !s.destinations.contains(p)).forEach(p -> bad.add("unexpected file " + p.getFileName()));
        } catch (IOException e) {
            bad.add("cannot list " + s.directory + ": " + e.getMessage());
        }
        return bad.isEmpty() ? null : String.join("; ", bad);
    }

    private static String failedItems(Reply reply) {
        List<String> out = new ArrayList<>();
        for (ItemResult i : reply.items()) {
            if (i.resultCode() != 0) {
                out.add(i.source() + " -> " + i.destination() + ": " + i.resultCode() + " " + i.supplement());
            }
        }
        return String.join("; ", out);
    }

    /**
     * Marks every transfer without an outcome as failed, naming what is known of it; the source
     * agent's log line {@code ended with result N}, when it has one, tells a lost reply from a
     * transfer that never ended.
     */
    void failUnfinished(String why, Map<String, String> endedInLog) {
        for (Submission s : inFlight()) {
            String logged = s.transferId == null ? null : endedInLog.get(s.transferId);
            s.failure = why + (s.submitted ? "" : "; the request could not even be put")
                    + (logged == null ? "" : "; the source agent's log says it ended with result " + logged
                            + ", so its final reply was lost");
            s.done = true;
            log.accept("soak: " + s.label() + " FAILED: " + s.failure);
        }
    }

    /**
     * Files found, at the end, in the directories of transfers that had ended intact and whose files
     * were then removed: written again after the transfer ended. Each such transfer is marked failed.
     *
     * @return "#number (id): names" for each, empty when none
     */
    List<String> filesWrittenAgain() {
        List<String> out = new ArrayList<>();
        for (Submission s : submissions) {
            if (!s.ok()) {
                continue;
            }
            List<String> names = new ArrayList<>();
            try (Stream<Path> files = Files.list(s.directory)) {
                files.forEach(p -> names.add(p.getFileName().toString()));
            } catch (IOException e) {
                names.add("(cannot list " + s.directory + ": " + e.getMessage() + ")");
            }
            if (!names.isEmpty()) {
                s.failure = "after it ended with result 0 and its files were checked and removed, " + names
                        + " were written again in its directory";
                s.writtenAgain = true;
                out.add("#" + s.number + " (" + s.transferId + "): " + names);
            }
        }
        return out;
    }

    /**
     * Bytes of transfers that did not end intact (no outcome, a failed result, a missing or wrong
     * file): lost, as far as a requester knows. Files written again later are not lost.
     */
    long bytesLost() {
        long lost = 0;
        for (Submission s : submissions) {
            if (!s.ok() && !s.writtenAgain) {
                lost += s.bytes;
            }
        }
        return lost;
    }

    // ------------------------------------------------------------------------------------------
    // Pings and queue depths

    /**
     * Pings an agent through its COMMAND queue until it answers or the deadline passes: an agent
     * that answers is connected and serving again.
     */
    boolean ping(String agent, long deadlineNanos) throws InterruptedException {
        String xml = writer.write(new PingAgentRequest("6.00", ORIGINATOR, agent, qmgr, null));
        while (!closed && System.nanoTime() < deadlineNanos) {
            try {
                Session session = pingLink.session();
                TemporaryQueue replies = session.createTemporaryQueue();
                try (MessageConsumer c = session.createConsumer(replies);
                        MessageProducer p = session.createProducer(session.createQueue(QueueNames.command(agent)))) {
                    TextMessage m = session.createTextMessage(xml);
                    m.setJMSReplyTo(replies);
                    p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
                    p.setTimeToLive(60_000);
                    p.send(m);
                    while (System.nanoTime() < deadlineNanos) {
                        if (c.receive(500) instanceof TextMessage) {
                            return true;
                        }
                        if (pingLink.broken()) {
                            throw new JMSException("connection lost");
                        }
                    }
                } finally {
                    replies.delete();
                }
            } catch (JMSException | QueueManagerException | RuntimeException e) {
                pingLink.reset();
                TimeUnit.MILLISECONDS.sleep(RETRY_PAUSE.toMillis());
            }
        }
        return false;
    }

    /** Messages on a queue right now (a browse), or -1 when it cannot be read. */
    int depth(String queue) {
        try {
            Session session = pingLink.session();
            Queue q = session.createQueue(queue);
            int n = 0;
            try (QueueBrowser b = session.createBrowser(q)) {
                var e = b.getEnumeration();
                while (e.hasMoreElements()) {
                    e.nextElement();
                    n++;
                }
            }
            return n;
        } catch (JMSException | QueueManagerException | RuntimeException e) {
            pingLink.reset();
            return -1;
        }
    }

    @Override
    public void close() {
        closed = true;
        submitting = false;
        try {
            if (submitter != null) {
                submitter.interrupt();
                submitter.join(10_000);
            }
            if (collector != null) {
                collector.join(10_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        submitLink.reset();
        replyLink.reset();
        pingLink.reset();
    }

    // ------------------------------------------------------------------------------------------

    /** One connection and session, opened on demand and thrown away on failure. */
    private final class Link {
        private final String role;
        private Connection connection;
        private Session session;
        private volatile boolean broken;

        Link(String role) {
            this.role = role;
        }

        synchronized Session session() throws QueueManagerException, JMSException {
            if (session == null) {
                broken = false;
                connection = connector.connect();
                connection.setExceptionListener(e -> broken = true);
                session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                connection.start();
            }
            return session;
        }

        boolean broken() {
            return broken;
        }

        synchronized void reset() {
            if (connection != null) {
                try {
                    connection.close();
                } catch (JMSException | RuntimeException e) {
                    // Broken already: closing is all that is left.
                }
            }
            connection = null;
            session = null;
        }

        @Override
        public String toString() {
            return "soak link " + role;
        }
    }

    static String md5(Path file) throws IOException {
        MessageDigest md5 = md5();
        byte[] buffer = new byte[1 << 20];
        try (InputStream in = Files.newInputStream(file)) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                md5.update(buffer, 0, n);
            }
        }
        return HexFormat.of().formatHex(md5.digest());
    }

    private static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has MD5", e);
        }
    }

    private static void deleteFiles(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // A leftover file costs some disk; the check at the end would name it.
        }
    }
}
