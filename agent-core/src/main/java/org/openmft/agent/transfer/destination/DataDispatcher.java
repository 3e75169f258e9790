package org.openmft.agent.transfer.destination;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadFactory;

import jakarta.jms.BytesMessage;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

import org.openmft.agent.AgentListener;
import org.openmft.agent.AgentListener.Role;
import org.openmft.agent.ResultCode;
import org.openmft.agent.authority.Authority;
import org.openmft.agent.authority.AuthorityCheck;
import org.openmft.agent.authority.AuthorityRefusal;
import org.openmft.agent.authority.AuthorityStamp;
import org.openmft.agent.authority.HeldAuthorities;
import org.openmft.agent.calls.CallRunner;
import org.openmft.agent.compression.ChunkCompressor;
import org.openmft.agent.compression.CompressionException;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.exits.TransferExitContext;
import org.openmft.agent.exits.TransferExitResult;
import org.openmft.agent.messaging.ArtemisTuning;
import org.openmft.agent.messaging.ConsumerLoop;
import org.openmft.agent.messaging.ProviderErrors;
import org.openmft.agent.messaging.Routing;
import org.openmft.agent.protection.MessageProtection;
import org.openmft.agent.protection.ProtectionException;
import org.openmft.agent.protection.ProtectionLevel;
import org.openmft.agent.transfer.protocol.MessageTag;
import org.openmft.agent.transfer.protocol.ProtocolCodec;
import org.openmft.agent.transfer.protocol.Rejections;
import org.openmft.agent.transfer.protocol.Start;
import org.openmft.agent.transfer.protocol.TransferIds;
import org.openmft.agent.transfer.protocol.Wire;
import org.openmft.agent.transfer.state.StateException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The destination's dispatcher: one thread serves {@code SYSTEM.FTE.DATA.<agent>}, admits STARTs
 * ({@link DestinationAdmission}), and hands every other message to the transfer it belongs to,
 * in order, once it has checked that the message comes from the transfer's source (a valid id,
 * the transfer's tag, the START's user, an intact chunk: see {@link MessageTag}); what fails is
 * dropped ({@link Rejections}). It owns the session the answers to sources go out on
 * ({@link ReplySender}), and ends transfers whose source fell silent ({@code expireSilent}).
 *
 * <p>Thread-safety: the transfers are touched by the dispatcher's thread only; {@link #find},
 * {@link #keyOf}, {@link #activeCount} and {@link #close} may be called from others.
 */
public final class DataDispatcher implements ReplySender {
    private static final Logger log = LoggerFactory.getLogger(DataDispatcher.class);
    /** How often silent sources are looked for. */
    private static final Duration SWEEP_INTERVAL = Duration.ofSeconds(1);

    private final String agentName;
    private final Session session;
    private final MessageProducer producer;
    private final ProtocolCodec codec;
    private final Map<String, DestinationTransfer> incoming = new HashMap<>();
    private final Runnable activity;
    private final AuthorityCheck authorityCheck;
    private final MessageProtection protection;
    private final Routing routing;
    private final ConsumerLoop loop;
    private final Rejections rejections;
    private final ThreadFactory threads;
    private final AgentListener listener;
    /** Program calls of the transfers here; replaced by {@link #runCallsWith} before {@link #start()}. */
    private DestinationCalls calls;
    /** The START being refused, whose key tags the refusal; set and cleared by the dispatcher's thread. */
    private volatile PendingStart answering;

    private record PendingStart(String id, byte[] key) {
    }

    /** When {@link #expireSilent} last looked; the dispatcher's thread only. */
    private Instant lastSweep;
    private DestinationContext context;
    /** Where chunks are read to; grown for a larger chunk. Used by the loop's thread only. */
    private byte[] buffer = new byte[256 * 1024];
    /** Where encrypted chunks are decrypted to; as {@link #buffer}. */
    private byte[] plain = new byte[256 * 1024];
    /** Where compressed chunks are decompressed to, never past the largest chunk accepted. */
    private final ChunkCompressor inflater = new ChunkCompressor(ArtemisTuning.MAX_NORMAL_MESSAGE_BYTES);

    /**
     * @param session  the dispatcher's own session (non-transacted)
     * @param authorityCheck what the queue manager says a START's sender may do here
     * @param protection the protection this agent requires of each source, and its keys
     * @param routing  how answers reach sources on other queue managers
     * @param activity told whenever the number of transfers may have changed
     * @param listener told of every message dropped unread
     */
    public DataDispatcher(String agentName, Session session, AuthorityCheck authorityCheck,
            MessageProtection protection, Routing routing, Runnable activity, ThreadFactory threads,
            AgentListener listener) throws JMSException {
        this.protection = protection;
        this.routing = routing;
        this.agentName = agentName;
        this.session = session;
        this.producer = session.createProducer(null);
        producer.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
        this.codec = new ProtocolCodec(session, this::keyOf);
        this.rejections = new Rejections(agentName, QueueNames.data(agentName), listener);
        this.activity = activity;
        this.authorityCheck = authorityCheck;
        String queue = QueueNames.data(agentName);
        this.loop = new ConsumerLoop(agentName, queue, session.createConsumer(session.createQueue(queue)),
                this::serve, threads, "data");
        this.threads = threads;
        this.listener = listener;
        this.calls = new DestinationCalls(agentName, CallRunner.none(), listener, threads);
        loop.tick(() -> {
            settleForced();
            expireSilent();
            calls.drain(this::find, this);
        });
        // Both look at running transfers only: with none, the loop may wait long for the next START.
        loop.idleWhen(() -> {
            synchronized (incoming) {
                return incoming.isEmpty();
            }
        });
    }

    /** Runs the transfers' destination calls with {@code runner} (before {@link #start()}). */
    public void runCallsWith(CallRunner runner) {
        calls.close();
        calls = new DestinationCalls(agentName, runner, listener, threads);
    }

    /** The context its transfers get (it names this dispatcher as their {@link ReplySender}). */
    public void context(DestinationContext context) {
        this.context = context;
    }

    /** Takes back a transfer resumed after a restart (before {@link #start()}). */
    public void adopt(DestinationTransfer t) {
        synchronized (incoming) {
            incoming.put(t.id(), t);
        }
    }

    /** Starts serving the DATA queue (the connection must be started too). */
    public void start() {
        loop.start();
    }

    @Override
    public ProtocolCodec codec() {
        return codec;
    }

    @Override
    public void send(String sourceAgent, String sourceQMgr, Message m) throws JMSException {
        String queue = QueueNames.reply(sourceAgent);
        routing.address(m, queue, sourceQMgr);
        producer.send(routing.destination(session, queue, sourceQMgr), m);
    }

    /**
     * The key of a transfer received here: a running one's, or that of the START being answered
     * (refused before it became a transfer); null for any other.
     */
    public byte[] keyOf(String id) {
        DestinationTransfer t = find(id);
        if (t != null) {
            return t.key();
        }
        PendingStart p = answering;
        return p != null && p.id().equals(id) ? p.key() : null;
    }

    /** Messages dropped unread (forged, damaged, malformed ids). */
    public long rejected() {
        return rejections.count();
    }

    /** The running transfer of this id, or null. */
    public DestinationTransfer find(String id) {
        synchronized (incoming) {
            return incoming.get(id);
        }
    }

    /** Transfers running here (not ended). */
    public int activeCount() {
        synchronized (incoming) {
            return (int) incoming.values().stream().filter(t -> !t.ended()).count();
        }
    }

    private void serve(Message m) throws JMSException {
        if (ProtocolCodec.versionOkOrWarn(m, agentName)) {
            handle(m);
        }
    }

    private void handle(Message m) throws JMSException {
        String type = ProtocolCodec.type(m);
        String id = ProtocolCodec.transferId(m);
        // Nothing below builds a file name, selector or log line from an id that is not IBM's shape.
        if (!TransferIds.isValid(id)) {
            rejections.reject(m, "not a transfer id (48 lower-case hex characters)");
            return;
        }
        String sender = AuthorityStamp.sender(m);
        if (Wire.START.equals(type)) {
            byte[] key;
            ProtectionLevel level;
            try {
                level = ProtocolCodec.protection(m);
                key = ProtocolCodec.startKey(m, protection.keys());
            } catch (ProtectionException | IllegalArgumentException e) {
                rejections.reject(m, "a protected START that cannot be opened: " + e.getMessage());
                return;
            }
            if (!MessageTag.verify(m, key)) {
                rejections.reject(m, "a START without a transfer key and a tag made with it");
                return;
            }
            onStart(ProtocolCodec.readStart(m), key, level, authorityCheck.held(m, agentName), sender, m);
            return;
        }
        DestinationTransfer t = find(id);
        if (t == null) {
            log.debug("Agent {}: {} message for unknown transfer {} dropped", agentName, type, id);
            return;
        }
        if (!MessageTag.verify(m, t.key())) {
            rejections.reject(m, t.key() == null ? "the transfer waits for its source's START (no key yet)"
                    : "its tag is not the transfer's: it does not come from the transfer's source agent");
            return;
        }
        if (!t.fromSourceUser(sender)) {
            rejections.reject(m, "the transfer was started by another user");
            return;
        }
        t.heard();
        switch (type) {
            case Wire.DATA -> {
                BytesMessage b = (BytesMessage) m;
                long length = b.getBodyLength();
                if (length > ArtemisTuning.MAX_NORMAL_MESSAGE_BYTES) {
                    log.warn("Transfer {}: chunk of {} bytes exceeds the limit; dropped", id, length);
                    return;
                }
                if (length > buffer.length) {
                    buffer = new byte[(int) length];
                }
                b.readBytes(buffer, (int) length);
                if (!ProtocolCodec.bodyIntact(m, buffer, (int) length)) {
                    rejections.reject(m, "its body does not match its CRC32C (damaged); it is asked for again");
                    t.onDamagedChunk(ProtocolCodec.incarnation(m), m.getLongProperty(Wire.SEQ));
                    return;
                }
                ProtectionLevel declared = ProtocolCodec.protection(m);
                if (!declared.satisfies(t.protection())
                        || !declared.satisfies(protection.levelFor(t.sourceAgent()))) {
                    rejections.reject(m, "its protection (" + declared.word() + ") is below the transfer's ("
                            + t.protection().word() + ") or what this agent requires of its source");
                    return;
                }
                if (plain.length < length) {
                    plain = new byte[(int) length];
                }
                ProtocolCodec.Chunk chunk = ProtocolCodec.openBody(m, declared, t.key(), buffer, (int) length, plain);
                if (chunk == null) {
                    rejections.reject(m, "its body is not the one its source protected (changed on the way); it is"
                            + " asked for again");
                    t.onDamagedChunk(ProtocolCodec.incarnation(m), m.getLongProperty(Wire.SEQ));
                    return;
                }
                try {
                    chunk = ProtocolCodec.decompressBody(m, chunk, inflater);
                } catch (CompressionException e) {
                    // Damaged on the way: asked for again, like a CRC failure. A method this agent cannot
                    // decompress would come back the same: dropped, and the source's retries end the transfer.
                    rejections.reject(m, e.getMessage() + (e.damaged() ? "; it is asked for again" : ""));
                    if (e.damaged()) {
                        t.onDamagedChunk(ProtocolCodec.incarnation(m), m.getLongProperty(Wire.SEQ));
                    }
                    return;
                }
                t.onSequenced(ProtocolCodec.readSequenced(m), chunk.bytes(), chunk.length());
            }
            case Wire.ITEM_ABORT -> t.onSequenced(ProtocolCodec.readSequenced(m), buffer, 0);
            case Wire.ACK_REQUEST -> t.onAckRequest(ProtocolCodec.incarnation(m), ProtocolCodec.nextSeq(m),
                    ProtocolCodec.firstOpenItem(m));
            case Wire.CANCEL -> {
                t.cancel(ProtocolCodec.supplement(m));
                forget(t);
            }
            case Wire.COMPLETE_ACK -> forget(t);
            case Wire.CALL -> calls.onCall(t, m, this, known -> find(known) != null);
            default -> log.debug("Transfer {}: ignored {} message", id, type);
        }
        if (t.gaveUp()) {
            forget(t);
        }
    }

    private void onStart(Start start, byte[] key, ProtectionLevel level, HeldAuthorities held, String senderUser,
            Message m) throws JMSException {
        DestinationTransfer existing = find(start.transferId());
        if (existing != null) {
            if (!existing.startFromSource(key, senderUser)) {
                rejections.reject(m, "a START for a running transfer with another key or from another user than"
                        + " its source's");
                return;
            }
            if (!level.satisfies(protection.levelFor(start.sourceAgent()))) {
                rejections.reject(m, "a START with less protection (" + level.word() + ") than this agent requires of"
                        + " source agent " + start.sourceAgent() + " now");
                return;
            }
            existing.protectedAt(level);
            existing.heard();
            existing.restart(start.incarnation(), start.firstOpenItem());
            if (existing.gaveUp()) {
                forget(existing);
            }
            return;
        }
        DestinationAdmission.Refusal no = DestinationAdmission.judge(context.settings(), start.itemCount(),
                activeCount(), start.authorityChecking(), held, senderUser);
        ProtectionLevel required = protection.levelFor(start.sourceAgent());
        if (no == null && !level.satisfies(required)) {
            no = new DestinationAdmission.Refusal(ResultCode.MESSAGE_PROTECTION, "BFGTR0098E: Destination agent "
                    + agentName + " requires message protection '" + required.word() + "' from source agent "
                    + start.sourceAgent() + ", which sent '" + level.word() + "' (openmft.messageProtection)", false);
        }
        if (no == null && context.exits().any()) {
            TransferExitResult exit = context.exits().destinationStart(new TransferExitContext(start.transferId(),
                    start.sourceAgent(), agentName, context.exits().environment(), Map.of(), List.of()));
            if (!exit.proceed()) {
                no = new DestinationAdmission.Refusal(ResultCode.STOPPED_BY_EXIT, "The transfer was refused by a user"
                        + " exit of destination agent " + agentName + ": " + exit.reason(), false);
            }
        }
        if (no != null) {
            if (no.code() == ResultCode.NOT_AUTHORIZED || no.code() == ResultCode.AUTHORITY_CHECKING_MISMATCH
                    || no.code() == ResultCode.MESSAGE_PROTECTION) {
                log.warn("Agent {}: transfer {} from source agent {} refused: {}", agentName, start.transferId(),
                        start.sourceAgent(), no.supplement());
            }
            if (no.code() == ResultCode.NOT_AUTHORIZED) {
                context.listener().notAuthorized(agentName, new AuthorityRefusal(start.transferId(), senderUser,
                        Authority.AGENT_SEND, "destinationAgent", no.supplement(), null));
            }
            answering = new PendingStart(start.transferId(), key);
            try {
                send(start.sourceAgent(), start.sourceQMgr(), codec.startRefused(start.transferId(),
                        start.incarnation(), no.code().code(), no.supplement(), no.retry()));
            } finally {
                answering = null;
            }
            return;
        }
        DestinationTransfer t = DestinationTransfer.fromStart(context, start, key, senderUser);
        t.protectedAt(level);
        try {
            t.adoptJournal();
        } catch (StateException e) {
            log.warn("Transfer {}: could not read the results journal left from before a restart: {}", t.id(),
                    e.getMessage());
        }
        synchronized (incoming) {
            incoming.put(t.id(), t);
        }
        context.listener().transferStarted(agentName, Role.DESTINATION, t.info());
        activity.run();
        // Recorded at once, so a restart before the first checkpoint still knows the transfer and
        // its results journal.
        t.submitRecord(-1, null);
        t.restart(t.incarnation(), -1);
        if (t.itemCount() == 0 || t.gaveUp()) {
            forget(t);
        }
    }

    /**
     * Ends, on the dispatcher's thread, the transfers whose source has been silent past
     * {@code openmft.sourceSilenceTimeout}, so that neither a source gone for good nor a START
     * nobody follows holds a slot, a partial file and a record for ever. Looks once a second.
     */
    private void expireSilent() {
        Duration bound = context == null ? null : context.settings().sourceSilence();
        if (bound == null) {
            return;
        }
        Instant now = context.clock().instant();
        if (lastSweep != null && Duration.between(lastSweep, now).compareTo(SWEEP_INTERVAL) < 0) {
            return;
        }
        lastSweep = now;
        List<DestinationTransfer> silent;
        synchronized (incoming) {
            silent = incoming.values().stream()
                    .filter(t -> Duration.between(t.lastHeard(), now).compareTo(bound) > 0).toList();
        }
        for (DestinationTransfer t : silent) {
            String why = "BFGTR0096E: source agent " + t.sourceAgent() + " sent nothing for transfer " + t.id()
                    + " since " + t.lastHeard() + " (openmft.sourceSilenceTimeout is " + bound.toSeconds()
                    + " s); the destination ends it and removes its partial file";
            log.warn("Agent {}: {}", agentName, why);
            t.expire(why);
            forget(t);
        }
    }

    /** Lets each transfer settle its items whose files are forced, between messages too. */
    private void settleForced() {
        List<DestinationTransfer> all;
        synchronized (incoming) {
            all = new ArrayList<>(incoming.values());
        }
        for (DestinationTransfer t : all) {
            try {
                t.settleForced();
            } catch (JMSException e) {
                log.warn("Agent {}: transfer {}: an item's result could not be sent: {}", agentName, t.id(),
                        ProviderErrors.describe(e));
            }
            if (t.gaveUp()) {
                forget(t);
            }
        }
    }

    private void forget(DestinationTransfer t) {
        calls.forget(t.id());
        t.close();
        synchronized (incoming) {
            incoming.remove(t.id());
        }
        activity.run();
        try {
            context.checkpointer().submit(Checkpointer.Job.removal(t.id()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Stops serving and suspends the running transfers: partial files and records stay, and the
     * transfers resume when the agent next starts.
     *
     * @return whether the dispatcher's thread ended within {@code wait}
     */
    public boolean close(Duration wait) {
        boolean ended = loop.close(wait);
        calls.close();
        List<DestinationTransfer> all;
        synchronized (incoming) {
            all = new ArrayList<>(incoming.values());
            incoming.clear();
        }
        all.forEach(DestinationTransfer::suspend);
        return ended;
    }
}
