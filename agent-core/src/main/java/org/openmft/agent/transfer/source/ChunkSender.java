package org.openmft.agent.transfer.source;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.Locale;
import java.util.function.IntSupplier;

import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;

import org.openmft.agent.transfer.failure.TransferFailure;
import org.openmft.agent.transfer.files.Access;
import org.openmft.agent.transfer.files.FileErrors;
import org.openmft.agent.transfer.files.SandboxViolationException;
import org.openmft.agent.transfer.protocol.ItemChecksum;
import org.openmft.agent.transfer.protocol.ItemHeader;
import org.openmft.agent.transfer.queue.QueueOptions;
import org.openmft.agent.transfer.protocol.ProtocolCodec;
import org.openmft.agent.transfer.source.SourceSignals.Rewind;
import org.openmft.agent.transfer.source.SourceSignals.SkipItem;
import org.openmft.agent.transfer.state.StateException;
import org.openmft.agent.transfer.text.TextConversionException;
import org.openmft.xml.Mode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where chunks are sent: reads an item ({@link ItemReader}), numbers its chunks
 * ({@link FlowControl}), waits for the window, and puts them on the destination's DATA queue,
 * over one channel or spread over several ({@link DataRoutes});
 * the checksum is computed over every byte, also those below the resume point that are read but
 * not sent. An item that cannot be read fails alone: an ITEM_ABORT tells the destination.
 *
 * <p>Not thread-safe: owned by the source transfer's thread.
 */
final class ChunkSender {
    private static final Logger log = LoggerFactory.getLogger(ChunkSender.class);

    /** Waits until a chunk fits in the window, handling the destination's answers meanwhile. */
    interface Window {
        void await(long seq) throws InterruptedException, Rewind, SkipItem, TransferFailure, JMSException,
                StateException;
    }

    private final String id;
    private final SourceContext context;
    private final String requesterUser;
    private final FlowControl flow;
    private final ItemReader reader;
    private final Window window;
    private final IntSupplier incarnation;
    private final long chunkTimeToLiveMillis;
    private ProtocolCodec codec;
    private DataRoutes routes;
    private int sendingItem;
    private long sendingItemBytes;

    /**
     * @param requesterUser         the user the queue manager validated for the request, or null
     * @param incarnation           the transfer's incarnation now (a resynchronisation raises it)
     * @param chunkTimeToLiveMillis how long an unread chunk lives on the queue
     */
    ChunkSender(String id, SourceContext context, String requesterUser, FlowControl flow, Window window,
            IntSupplier incarnation, long chunkTimeToLiveMillis) {
        this.id = id;
        this.context = context;
        this.requesterUser = requesterUser;
        this.flow = flow;
        this.reader = new ItemReader(context.settings().chunkSize(), context.settings().textReplacement());
        this.window = window;
        this.incarnation = incarnation;
        this.chunkTimeToLiveMillis = chunkTimeToLiveMillis;
    }

    /** Where the chunks go, once the transfer's session is open. */
    void bind(ProtocolCodec codec, DataRoutes routes) {
        this.codec = codec;
        this.routes = routes;
    }

    /** The item whose chunk was sent last. */
    int sendingItem() {
        return sendingItem;
    }

    /** Bytes of {@link #sendingItem()} sent so far. */
    long sendingItemBytes() {
        return sendingItemBytes;
    }

    /** Sends one item, or its ITEM_ABORT when it cannot be read. */
    void sendItem(PlannedItem p) throws JMSException, InterruptedException, Rewind, SkipItem, TransferFailure,
            StateException {
        flow.itemStarted(p.index());
        try {
            // Checked when the request was accepted, and again now: a queued transfer may wait long,
            // and meanwhile the file may have been replaced by a link that leads out of the sandbox,
            // or the requester's user sandbox changed.
            if (!p.fromQueue()) { // a queue item reads the agent's own spool
                context.paths().forRequester(requesterUser).sandbox().check(p.file().source(), Access.READ);
            }
        } catch (SandboxViolationException e) {
            abortItem(p, e.supplement());
            return;
        }
        Sink sink = new Sink(p, ItemChecksum.start(p.item().checksumMethod()));
        try {
            reader.read(p, sink);
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
            if (context.status().stopping()) {
                throw new InterruptedException("stopping while reading " + p.file().source());
            }
            abortItem(p, "BFGIO0003E: File \"" + p.file().source() + "\" could not be read: "
                    + FileErrors.reason(e));
        } catch (TextConversionException e) {
            abortItem(p, "BFGIO0058E: File \"" + p.file().source() + "\" could not be converted: " + e.getMessage());
        }
    }

    /**
     * Whether {@code p} may go inline ({@code maxInlineFileSize}): a binary file, not a queue's
     * spool, of at most that many bytes and at most one chunk.
     */
    static boolean inlineCandidate(PlannedItem p, long maxInlineFileSize, int chunkSize) {
        return maxInlineFileSize > 0 && !p.fromQueue() && p.item().mode() != Mode.TEXT
                && p.file().size() <= Math.min(maxInlineFileSize, chunkSize);
    }

    /**
     * An inline transfer: sends {@code p}, the transfer's only item, as message 0 through
     * {@code producer} right behind the START, before the destination answered it (the
     * destination takes the START first, as both come from one producer). The flow control is not
     * told: {@link FlowControl#sentAhead} once the START is accepted from 0, else the chunk is sent
     * again in the usual way. Anything unexpected (the sandbox refuses the file, it cannot be read,
     * it is more than one chunk now) sends nothing: the usual path then reads it and says why.
     *
     * @return the chunk's length, or -1 when nothing was sent
     */
    int sendInline(PlannedItem p, MessageProducer producer) throws JMSException {
        try {
            context.paths().forRequester(requesterUser).sandbox().check(p.file().source(), Access.READ);
            int[] sent = {-1};
            ItemChecksum checksum = ItemChecksum.start(p.item().checksumMethod());
            reader.read(p, (data, length, last) -> {
                if (!last || sent[0] >= 0) {
                    throw new IOException("not one chunk");
                }
                if (checksum != null) {
                    checksum.update(data, 0, length);
                }
                try {
                    Message m = codec.data(id, incarnation.getAsInt(), 0, p.index(), 0, true, true, header(p), length,
                            checksum == null ? null : checksum.finish().hex(), data, length);
                    producer.send(m, DeliveryMode.NON_PERSISTENT, producer.getPriority(), chunkTimeToLiveMillis);
                } catch (JMSException e) {
                    throw new SendFailure(e);
                }
                sent[0] = length;
            });
            return sent[0];
        } catch (SendFailure e) {
            throw e.jms;
        } catch (SandboxViolationException | IOException | TextConversionException e) {
            log.debug("Transfer {}: item {} goes the usual way, not inline: {}", id, p.index(), e.toString());
            return -1;
        }
    }

    private static ItemHeader header(PlannedItem p) {
        var d = p.item().destination();
        return new ItemHeader(d.path(), d.queue() != null ? "queue" : d.type().name().toLowerCase(Locale.ROOT),
                p.file().relativePath(), d.exist().name().toLowerCase(Locale.ROOT),
                p.item().checksumMethod().xmlValue(),
                p.item().mode() == Mode.TEXT ? "text" : "binary", p.file().source().toString(), p.file().size(),
                d.queue() == null ? null
                        : new QueueOptions(d.queue(), d.encoding(), p.file().lastModifiedMillis()).encode());
    }

    private void abortItem(PlannedItem p, String reason) throws JMSException, InterruptedException, Rewind, SkipItem,
            TransferFailure, StateException {
        log.warn("Transfer {}: item {} ({}) failed at the source: {}", id, p.index(), p.file().source(), reason);
        // Sent even below the resume point: when a file changed while the agent was down, the
        // destination may hold more of the item than the source now reads; it then takes the
        // abort, fails the item and asks for what follows (a NACK) from the abort's number on.
        long seq = flow.nextSeq();
        window.await(seq);
        routes.forSeq(seq).send(codec.itemAbort(id, incarnation.getAsInt(), seq, p.index(), header(p), reason));
        flow.advance();
    }

    /** Sends the chunks of one item, with flow control; rebuilds the checksum on resends. */
    private final class Sink implements ItemReader.ChunkSink {
        final PlannedItem p;
        final ItemChecksum checksum;
        long bytes;
        boolean first = true;

        Sink(PlannedItem p, ItemChecksum checksum) {
            this.p = p;
            this.checksum = checksum;
        }

        @Override
        public void emit(byte[] data, int length, boolean last) throws IOException {
            if (checksum != null) {
                checksum.update(data, 0, length);
            }
            long seq = flow.nextSeq();
            try {
                if (!flow.suppressed(seq)) {
                    window.await(seq);
                    String digest = last && checksum != null ? checksum.finish().hex() : null;
                    Message m = codec.data(id, incarnation.getAsInt(), seq, p.index(), bytes, first, last,
                            first ? header(p) : null, bytes + length, digest, data, length);
                    MessageProducer producer = routes.forSeq(seq);
                    producer.send(m, DeliveryMode.NON_PERSISTENT, producer.getPriority(), chunkTimeToLiveMillis);
                    if (flow.sent(seq, length)) {
                        context.listener().chunkResent(context.settings().agentName(), id, seq, length);
                    }
                    sendingItem = p.index();
                    sendingItemBytes = bytes + length;
                }
            } catch (JMSException e) {
                throw new SendFailure(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new Interrupted();
            } catch (Rewind | SkipItem | TransferFailure | StateException e) {
                throw new ControlFlow(e);
            }
            flow.advance();
            bytes += length;
            first = false;
        }
    }

    /** Carries a JMS failure out of the reader. */
    private static final class SendFailure extends IOException {
        private static final long serialVersionUID = 1L;
        final JMSException jms;

        SendFailure(JMSException jms) {
            super(jms.getMessage(), jms);
            this.jms = jms;
        }
    }

    /** Carries an interruption out of the reader. */
    private static final class Interrupted extends IOException {
        private static final long serialVersionUID = 1L;

        Interrupted() {
            super("interrupted", null);
        }
    }

    /** Carries the transfer's control-flow signals out of the reader. */
    private static final class ControlFlow extends IOException {
        private static final long serialVersionUID = 1L;
        final Exception signal;

        ControlFlow(Exception signal) {
            super(null, null);
            this.signal = signal;
        }

        void rethrow() throws Rewind, SkipItem, TransferFailure, StateException {
            if (signal instanceof Rewind r) {
                throw r;
            }
            if (signal instanceof SkipItem s) {
                throw s;
            }
            if (signal instanceof StateException s) {
                throw s;
            }
            throw (TransferFailure) signal;
        }
    }
}
