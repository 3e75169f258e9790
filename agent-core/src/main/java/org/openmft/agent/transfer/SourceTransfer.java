package org.openmft.agent.transfer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import javax.jms.BytesMessage;
import javax.jms.DeliveryMode;
import javax.jms.JMSException;
import javax.jms.Message;
import javax.jms.MessageProducer;
import javax.jms.Session;

import org.openmft.agent.AgentListener.Role;
import org.openmft.agent.ItemOutcome;
import org.openmft.agent.TransferInfo;
import org.openmft.agent.TransferOutcome;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.messaging.ProviderErrors;
import org.openmft.agent.transfer.files.Access;
import org.openmft.agent.transfer.files.FileErrors;
import org.openmft.agent.transfer.files.SandboxViolationException;
import org.openmft.agent.transfer.text.TextConversionException;
import org.openmft.agent.transfer.text.TextConverter;
import org.openmft.xml.ChecksumMethod;
import org.openmft.xml.Disposition;
import org.openmft.xml.Mode;
import org.openmft.xml.TransferRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * One transfer, run by the source agent on a thread of its own: negotiates with the destination,
 * reads the files in chunks, sends them within the flow-control window, resends from the last
 * acknowledged chunk when acknowledgements stop or the destination reports a gap, applies source
 * dispositions once the destination confirmed each item, and reports the outcome.
 *
 * <p>Memory: two chunk buffers (binary) or one chunk buffer plus the converter's buffers (text),
 * whatever the file sizes. Rewinds restart the affected item from its beginning but send nothing
 * the destination already has: chunks below the resume point are read (to rebuild the checksum)
 * and not sent.
 */
final class SourceTransfer implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(SourceTransfer.class);
    private static final int INBOX_CAPACITY = 4096;

    private final TransferEngine engine;
    private final TransferInfo info;
    private final String id;
    private final TransferRequest request;
    private final List<PlannedItem> items;
    private final String destinationAgent;
    private final BlockingQueue<Control> inbox = new ArrayBlockingQueue<>(INBOX_CAPACITY);
    private final ItemOutcome[] results;
    private final long[] itemFirstSeq;
    private final int window;
    private final int maxUnacked;
    private final long ackTimeoutMillis;
    private final int ackRetries;
    private final long recoveryTimeoutMillis;
    /**
     * Chunks expire after twice the time the source waits before resynchronising: a chunk nobody
     * read by then has been or will be resent, so resends to a stopped destination never pile up.
     */
    private final long chunkTimeToLiveMillis;
    private final byte[] bufferA;
    private final byte[] bufferB;

    private volatile boolean cancelRequested;
    private volatile String cancelReason;
    private Session session;
    private MessageProducer producer;
    private int incarnation = 1;
    /** Whether the destination ever accepted the transfer (and so has something to clean up). */
    private boolean negotiated;
    private long nextSeq;
    private long lastAcked = -1;
    private long suppressBelow;
    private int retries;
    private long recoveringSinceNanos = -1;
    private Instant started;
    /** Bytes handed to the queue manager so far (resends included), for progress publications. */
    private long bytesSent;
    private int sendingItem;
    private long sendingItemBytes;

    /** A jump back: resend from {@link #seq}. */
    private static final class Rewind extends Exception {
        private static final long serialVersionUID = 1L;
        final long seq;

        Rewind(long seq) {
            super(null, null, false, false);
            this.seq = seq;
        }
    }

    /** The destination already failed the item being sent: move on to the next one. */
    private static final class SkipItem extends Exception {
        private static final long serialVersionUID = 1L;

        SkipItem() {
            super(null, null, false, false);
        }
    }

    /** The transfer ends now with {@link #resultCode}. */
    private static final class Abandon extends Exception {
        private static final long serialVersionUID = 1L;
        final int resultCode;

        Abandon(int resultCode, String message) {
            super(message, null, false, false);
            this.resultCode = resultCode;
        }
    }

    /**
     * What an earlier run of the agent left of a started transfer: the incarnation it last used
     * and the item results it journaled.
     */
    record Resume(int incarnation, Map<Integer, StateFiles.Result> results) {
    }

    private final Resume resume;
    private boolean resumeLogged;
    private final long[] itemLastSeq;
    /** The highest sequence number sent in this run, to count resent bytes. */
    private long highestSent = -1;
    private long bytesResent;

    SourceTransfer(TransferEngine engine, TransferInfo info, TransferRequest request, List<PlannedItem> items,
            Resume resume) {
        this.engine = engine;
        this.info = info;
        this.id = info.transferId();
        this.request = request;
        this.items = items;
        this.destinationAgent = request.destinationAgent().agent().toUpperCase(java.util.Locale.ROOT);
        this.results = new ItemOutcome[items.size()];
        this.itemFirstSeq = new long[items.size()];
        this.itemLastSeq = new long[items.size()];
        java.util.Arrays.fill(itemFirstSeq, -1);
        java.util.Arrays.fill(itemLastSeq, -1);
        this.resume = resume;
        if (resume != null) {
            // A new incarnation, higher than any the destination saw: whatever is still on the
            // queues from before the restart is recognised and dropped.
            this.incarnation = resume.incarnation() + 1;
            for (StateFiles.Result r : resume.results().values()) {
                int i = r.outcome().index();
                if (i >= 0 && i < results.length) {
                    results[i] = r.outcome();
                    itemFirstSeq[i] = r.firstSeq();
                    itemLastSeq[i] = r.lastSeq();
                }
            }
        }
        var c = engine.config();
        this.window = c.windowSize();
        this.maxUnacked = c.windowSize() * c.frameSize();
        this.ackTimeoutMillis = c.transferAckTimeout().toMillis();
        this.ackRetries = c.transferAckTimeoutRetries();
        this.recoveryTimeoutMillis = recoveryTimeoutMillis(request.transferSet().recoveryTimeoutSeconds(),
                c.transferRecoveryTimeout());
        this.chunkTimeToLiveMillis = 2L * ackTimeoutMillis * (ackRetries + 1);
        this.bufferA = new byte[c.chunkSize()];
        this.bufferB = new byte[c.chunkSize()];
    }

    /**
     * How long a transfer may recover: the request's {@code recoveryTimeout}, else the agent's
     * {@code transferRecoveryTimeout}.
     *
     * @param requestSeconds the request's value in seconds (-1 for ever, 0 not at all), or null
     * @param agentDefault the agent's value; empty for ever
     * @return milliseconds, or -1 for ever; a number of seconds too large to count in milliseconds
     *         (the schema allows any long) is for ever too, rather than wrapping round to a short time
     */
    static long recoveryTimeoutMillis(Long requestSeconds, java.util.Optional<java.time.Duration> agentDefault) {
        long seconds = requestSeconds != null ? requestSeconds
                : agentDefault.map(java.time.Duration::toSeconds).orElse(-1L);
        if (seconds < 0 || seconds > Long.MAX_VALUE / 1000) {
            return -1;
        }
        return seconds * 1000;
    }

    String id() {
        return id;
    }

    TransferRequest request() {
        return request;
    }

    int itemCount() {
        return items.size();
    }

    int incarnation() {
        return incarnation;
    }

    /** Called by the REPLY dispatcher. Acknowledgements are cumulative, so a full inbox loses nothing. */
    void deliver(Control c) {
        if (!inbox.offer(c)) {
            log.warn("Transfer {}: control inbox full ({} messages); dropped a {} message", id, INBOX_CAPACITY,
                    c.type());
        }
    }

    /** Asks the transfer to cancel; it answers 41 once the destination confirmed or timed out. */
    void cancel(String reason) {
        cancelReason = reason;
        cancelRequested = true;
    }

    @Override
    public void run() {
        MDC.put(org.openmft.agent.Agent.MDC_AGENT, engine.agentName());
        started = Instant.now();
        TransferOutcome outcome;
        try {
            String dataQueue;
            try {
                dataQueue = QueueNames.data(destinationAgent);
            } catch (IllegalArgumentException e) {
                // No queue can have this name, so no agent of it can exist: the same as an unknown agent.
                throw new Abandon(49, "BFGTR0072E: The destination agent " + destinationAgent
                        + " cannot be reached: " + e.getMessage());
            }
            session = engine.connection().createSession(false, Session.AUTO_ACKNOWLEDGE);
            javax.jms.Queue data = session.createQueue(dataQueue);
            // Sends of non-persistent messages do not report a missing queue: check first, so an
            // unknown agent fails at once with 49.
            if (!engine.queueExists(session, dataQueue)) {
                throw new javax.jms.InvalidDestinationException("queue " + dataQueue
                        + " does not exist on queue manager " + engine.config().agentQMgr());
            }
            producer = session.createProducer(data);
            producer.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            producer.setPriority(Math.min(9, Math.max(0, request.transferSet().priority())));
            producer.setDisableMessageTimestamp(true);
            if (resume == null) {
                engine.listener().transferStarted(engine.agentName(), Role.SOURCE, info);
            } else {
                engine.listener().transferResumed(engine.agentName(), Role.SOURCE, info,
                        "resynchronising with destination agent " + destinationAgent + " after a restart");
                recoveringSinceNanos = System.nanoTime();
            }
            outcome = transfer();
        } catch (Abandon a) {
            outcome = finish(a.resultCode, a.getMessage());
        } catch (javax.jms.InvalidDestinationException e) {
            outcome = finish(49, "BFGTR0072E: The destination agent " + destinationAgent + " cannot be reached: its"
                    + " queue " + QueueNames.data(destinationAgent) + " does not exist (" + ProviderErrors.describe(e)
                    + ")");
        } catch (JMSException e) {
            // While the agent stops or lost its queue manager, the transfer is suspended, not failed.
            // Also when the connection is lost: the agent reconnects and the transfer resumes then.
            outcome = engine.closing() || engine.connectionLost() ? null
                    : finish(40, "BFGTR0073E: The transfer failed because of a messaging error: "
                            + ProviderErrors.describe(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            outcome = engine.closing() ? null
                    : finish(40, "BFGTR0074E: The transfer was interrupted by the agent stopping");
        } catch (RuntimeException e) {
            if (engine.closing() || engine.connectionLost()) {
                // The provider reports an interrupted call its own way (Artemis: an unchecked
                // ActiveMQInterruptedException); while stopping, that suspends the transfer.
                log.debug("Transfer {} interrupted while the agent stops: {}", id, e.toString());
                outcome = null;
            } else {
                log.error("Transfer {} failed unexpectedly", id, e);
                outcome = finish(40, "BFGTR0073E: The transfer failed unexpectedly: " + e);
            }
        } finally {
            try {
                if (session != null) {
                    session.close();
                }
            } catch (JMSException e) {
                log.debug("Closing the session of transfer {}: {}", id, e.getMessage());
            }
        }
        if (bytesResent > 0 && outcome != null) {
            log.info("Transfer {}: {} bytes were sent more than once (resends after lost acknowledgements, gaps or"
                    + " restarts)", id, bytesResent);
        }
        engine.sourceFinished(this, outcome);
        MDC.remove(org.openmft.agent.Agent.MDC_AGENT);
    }

    private TransferOutcome transfer() throws JMSException, InterruptedException, Abandon {
        if (resume != null && allItemsDone()) {
            // Every item's outcome was journaled before the restart: the transfer had ended and
            // only the removal of its state was lost. A destination that saw the COMPLETE_ACK has
            // forgotten it and would take a resynchronisation for a new transfer, writing every
            // file again; one that did not gets the COMPLETE_ACK now.
            endRecovery();
            sendControl(Wire.COMPLETE_ACK, null);
            return finish(-1, null);
        }
        try {
            negotiate();
            // Items are numbered from the first one on; what the destination has (a resumed
            // transfer) is read again to rebuild the numbering and checksums, but not sent, and
            // items journaled as finished are skipped without reading.
            nextSeq = 0;
            int index = 0;
            while (true) {
                try {
                    // Items are always sent in order; after a rewind every item from the rewind
                    // point on is sent again (the destination discards data of items it has
                    // finished and answers their last chunk with the item's result again).
                    for (; index < items.size(); index++) {
                        if (alreadyAtDestination(index)) {
                            nextSeq = itemLastSeq[index] + 1;
                            continue;
                        }
                        try {
                            sendItem(items.get(index));
                        } catch (SkipItem s) {
                            // The destination failed this item already: go on with the next.
                        }
                    }
                    while (!allItemsDone()) {
                        try {
                            awaitProgress();
                        } catch (SkipItem s) {
                            // Everything is sent already: nothing to skip.
                        }
                    }
                    break;
                } catch (Rewind r) {
                    index = rewindTo(r.seq);
                }
            }
        } catch (Abandon a) {
            if (a.resultCode == 41) {
                return cancelNow();
            }
            if (a.resultCode == 69) {
                // Best effort: a destination that comes back removes its partial files.
                sendControl(Wire.CANCEL, a.getMessage());
            }
            throw a;
        }
        sendControl(Wire.COMPLETE_ACK, null);
        return finish(-1, null);
    }

    /**
     * Whether an item finished before a restart and the destination is past it: it is skipped
     * without reading it, its sequence numbers known from the results journal.
     */
    private boolean alreadyAtDestination(int index) {
        return results[index] != null && itemFirstSeq[index] == nextSeq && itemLastSeq[index] >= nextSeq
                && itemLastSeq[index] < suppressBelow;
    }

    private boolean allItemsDone() {
        for (ItemOutcome r : results) {
            if (r == null) {
                return false;
            }
        }
        return true;
    }

    // ----------------------------------------------------------------------------------------
    // Negotiation

    private void negotiate() throws JMSException, InterruptedException, Abandon {
        long busyBackoff = 500;
        while (true) {
            engine.sourceIncarnation(this, incarnation, lastAcked + 1);
            sendStart();
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ackTimeoutMillis);
            while (true) {
                if (cancelRequested) {
                    throw new Abandon(41, cancelMessage());
                }
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    break;
                }
                Control c = inbox.poll(Math.min(left, 250), TimeUnit.MILLISECONDS);
                if (c == null || c.incarnation() != incarnation) {
                    continue;
                }
                if (Wire.START_OK.equals(c.type())) {
                    negotiated = true;
                    endRecovery();
                    retries = 0;
                    nextSeq = Math.max(0, c.nextSeq());
                    lastAcked = nextSeq - 1;
                    suppressBelow = nextSeq;
                    if (resume != null && !resumeLogged) {
                        resumeLogged = true;
                        log.info("BFGTR0093I: Transfer {}: resumed as source; destination agent {} has chunks 0 to {},"
                                + " sending from chunk {} on", id, destinationAgent, nextSeq - 1, nextSeq);
                    }
                    return;
                }
                if (Wire.START_REFUSED.equals(c.type())) {
                    if (!c.retry()) {
                        throw new Abandon(c.resultCode() == 0 ? 40 : c.resultCode(), c.supplement());
                    }
                    log.info("Transfer {}: destination agent {} is busy; trying again in {} ms", id, destinationAgent,
                            busyBackoff);
                    if (waitForCancel(busyBackoff)) {
                        throw new Abandon(41, cancelMessage());
                    }
                    busyBackoff = Math.min(busyBackoff * 2, 5000);
                    deadline = 0;
                    break;
                }
            }
            if (deadline != 0) {
                noAnswer("the destination agent " + destinationAgent + " did not answer the start of the transfer");
            }
            incarnation++;
        }
    }

    private boolean waitForCancel(long millis) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() < end) {
            if (cancelRequested) {
                return true;
            }
            TimeUnit.MILLISECONDS.sleep(Math.min(50, millis));
        }
        return cancelRequested;
    }

    private void sendStart() throws JMSException {
        Message m = session.createMessage();
        stamp(m, Wire.START);
        m.setStringProperty(Wire.SOURCE_AGENT, engine.agentName());
        m.setStringProperty(Wire.SOURCE_QMGR, engine.config().agentQMgr());
        m.setStringProperty(Wire.DESTINATION_AGENT, destinationAgent);
        m.setIntProperty(Wire.ITEM_COUNT, items.size());
        m.setIntProperty(Wire.WINDOW, window);
        m.setIntProperty(Wire.CHECKPOINT_CHUNKS, maxUnacked * engine.config().checkpointInterval());
        if (request.originator() != null && request.originator().userId() != null) {
            m.setStringProperty(Wire.ORIGINATOR_USER, request.originator().userId());
        }
        if (request.jobName() != null) {
            m.setStringProperty(Wire.JOB_NAME, request.jobName());
        }
        if (incarnation > 1) {
            int open = 0;
            while (open < results.length && results[open] != null) {
                open++;
            }
            m.setIntProperty(Wire.FIRST_OPEN_ITEM, open);
        }
        // A start that nobody takes must not act later: it expires with the acknowledgement timeout.
        producer.send(m, DeliveryMode.NON_PERSISTENT, producer.getPriority(), ackTimeoutMillis);
    }

    /**
     * No answer in time: retry, then recover until the recovery timeout (result 69).
     */
    private void noAnswer(String what) throws Abandon {
        retries++;
        if (retries <= ackRetries) {
            log.warn("Transfer {}: {} within {} ms; retry {} of {}", id, what, ackTimeoutMillis, retries, ackRetries);
            return;
        }
        if (recoveringSinceNanos < 0) {
            recoveringSinceNanos = System.nanoTime();
            log.warn("Transfer {}: {} after {} retries; the transfer is recovering", id, what, ackRetries);
            engine.listener().recovering(engine.agentName(), id, what);
        }
        if (recoveryTimeoutMillis >= 0 && TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - recoveringSinceNanos)
                >= recoveryTimeoutMillis) {
            throw new Abandon(69, "BFGTR0080E: The transfer recovery timed out after "
                    + recoveryTimeoutMillis / 1000 + " seconds: " + what);
        }
    }

    // ----------------------------------------------------------------------------------------
    // Data

    private void sendItem(PlannedItem p) throws JMSException, InterruptedException, Rewind, SkipItem, Abandon {
        int index = p.index();
        itemFirstSeq[index] = nextSeq;
        MessageDigest md5 = p.item().checksumMethod() == ChecksumMethod.MD5 ? newMd5() : null;
        ItemSender sender = new ItemSender(p, md5);
        try {
            // Checked when the request was accepted, and again now: a queued transfer may wait long,
            // and meanwhile the file may have been replaced by a link that leads out of the sandbox.
            engine.pathResolver().sandbox().check(p.file().source(), Access.READ);
        } catch (SandboxViolationException e) {
            abortItem(p, "BFGSS0021E: " + e.getMessage());
            return;
        }
        try {
            if (p.item().mode() == Mode.TEXT) {
                sendText(p, sender);
            } else {
                sendBinary(p, sender);
            }
        } catch (SendFailure e) {
            throw e.jms;
        } catch (Interrupted e) {
            throw new InterruptedException("interrupted while sending");
        } catch (ControlFlow e) {
            e.rethrow();
        } catch (java.nio.channels.ClosedByInterruptException e) {
            // The agent is stopping: the read was cut off, the file is fine.
            throw new InterruptedException("interrupted while reading " + p.file().source());
        } catch (NoSuchFileException e) {
            abortItem(p, "BFGIO0001E: File \"" + p.file().source() + "\" does not exist.");
        } catch (IOException e) {
            if (engine.closing()) {
                throw new InterruptedException("stopping while reading " + p.file().source());
            }
            abortItem(p, "BFGIO0003E: File \"" + p.file().source() + "\" could not be read: "
                    + FileErrors.reason(e));
        } catch (TextConversionException e) {
            abortItem(p, "BFGIO0058E: File \"" + p.file().source() + "\" could not be converted: " + e.getMessage());
        }
    }

    private void sendBinary(PlannedItem p, ItemSender sender) throws IOException {
        try (FileChannel ch = FileChannel.open(p.file().source(), StandardOpenOption.READ)) {
            byte[] current = bufferA;
            byte[] next = bufferB;
            int have = fill(ch, current);
            while (true) {
                int more = have == current.length ? fill(ch, next) : 0;
                if (more == 0) {
                    checkUnchanged(p, sender.bytes + have);
                    sender.emit(current, have, true);
                    return;
                }
                sender.emit(current, have, false);
                byte[] t = current;
                current = next;
                next = t;
                have = more;
            }
        }
    }

    private static int fill(FileChannel ch, byte[] buffer) throws IOException {
        ByteBuffer bb = ByteBuffer.wrap(buffer);
        while (bb.hasRemaining()) {
            if (ch.read(bb) < 0) {
                break;
            }
        }
        return bb.position();
    }

    private void sendText(PlannedItem p, ItemSender sender) throws IOException, TextConversionException {
        String replacement = engine.config().textReplacementCharacterSequence();
        TextConverter converter = new TextConverter(p.sourceCharset(), p.destCharset(), lineEnding(p),
                replacement == null || replacement.isEmpty() ? null : replacement);
        byte[] out = bufferB;
        int[] filled = {0};
        // Converted bytes collect in one chunk buffer; a full buffer is sent when more follows, so
        // the last chunk always carries the last flag.
        org.openmft.agent.transfer.text.ByteSink sink = bytes -> {
            while (bytes.hasRemaining()) {
                if (filled[0] == out.length) {
                    sender.emit(out, filled[0], false);
                    filled[0] = 0;
                }
                int n = Math.min(bytes.remaining(), out.length - filled[0]);
                bytes.get(out, filled[0], n);
                filled[0] += n;
            }
        };
        long read = 0;
        try (FileChannel ch = FileChannel.open(p.file().source(), StandardOpenOption.READ)) {
            ByteBuffer in = ByteBuffer.wrap(bufferA);
            while (true) {
                in.clear();
                int n = ch.read(in);
                if (n < 0) {
                    break;
                }
                read += n;
                in.flip();
                converter.convert(in, false, sink);
            }
            in.clear().flip();
            converter.convert(in, true, sink);
        }
        checkUnchanged(p, read);
        sender.emit(out, filled[0], true);
    }

    private static org.openmft.agent.transfer.text.LineEnding lineEnding(PlannedItem p) {
        org.openmft.xml.LineEnding eol = p.item().destination().eol();
        if (eol == null) {
            return org.openmft.agent.transfer.text.LineEnding.platformDefault();
        }
        return eol == org.openmft.xml.LineEnding.CRLF ? org.openmft.agent.transfer.text.LineEnding.CRLF
                : org.openmft.agent.transfer.text.LineEnding.LF;
    }

    private static void checkUnchanged(PlannedItem p, long bytesRead) throws IOException {
        long size = Files.size(p.file().source());
        long modified = Files.getLastModifiedTime(p.file().source()).toMillis();
        if (size != p.file().size() || bytesRead != p.file().size() || modified != p.file().lastModifiedMillis()) {
            // Both values, before and after: a file rewritten in place keeps its size.
            throw new IOException("the file changed while it was being transferred (size " + p.file().size()
                    + " -> " + size + " bytes, last modified " + Instant.ofEpochMilli(p.file().lastModifiedMillis())
                    + " -> " + Instant.ofEpochMilli(modified) + ")");
        }
    }

    /** Sends the chunks of one item, with flow control; rebuilds the checksum on resends. */
    private final class ItemSender {
        final PlannedItem p;
        final MessageDigest md5;
        long bytes;
        boolean first = true;

        ItemSender(PlannedItem p, MessageDigest md5) {
            this.p = p;
            this.md5 = md5;
        }

        void emit(byte[] data, int length, boolean last) throws IOException {
            if (md5 != null) {
                md5.update(data, 0, length);
            }
            long seq = nextSeq;
            try {
                if (seq >= suppressBelow) {
                    awaitWindow(seq);
                    BytesMessage m = session.createBytesMessage();
                    stamp(m, Wire.DATA);
                    m.setLongProperty(Wire.SEQ, seq);
                    m.setIntProperty(Wire.ITEM, p.index());
                    m.setLongProperty(Wire.OFFSET, bytes);
                    m.setBooleanProperty(Wire.FIRST, first);
                    m.setBooleanProperty(Wire.LAST, last);
                    if (first) {
                        describeItem(m, p);
                    }
                    if (last) {
                        m.setLongProperty(Wire.ITEM_BYTES, bytes + length);
                        if (md5 != null) {
                            m.setStringProperty(Wire.MD5, HexFormat.of().formatHex(md5.digest()));
                        }
                    }
                    m.writeBytes(data, 0, length);
                    producer.send(m, DeliveryMode.NON_PERSISTENT, producer.getPriority(), chunkTimeToLiveMillis);
                    bytesSent += length;
                    if (seq <= highestSent) {
                        bytesResent += length;
                    }
                    highestSent = Math.max(highestSent, seq);
                    sendingItem = p.index();
                    sendingItemBytes = bytes + length;
                }
            } catch (JMSException e) {
                throw new SendFailure(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new Interrupted();
            } catch (Rewind | SkipItem | Abandon e) {
                throw new ControlFlow(e);
            }
            nextSeq = seq + 1;
            bytes += length;
            first = false;
        }
    }

    private void describeItem(Message m, PlannedItem p) throws JMSException {
        var d = p.item().destination();
        m.setStringProperty(Wire.DEST_PATH, d.path());
        m.setStringProperty(Wire.DEST_TYPE, d.type().name().toLowerCase(java.util.Locale.ROOT));
        m.setStringProperty(Wire.RELATIVE_PATH, p.file().relativePath());
        m.setStringProperty(Wire.EXIST, d.exist().name().toLowerCase(java.util.Locale.ROOT));
        m.setStringProperty(Wire.CHECKSUM_METHOD, p.item().checksumMethod() == ChecksumMethod.MD5 ? "MD5" : "none");
        m.setStringProperty(Wire.MODE, p.item().mode() == Mode.TEXT ? "text" : "binary");
        m.setStringProperty(Wire.SOURCE_PATH, p.file().source().toString());
        m.setLongProperty(Wire.SOURCE_SIZE, p.file().size());
    }

    private void abortItem(PlannedItem p, String reason)
            throws JMSException, InterruptedException, Rewind, SkipItem, Abandon {
        log.warn("Transfer {}: item {} ({}) failed at the source: {}", id, p.index(), p.file().source(), reason);
        // Sent even below the resume point: when a file changed while the agent was down, the
        // destination may hold more of the item than the source now reads; it then takes the
        // abort, fails the item and asks for what follows (a NACK) from the abort's number on.
        long seq = nextSeq;
        {
            awaitWindow(seq);
            Message m = session.createMessage();
            stamp(m, Wire.ITEM_ABORT);
            m.setLongProperty(Wire.SEQ, seq);
            m.setIntProperty(Wire.ITEM, p.index());
            m.setStringProperty(Wire.SUPPLEMENT, reason);
            describeItem(m, p);
            producer.send(m);
        }
        nextSeq = seq + 1;
    }

    /** Waits until chunk {@code seq} fits in the window, handling answers meanwhile. */
    private void awaitWindow(long seq) throws InterruptedException, Rewind, SkipItem, Abandon, JMSException {
        drainInbox();
        while (seq - lastAcked > maxUnacked) {
            awaitProgress();
        }
    }

    /** Handles the answers already there, without waiting. */
    private void drainInbox() throws Rewind, SkipItem, Abandon, JMSException {
        Control c;
        while ((c = inbox.poll()) != null) {
            handle(c);
        }
        if (cancelRequested) {
            throw new Abandon(41, null);
        }
    }

    private void endRecovery() {
        if (recoveringSinceNanos >= 0) {
            recoveringSinceNanos = -1;
            engine.listener().recovered(engine.agentName(), id);
        }
    }

    /** Waits up to the acknowledgement timeout for an answer; on timeout resends or recovers. */
    private void awaitProgress() throws InterruptedException, Rewind, SkipItem, Abandon, JMSException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ackTimeoutMillis);
        long before = lastAcked;
        while (System.nanoTime() < deadline) {
            if (cancelRequested) {
                throw new Abandon(41, null);
            }
            Control c = inbox.poll(100, TimeUnit.MILLISECONDS);
            if (c != null) {
                handle(c);
                if (lastAcked != before || c.type().equals(Wire.ITEM_DONE)) {
                    retries = 0;
                    endRecovery();
                    return;
                }
            }
        }
        noAnswer("no acknowledgement arrived");
        if (recoveringSinceNanos < 0) {
            // A retry: ask the destination where it is rather than resending the window blindly
            // (to a destination that is down, that would only pile up chunks nobody reads).
            Message ask = session.createMessage();
            stamp(ask, Wire.ACK_REQUEST);
            ask.setLongProperty(Wire.NEXT_SEQ, nextSeq);
            producer.send(ask, DeliveryMode.NON_PERSISTENT, producer.getPriority(), ackTimeoutMillis);
            return;
        }
        // In recovery: resynchronise, the destination says where to continue.
        incarnation++;
        negotiate();
        engine.listener().resending(engine.agentName(), id, lastAcked + 1, "resynchronised after a timeout");
        throw new Rewind(lastAcked + 1);
    }

    private void handle(Control c) throws Rewind, SkipItem, Abandon, JMSException {
        if (c.incarnation() != incarnation && !Wire.ITEM_DONE.equals(c.type())) {
            return;
        }
        switch (c.type()) {
            case Wire.ACK -> {
                if (c.seq() > lastAcked) {
                    lastAcked = c.seq();
                    engine.listener().progress(engine.agentName(), id, sendingItem, sendingItemBytes, bytesSent);
                }
                if (c.checkpoint()) {
                    engine.sourceCheckpoint(this, c.seq() + 1);
                }
            }
            case Wire.NACK -> {
                // Everything below nextSeq is there, nothing from it on: exact, even below an
                // earlier acknowledgement (a destination that voided an item aborted late).
                lastAcked = c.nextSeq() - 1;
                if (c.nextSeq() < nextSeq) {
                    engine.listener().resending(engine.agentName(), id, c.nextSeq(), "the destination reported a gap");
                    throw new Rewind(c.nextSeq());
                }
            }
            case Wire.ITEM_DONE -> itemDone(c);
            case Wire.CANCELLED, Wire.CANCEL_REQUEST -> {
                cancelReason = c.supplement();
                cancelRequested = true;
                throw new Abandon(41, null);
            }
            default -> log.debug("Transfer {}: ignored {} message", id, c.type());
        }
    }

    private void itemDone(Control c) throws SkipItem {
        int index = c.item();
        if (index < 0 || index >= results.length || results[index] != null) {
            return;
        }
        if (c.seq() > lastAcked) {
            lastAcked = c.seq();
        }
        PlannedItem p = items.get(index);
        int code = c.resultCode();
        String supplement = c.supplement();
        if (code == ItemOutcome.SUCCESS && p.item().source().disposition() == Disposition.DELETE) {
            try {
                Files.delete(p.file().source());
            } catch (NoSuchFileException e) {
                // Deleted already: by this agent just before a restart (the result was not yet
                // journaled), or by someone else; either way the disposition holds.
                log.info("Transfer {}: source {} was already deleted", id, p.file().source());
            } catch (IOException e) {
                code = ItemOutcome.WARNING;
                supplement = "BFGTR0075W: The source file \"" + p.file().source()
                        + "\" was transferred but could not be deleted: " + e;
            }
        }
        ItemOutcome outcome = new ItemOutcome(index, p.file().source().toString(),
                c.destFile() != null ? c.destFile() : p.item().destination().path(), c.bytes(), code, supplement,
                c.md5());
        results[index] = outcome;
        itemLastSeq[index] = c.seq();
        try {
            StateFiles.appendResult(engine.sourceResults(id), new StateFiles.Result(outcome, itemFirstSeq[index],
                    c.seq()));
        } catch (IOException e) {
            log.warn("Transfer {}: could not journal the result of item {}: {}", id, index, e.toString());
        }
        engine.listener().itemCompleted(engine.agentName(), Role.SOURCE, id, outcome);
        boolean sending = itemFirstSeq[index] >= 0 && index == currentItem();
        if (code == ItemOutcome.FAILED && sending) {
            throw new SkipItem();
        }
    }

    private int currentItem() {
        for (int i = itemFirstSeq.length - 1; i >= 0; i--) {
            if (itemFirstSeq[i] >= 0) {
                return i;
            }
        }
        return -1;
    }

    private int rewindTo(long seq) {
        int index = 0;
        for (int i = 0; i < itemFirstSeq.length; i++) {
            if (itemFirstSeq[i] >= 0 && itemFirstSeq[i] <= seq) {
                index = i;
            }
        }
        for (int i = index + 1; i < itemFirstSeq.length; i++) {
            itemFirstSeq[i] = -1;
        }
        suppressBelow = seq;
        nextSeq = itemFirstSeq[index] < 0 ? seq : itemFirstSeq[index];
        return index;
    }

    // ----------------------------------------------------------------------------------------
    // Ending

    private TransferOutcome cancelNow() throws JMSException, InterruptedException {
        sendControl(Wire.CANCEL, cancelReason);
        // Wait a bounded time for the destination to confirm it removed its partial files; one that
        // never accepted the transfer has none.
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.min(ackTimeoutMillis, 30_000));
        while (negotiated && System.nanoTime() - deadline < 0) {
            Control c = inbox.poll(100, TimeUnit.MILLISECONDS);
            if (c != null && Wire.CANCELLED.equals(c.type())) {
                break;
            }
            if (c != null && Wire.ITEM_DONE.equals(c.type())) {
                try {
                    itemDone(c);
                } catch (SkipItem ignored) {
                    // Cancelling anyway.
                }
            }
        }
        return finish(41, cancelMessage());
    }

    private String cancelMessage() {
        return "BFGTR0079I: The transfer was cancelled" + (cancelReason == null ? "." : ": " + cancelReason);
    }

    private void sendControl(String type, String supplement) throws JMSException {
        Message m = session.createMessage();
        stamp(m, type);
        if (supplement != null) {
            m.setStringProperty(Wire.SUPPLEMENT, supplement);
        }
        producer.send(m);
    }

    private void stamp(Message m, String type) throws JMSException {
        m.setIntProperty(Wire.PROTOCOL, Wire.VERSION);
        m.setStringProperty(Wire.TYPE, type);
        m.setStringProperty(Wire.TRANSFER_ID, id);
        m.setIntProperty(Wire.INCARNATION, incarnation);
        m.setJMSCorrelationID(id);
    }

    /**
     * The outcome: {@code resultCode} when the transfer ends early (items without a result are
     * failed with {@code supplement}); otherwise computed from the item results.
     */
    private TransferOutcome finish(int resultCode, String supplement) {
        if (resultCode == 41 && supplement == null) {
            supplement = cancelMessage();
        }
        List<ItemOutcome> outcomes = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            ItemOutcome r = results[i];
            if (r == null) {
                PlannedItem p = items.get(i);
                r = new ItemOutcome(i, p.file().source().toString(), p.item().destination().path(), 0,
                        ItemOutcome.FAILED, supplement, null);
            }
            outcomes.add(r);
        }
        int code = resultCode;
        if (code < 0) {
            code = resultCode(outcomes);
            supplement = summary(code, outcomes);
        }
        return new TransferOutcome(id, code, supplement, outcomes, started == null ? Instant.now() : started,
                Instant.now());
    }

    /** 0 when every item succeeded, 40 when every one failed, else 20. */
    static int resultCode(List<ItemOutcome> outcomes) {
        long failed = outcomes.stream().filter(o -> o.resultCode() == ItemOutcome.FAILED).count();
        return failed == 0 ? 0 : failed == outcomes.size() ? 40 : 20;
    }

    /** The supplement of a transfer's result 0, 20 or 40, with the first item's problem. */
    static String summary(int code, List<ItemOutcome> outcomes) {
        long failed = outcomes.stream().filter(o -> o.resultCode() == ItemOutcome.FAILED).count();
        String firstProblem = outcomes.stream().filter(o -> o.resultCode() == ItemOutcome.FAILED)
                .map(ItemOutcome::supplement).filter(java.util.Objects::nonNull).findFirst().map(s -> " " + s)
                .orElse("");
        return code == 0 ? "BFGRP0032I: The file transfer request has successfully completed."
                : code == 20 ? "BFGRP0034I: The file transfer request has completed with problems: " + failed
                        + " of " + outcomes.size() + " files failed." + firstProblem
                        : "BFGRP0033E: The file transfer request has failed: no file was transferred." + firstProblem;
    }

    private static MessageDigest newMd5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JVM has no MD5", e);
        }
    }

    /** Carries a JMS failure out of the text converter's sink. */
    private static final class SendFailure extends IOException {
        private static final long serialVersionUID = 1L;
        final JMSException jms;

        SendFailure(JMSException jms) {
            super(jms.getMessage(), jms);
            this.jms = jms;
        }
    }

    /** Carries an interruption out of the text converter's sink. */
    private static final class Interrupted extends IOException {
        private static final long serialVersionUID = 1L;

        Interrupted() {
            super("interrupted", null);
        }
    }

    /** Carries the transfer's control-flow signals out of the text converter's sink. */
    private static final class ControlFlow extends IOException {
        private static final long serialVersionUID = 1L;
        final Exception signal;

        ControlFlow(Exception signal) {
            super(null, null);
            this.signal = signal;
        }

        void rethrow() throws Rewind, SkipItem, Abandon {
            if (signal instanceof Rewind r) {
                throw r;
            }
            if (signal instanceof SkipItem s) {
                throw s;
            }
            throw (Abandon) signal;
        }
    }
}
