package org.openmft.agent.metrics;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.openmft.agent.AgentListener;
import org.openmft.agent.AgentService;
import org.openmft.agent.ForwardingAgentListener;
import org.openmft.agent.ItemOutcome;
import org.openmft.agent.ResultCode;
import org.openmft.agent.TransferInfo;
import org.openmft.agent.TransferOutcome;
import org.openmft.agent.lifecycle.AgentThreads;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * An agent's meters, kept from its events: it sits in the agent's listener chain in front of the
 * agent's service (the coordination publisher), records what it hears and passes every event on.
 * The meters, all tagged {@code agent} by the registry:
 * <ul>
 * <li>{@code openmft_agent_transfers_running{role}}: transfers running here as source or
 * destination;</li>
 * <li>{@code openmft_agent_transfers_queued}: transfers accepted at this source and waiting for a
 * slot;</li>
 * <li>{@code openmft_agent_transfers_ended_total{role,result,outcome}}: transfers ended, by MFT result
 * code ({@code result="0"}) and its name ({@code outcome="success"});</li>
 * <li>{@code openmft_agent_sent_bytes_total}: bytes the destinations acknowledged to this source (or,
 * for a transfer that fits in one window, reported written with its items), each byte once however
 * often it was sent; {@code openmft_agent_received_bytes_total}: bytes this destination wrote, chunk
 * by chunk as they arrive;</li>
 * <li>{@code openmft_agent_chunk_resends_total} and {@code openmft_agent_resent_bytes_total}: chunks
 * (and their bytes) this source sent again, counted as they go; {@code openmft_agent_rewinds_total}:
 * times it went back to do so (a gap, a lost acknowledgement, a resynchronisation);</li>
 * <li>{@code openmft_agent_checkpoint_lag_seconds}: the longest time a transfer running here as
 * destination has gone without a checkpoint (since its start when it has none yet); 0 when none
 * runs;</li>
 * <li>{@code openmft_agent_publication_backlog}: status and log publications waiting to be sent
 * (only when the service tells, see {@link PublicationBacklog});</li>
 * <li>{@code openmft_agent_queue_manager_reconnects_total} and
 * {@code openmft_agent_queue_manager_connected}.</li>
 * </ul>
 *
 * <p>Memory is bounded by the transfers running and queued: what is kept per transfer is removed
 * when it ends. Thread-safe: events come from several agent threads; gauges are read on scrapes.
 */
public class AgentMeters extends ForwardingAgentListener implements AgentService {
    private final AgentService next;
    private final Clock clock;
    private final MeterRegistry registry;
    /** Keyed by role and transfer id: an agent can be both ends of one transfer. */
    private final Map<String, Role> running = new ConcurrentHashMap<>();
    private final Map<String, Boolean> queued = new ConcurrentHashMap<>();
    /** What was counted as sent of each transfer running as source. */
    private final Map<String, Sent> sentSoFar = new ConcurrentHashMap<>();
    /** When each transfer running as destination last checkpointed (or started). */
    private final Map<String, Instant> lastCheckpoint = new ConcurrentHashMap<>();
    private final AtomicInteger connected = new AtomicInteger(1);
    private final Counter sent;
    private final Counter received;
    private final Counter resends;
    private final Counter resentBytes;
    private final Counter rewinds;
    private final Counter reconnects;

    /**
     * @param registry where the meters go; its common tags name the agent
     * @param next     the service every event is passed to, started and closed with this one
     * @param clock    for the checkpoint lag
     */
    public AgentMeters(MeterRegistry registry, AgentService next, Clock clock) {
        this.registry = registry;
        this.next = next == null ? AgentService.NONE : next;
        this.clock = clock;
        for (Role role : Role.values()) {
            Gauge.builder("openmft.agent.transfers.running", running, m -> count(m, role))
                    .tag("role", role.name().toLowerCase(Locale.ROOT))
                    .description("Transfers running at this agent, by its role in them").register(registry);
        }
        Gauge.builder("openmft.agent.transfers.queued", queued, Map::size)
                .description("Transfers accepted at this source agent and waiting for a slot").register(registry);
        sent = Counter.builder("openmft.agent.sent").baseUnit("bytes")
                .description("Bytes the destination agents acknowledged to this source agent").register(registry);
        received = Counter.builder("openmft.agent.received").baseUnit("bytes")
                .description("Bytes this destination agent wrote, as they arrive").register(registry);
        resends = Counter.builder("openmft.agent.chunk.resends")
                .description("Chunks this source agent sent again").register(registry);
        resentBytes = Counter.builder("openmft.agent.resent").baseUnit("bytes")
                .description("Bytes of the chunks this source agent sent again").register(registry);
        rewinds = Counter.builder("openmft.agent.rewinds")
                .description("Times this source agent went back to send chunks again").register(registry);
        Gauge.builder("openmft.agent.checkpoint.lag", this, AgentMeters::checkpointLagSeconds).baseUnit("seconds")
                .description("Longest time a transfer running here as destination has gone without a checkpoint")
                .register(registry);
        reconnects = Counter.builder("openmft.agent.queue.manager.reconnects")
                .description("Times this agent got its queue manager connection back after losing it")
                .register(registry);
        Gauge.builder("openmft.agent.queue.manager.connected", connected, AtomicInteger::get)
                .description("1 while this agent is connected to its queue manager, else 0").register(registry);
        if (this.next instanceof PublicationBacklog backlog) {
            Gauge.builder("openmft.agent.publication.backlog", backlog, PublicationBacklog::publicationsWaiting)
                    .description("Status and log publications waiting to be sent").register(registry);
        }
    }

    @Override
    protected AgentListener delegate() {
        return next;
    }

    /** The registry the meters are in. */
    public MeterRegistry registry() {
        return registry;
    }

    @Override
    public void start() {
        next.start();
    }

    @Override
    public void start(AgentThreads threads) {
        next.start(threads);
    }

    @Override
    public void close() {
        next.close();
    }

    @Override
    public void connectionLost(String agent, String qmgr, String reason) {
        connected.set(0);
        super.connectionLost(agent, qmgr, reason);
    }

    @Override
    public void connectionRestored(String agent, String qmgr) {
        connected.set(1);
        reconnects.increment();
        super.connectionRestored(agent, qmgr);
    }

    @Override
    public void transferQueued(String agent, TransferInfo transfer, int queuedNow) {
        queued.put(transfer.transferId(), Boolean.TRUE);
        super.transferQueued(agent, transfer, queuedNow);
    }

    @Override
    public void transferStarted(String agent, Role role, TransferInfo transfer) {
        began(role, transfer.transferId());
        super.transferStarted(agent, role, transfer);
    }

    @Override
    public void transferResumed(String agent, Role role, TransferInfo transfer, String reason) {
        began(role, transfer.transferId());
        super.transferResumed(agent, role, transfer, reason);
    }

    @Override
    public void progress(String agent, String transferId, int item, long itemBytesSent, long bytesSent) {
        Sent t = sentSoFar.get(transferId);
        if (t != null) {
            sent.increment(t.progress(bytesSent));
        }
        super.progress(agent, transferId, item, itemBytesSent, bytesSent);
    }

    @Override
    public void chunkWritten(String agent, String transferId, int item, int bytes) {
        received.increment(bytes);
        super.chunkWritten(agent, transferId, item, bytes);
    }

    @Override
    public void itemCompleted(String agent, Role role, String transferId, ItemOutcome item) {
        Sent t = role == Role.SOURCE ? sentSoFar.get(transferId) : null;
        if (t != null && item.resultCode() != ItemOutcome.FAILED) {
            sent.increment(t.itemDone(item.bytes()));
        }
        super.itemCompleted(agent, role, transferId, item);
    }

    @Override
    public void checkpointed(String agent, String transferId, long nextSeq) {
        lastCheckpoint.computeIfPresent(transferId, (id, t) -> clock.instant());
        super.checkpointed(agent, transferId, nextSeq);
    }

    @Override
    public void resending(String agent, String transferId, long fromSeq, String reason) {
        rewinds.increment();
        super.resending(agent, transferId, fromSeq, reason);
    }

    @Override
    public void chunkResent(String agent, String transferId, long seq, int bytes) {
        resends.increment();
        resentBytes.increment(bytes);
        Sent t = sentSoFar.get(transferId);
        if (t != null) {
            t.resent(bytes);
        }
        super.chunkResent(agent, transferId, seq, bytes);
    }

    @Override
    public void transferEnded(String agent, Role role, TransferOutcome outcome) {
        String id = outcome.transferId();
        running.remove(key(role, id));
        if (role == Role.SOURCE) {
            queued.remove(id);
            sentSoFar.remove(id);
        } else {
            lastCheckpoint.remove(id);
        }
        registry.counter("openmft.agent.transfers.ended", "role", role.name().toLowerCase(Locale.ROOT), "result",
                String.valueOf(outcome.resultCode()), "outcome", outcome(outcome.resultCode())).increment();
        super.transferEnded(agent, role, outcome);
    }

    private void began(Role role, String id) {
        running.put(key(role, id), role);
        if (role == Role.SOURCE) {
            queued.remove(id);
            // A resumed transfer numbers its resends afresh: its progress starts again from 0.
            sentSoFar.computeIfAbsent(id, x -> new Sent()).newRun();
        } else {
            lastCheckpoint.put(id, clock.instant());
        }
    }

    /**
     * The bytes sent of one transfer: the most its progress events said, less what was sent again in
     * their run (a resumed transfer's progress starts again from 0, and a transfer that fits in one
     * window may have none), or the bytes of its completed items when that is more; what is counted
     * only grows.
     */
    private static final class Sent {
        private long progress;
        private long resentThisRun;
        private long items;
        private long counted;

        /** A progress event; returns what to add to the counter. */
        synchronized long progress(long bytesSent) {
            progress = Math.max(progress, bytesSent - resentThisRun);
            return recount();
        }

        /** A chunk of this run sent again: its bytes are in the next progress's total once more. */
        synchronized void resent(long bytes) {
            resentThisRun += bytes;
        }

        /** The transfer (re)starts: its progress counts from 0 again. */
        synchronized void newRun() {
            resentThisRun = 0;
        }

        /** An item done; returns what to add to the counter. */
        synchronized long itemDone(long bytes) {
            items += bytes;
            return recount();
        }

        private long recount() {
            long now = Math.max(progress, items);
            long added = now - counted;
            counted = now;
            return added;
        }
    }

    private double checkpointLagSeconds() {
        Instant now = clock.instant();
        return lastCheckpoint.values().stream().mapToLong(t -> Duration.between(t, now).toMillis()).max()
                .orElse(0L) / 1000.0;
    }

    private static long count(Map<String, Role> running, Role role) {
        return running.values().stream().filter(r -> r == role).count();
    }

    private static String key(Role role, String id) {
        return role.name() + ':' + id;
    }

    /** The result code's name in lower case ({@code success}, {@code failed}), or {@code unknown}. */
    static String outcome(int resultCode) {
        try {
            return ResultCode.of(resultCode).name().toLowerCase(Locale.ROOT);
        } catch (IllegalArgumentException e) {
            return "unknown";
        }
    }
}
