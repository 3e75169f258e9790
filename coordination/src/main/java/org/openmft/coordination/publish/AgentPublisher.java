package org.openmft.coordination.publish;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import org.openmft.agent.AgentListener;
import org.openmft.agent.AgentState;
import org.openmft.agent.Checksum;
import org.openmft.agent.ItemOutcome;
import org.openmft.agent.TransferInfo;
import org.openmft.agent.ResultCode;
import org.openmft.agent.TransferOutcome;
import org.openmft.agent.calls.CallResult;
import org.openmft.agent.authority.AuthorityRefusal;
import org.openmft.agent.config.AgentConfig;
import org.openmft.agent.messaging.Publications;
import org.openmft.agent.transfer.protocol.TransferIds;
import org.openmft.xml.AgentRef;
import org.openmft.xml.DocumentWriter;
import org.openmft.xml.ManagedCallRequest;
import org.openmft.xml.ProgramCall;
import org.openmft.xml.log.AgentStatus;
import org.openmft.xml.log.LogAction;
import org.openmft.xml.log.LogCall;
import org.openmft.xml.log.LogItem;
import org.openmft.xml.log.NotAuthorizedLog;
import org.openmft.xml.log.PublicationWriter;
import org.openmft.xml.log.Statistics;
import org.openmft.xml.log.TransferLog;
import org.openmft.xml.log.TransferProgress;

/**
 * Turns an agent's events into IBM MFT publications (reference §5): its status (retained, on
 * change at most every {@code agentStatusPublishRateLimit} and at least every
 * {@code agentStatusPublishRateMin}; lifecycle changes such as STOPPED at once), live progress
 * (at most once a second per transfer), and the transfer log ({@code started} always first, then
 * {@code progress} for finished items, gathered for up to a second or 50 items, then
 * {@code completed} or {@code cancelled}; {@code malformed} for unparseable requests).
 *
 * <p>Events arrive on agent threads; this class only builds documents and hands them to a
 * {@link PublicationBuffer}, never waiting for a queue manager. Thread-safe.
 */
final class AgentPublisher implements AgentListener {
    static final int MAX_ITEMS_PER_PROGRESS = 50;
    private static final Duration PROGRESS_INTERVAL = Duration.ofSeconds(1);
    private static final String VERSION = AgentPublisher.class.getPackage().getImplementationVersion() == null
            ? "development" : AgentPublisher.class.getPackage().getImplementationVersion();

    private final AgentConfig config;
    private final PublicationBuffer buffer;
    private final Clock clock;
    private final PublicationWriter writer = new PublicationWriter();
    private final String idPrefix;
    private final AtomicLong sequence = new AtomicLong();
    private final Instant startTime;
    private final String hostName;

    private AgentState state = AgentState.STARTING;
    private final Map<String, String> sourceStates = new LinkedHashMap<>();
    private final Map<String, String> destinationStates = new LinkedHashMap<>();
    private final Set<String> queued = new LinkedHashSet<>();
    private final Map<String, Tracked> transfers = new HashMap<>();
    private Instant lastStatus;
    private boolean statusChanged = true;

    /** A source transfer being logged. */
    private static final class Tracked {
        final TransferInfo info;
        final Map<Integer, TransferInfo.Item> planned = new HashMap<>();
        final Set<Integer> reported = new HashSet<>();
        final List<LogItem> pending = new ArrayList<>();
        boolean startedPublished;
        Instant actualStart;
        Instant pendingSince;
        Instant lastProgress;
        int pendingIndex;
        int reportedCount;
        long bytesSent;
        int recoveries;
        /** Program calls that ran, as their results came; written in IBM's order at the end. */
        final List<LogCall> calls = new ArrayList<>();

        Tracked(TransferInfo info) {
            this.info = info;
            for (TransferInfo.Item i : info.items()) {
                planned.put(i.index(), i);
            }
        }
    }

    AgentPublisher(AgentConfig config, PublicationBuffer buffer, Clock clock) {
        this.config = config;
        this.buffer = buffer;
        this.clock = clock;
        this.startTime = clock.instant();
        this.idPrefix = config.agentName() + ":" + startTime.toEpochMilli() + ":";
        this.hostName = localHostName();
    }

    private static String localHostName() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            return "localhost";
        }
    }

    private String agent() {
        return config.agentName();
    }

    private String nextId() {
        return idPrefix + sequence.incrementAndGet();
    }

    // ------------------------------------------------------------------------------------------
    // Status

    @Override
    public synchronized void stateChanged(String agent, AgentState next) {
        AgentState previous = state;
        state = next;
        statusChanged = true;
        boolean lifecycle = next == AgentState.STARTING || next == AgentState.STOPPED
                || next == AgentState.ENDED_UNEXPECTEDLY || previous == AgentState.STARTING;
        if (lifecycle) {
            publishStatus();
        }
    }

    /**
     * Whether {@link #tick} has only the status to look after (no transfer being logged), whose rates
     * are whole seconds: the sender may then wait a second between ticks instead of a fifth.
     */
    synchronized boolean idle() {
        return transfers.isEmpty();
    }

    /** Publishes what is due: a changed status, the periodic status, gathered progress items. */
    synchronized void tick() {
        Instant now = clock.instant();
        if (lastStatus == null
                || statusChanged && !now.isBefore(lastStatus.plus(config.statusPublishRateLimit()))
                || !now.isBefore(lastStatus.plus(config.statusPublishRateMin()))) {
            publishStatus();
        }
        for (Map.Entry<String, Tracked> e : transfers.entrySet()) {
            Tracked t = e.getValue();
            if (!t.pending.isEmpty() && !now.isBefore(t.pendingSince.plus(PROGRESS_INTERVAL))) {
                flushItems(e.getKey(), t);
            }
        }
    }

    private void publishStatus() {
        Instant now = clock.instant();
        lastStatus = now;
        statusChanged = false;
        var ep = config.endpoint();
        AgentStatus status = new AgentStatus(agent(), config.agentDesc().orElse(null), VERSION, "STANDARD",
                System.getProperty("os.name"), ZoneId.systemDefault().getId(), hostName, config.agentQMgr(),
                ep.clientMode() ? ep.host() : null, ep.clientMode() ? ep.port() : -1,
                ep.clientMode() ? ep.channel() : null, statusText(state), now, startTime,
                (int) config.statusPublishRateMin().toSeconds(), config.maxSourceTransfers(),
                config.maxDestinationTransfers(), config.maxQueuedTransfers(), queued.size(), sourceStates,
                destinationStates);
        buffer.add(new Publication(Publication.Kind.STATUS, Publications.agentStatus(agent()), writer.write(status),
                nextId()));
    }

    /** IBM's status words (reference §5.1). */
    static String statusText(AgentState s) {
        return switch (s) {
            case ENDED_UNEXPECTEDLY -> "ENDED UNEXPECTEDLY";
            default -> s.name();
        };
    }

    // ------------------------------------------------------------------------------------------
    // Transfers

    @Override
    public synchronized void transferQueued(String agent, TransferInfo transfer, int queuedCount) {
        transfers.put(transfer.transferId(), new Tracked(transfer));
        queued.add(transfer.transferId());
        statusChanged = true;
    }

    @Override
    public synchronized void transferStarted(String agent, Role role, TransferInfo transfer) {
        String id = transfer.transferId();
        statusChanged = true;
        if (role == Role.DESTINATION) {
            destinationStates.put(id, "RunningTransfer");
            return;
        }
        queued.remove(id);
        sourceStates.put(id, "RunningTransfer");
        Tracked t = transfers.computeIfAbsent(id, k -> new Tracked(transfer));
        t.actualStart = clock.instant();
        publishStarted(id, t);
    }

    /**
     * A transfer taken back after a restart: listed as recovering, its {@code started} record not
     * published again (the earlier run published it).
     */
    @Override
    public synchronized void transferResumed(String agent, Role role, TransferInfo transfer, String reason) {
        String id = transfer.transferId();
        statusChanged = true;
        if (role == Role.DESTINATION) {
            destinationStates.put(id, "RecoveringTransfer");
            return;
        }
        queued.remove(id);
        sourceStates.put(id, "RecoveringTransfer");
        Tracked t = transfers.computeIfAbsent(id, k -> new Tracked(transfer));
        t.actualStart = clock.instant();
        t.startedPublished = true;
        t.recoveries++;
    }

    private void publishStarted(String id, Tracked t) {
        if (t.startedPublished) {
            return;
        }
        t.startedPublished = true;
        TransferInfo i = t.info;
        TransferLog started = new TransferLog(DocumentWriter.VERSION, id, TransferLog.SOURCE_AGENT, LogAction.STARTED,
                clock.instant(), i.sourceAgent(), i.destinationAgent(), i.originator(), i.jobName(), i.accepted(),
                i.itemCount(), -1, -1, List.of(), null, List.of(), null, i.metadata());
        buffer.add(new Publication(Publication.Kind.LOG, Publications.log(agent(), id),
                writer.write(started, i.trigger(), i.scheduleLogId()), nextId()));
    }

    @Override
    public synchronized void progress(String agent, String transferId, int item, long itemBytesSent,
            long bytesSent) {
        Tracked t = transfers.get(transferId);
        if (t == null) {
            return;
        }
        t.bytesSent = bytesSent;
        Instant now = clock.instant();
        if (t.lastProgress != null && now.isBefore(t.lastProgress.plus(PROGRESS_INTERVAL))) {
            return;
        }
        t.lastProgress = now;
        TransferInfo.Item current = t.planned.get(item);
        TransferInfo i = t.info;
        TransferProgress p = new TransferProgress("4.00", transferId, i.sourceAgent(), i.destinationAgent(), now,
                bytesSent, secondsSince(t.actualStart, now), item + 1, i.itemCount(), itemBytesSent,
                current == null ? -1 : current.size(), current == null ? null : current.source(),
                current == null ? null : current.destination());
        buffer.add(new Publication(Publication.Kind.PROGRESS, Publications.transferProgress(agent(), transferId),
                writer.write(p), nextId()));
    }

    private static double secondsSince(Instant start, Instant now) {
        return start == null ? 0 : Duration.between(start, now).toMillis() / 1000.0;
    }

    @Override
    public synchronized void recovering(String agent, String transferId, String reason) {
        if (sourceStates.containsKey(transferId)) {
            sourceStates.put(transferId, "RecoveringTransfer");
            statusChanged = true;
        }
        Tracked t = transfers.get(transferId);
        if (t != null) {
            t.recoveries++;
        }
    }

    @Override
    public synchronized void recovered(String agent, String transferId) {
        if (sourceStates.containsKey(transferId)) {
            sourceStates.put(transferId, "RunningTransfer");
            statusChanged = true;
        }
        if (destinationStates.containsKey(transferId)) {
            destinationStates.put(transferId, "RunningTransfer");
            statusChanged = true;
        }
    }

    @Override
    public synchronized void itemCompleted(String agent, Role role, String transferId, ItemOutcome item) {
        if (role != Role.SOURCE) {
            return;
        }
        Tracked t = transfers.get(transferId);
        if (t == null) {
            return;
        }
        publishStarted(transferId, t);
        addItem(t, item);
        if (t.pending.size() >= MAX_ITEMS_PER_PROGRESS) {
            flushItems(transferId, t);
        }
    }

    private void addItem(Tracked t, ItemOutcome item) {
        if (item.index() >= 0 && !t.reported.add(item.index())) {
            return;
        }
        if (t.pending.isEmpty()) {
            t.pendingSince = clock.instant();
            t.pendingIndex = t.reportedCount;
        }
        t.pending.add(logItem(t.planned.get(item.index()), item));
        t.reportedCount++;
    }

    private static LogItem logItem(TransferInfo.Item planned, ItemOutcome o) {
        Checksum checksum = o.checksum();
        // A source queue's size is known once it was read, after the transfer was planned.
        ItemOutcome.QueueRead read = o.queueRead();
        long size = read != null ? read.bytes() : planned == null ? -1 : planned.size();
        long written = o.resultCode() == ItemOutcome.FAILED ? -1 : o.bytes();
        return new LogItem(planned == null ? "binary" : planned.mode(), o.source(),
                planned == null ? "leave" : planned.disposition(), size, o.destination(),
                planned == null ? "error" : planned.exist(), written,
                checksum == null ? null : checksum.method().xmlValue(), checksum == null ? null : checksum.hex(),
                o.resultCode(), o.supplement(), read != null || planned != null && planned.sourceQueue(),
                read == null ? null : read.groupId(), read == null ? -1 : read.messageCount());
    }

    private void flushItems(String id, Tracked t) {
        if (t.pending.isEmpty()) {
            return;
        }
        TransferInfo i = t.info;
        log(id, new TransferLog(DocumentWriter.VERSION, id, TransferLog.SOURCE_AGENT, LogAction.PROGRESS,
                clock.instant(), i.sourceAgent(), i.destinationAgent(), i.originator(), i.jobName(), i.accepted(),
                i.itemCount(), t.bytesSent, t.pendingIndex, t.pending, null, List.of(), null, Map.of()));
        t.pending.clear();
        t.pendingSince = null;
    }

    @Override
    public synchronized void transferEnded(String agent, Role role, TransferOutcome outcome) {
        String id = outcome.transferId();
        statusChanged = true;
        if (role == Role.DESTINATION) {
            destinationStates.remove(id);
            return;
        }
        sourceStates.remove(id);
        queued.remove(id);
        Tracked t = transfers.remove(id);
        if (t == null) {
            return;
        }
        if (outcome.resultCode() != org.openmft.agent.ResultCode.TRIGGER_NOT_MET.code()) {
            // A transfer whose trigger was not met never started: its one log says 42.
            publishStarted(id, t);
        }
        for (ItemOutcome o : outcome.items()) {
            addItem(t, o);
            if (t.pending.size() >= MAX_ITEMS_PER_PROGRESS) {
                flushItems(id, t);
            }
        }
        t.bytesSent = outcome.bytes();
        flushItems(id, t);
        int failures = (int) outcome.items().stream().filter(o -> o.resultCode() == ItemOutcome.FAILED).count();
        int warnings = (int) outcome.items().stream().filter(o -> o.resultCode() == ItemOutcome.WARNING).count();
        TransferInfo i = t.info;
        boolean cancelled = outcome.resultCode() == 41;
        log(id, new TransferLog(DocumentWriter.VERSION, id, TransferLog.SOURCE_AGENT,
                cancelled ? LogAction.CANCELLED : LogAction.COMPLETED, clock.instant(), i.sourceAgent(),
                i.destinationAgent(), i.originator(), i.jobName(), i.accepted(), outcome.items().size(),
                outcome.bytes(), -1, List.of(), outcome.resultCode(),
                outcome.supplement() == null ? List.of() : List.of(outcome.supplement()),
                new Statistics(t.actualStart == null ? outcome.started() : t.actualStart, t.recoveries, failures,
                        warnings),
                i.metadata(), inIbmsOrder(t.calls)));
    }

    /**
     * A program call's result (the source hears of the destination's too): kept for the transfer's
     * completed or cancelled log message, where IBM's logger reads it.
     */
    @Override
    public synchronized void callCompleted(String agent, Role role, String transferId, String phase,
            ProgramCall call, CallResult result) {
        Tracked t = role == Role.SOURCE ? transfers.get(transferId) : null;
        // Once per phase: a transfer resumed in the same process reports its calls again from its
        // journal (without their output); the first report, with the output, stays.
        if (t != null && t.calls.stream().noneMatch(c -> c.element().equals(phase))) {
            t.calls.add(new LogCall(phase, call, result.outcome().xml(), result.retries(), result.returnCode(),
                    result.stdout(), result.stderr(), result.error()));
        }
    }

    /** The element a managed call's command is in, in its log messages. */
    private static final String MANAGED_CALL = "call";

    /** A managed call starts: IBM's {@code callStarted}, naming the agent as {@code <agent>}. */
    @Override
    public synchronized void managedCallStarted(String agent, String callId, ManagedCallRequest request) {
        log(callId, callLog(callId, request, LogAction.CALL_STARTED, LogCall.started(MANAGED_CALL, request.call()),
                null, List.of()));
    }

    /** A managed call ended: IBM's {@code callCompleted}, with its {@code <callResult>} and result code. */
    @Override
    public synchronized void managedCallEnded(String agent, String callId, ManagedCallRequest request,
            CallResult result, int resultCode, String supplement) {
        log(callId, callLog(callId, request, LogAction.CALL_COMPLETED, new LogCall(MANAGED_CALL, request.call(),
                result.outcome().xml(), result.retries(), result.returnCode(), result.stdout(), result.stderr(),
                result.error()), resultCode, supplement == null ? List.of() : List.of(supplement)));
    }

    private TransferLog callLog(String id, ManagedCallRequest request, LogAction action, LogCall call,
            Integer resultCode, List<String> supplements) {
        return new TransferLog(DocumentWriter.VERSION, id, TransferLog.SOURCE_AGENT, action, clock.instant(),
                new AgentRef(agent(), config.agentQMgr()), null, request.originator(), request.jobName(), null, -1, -1,
                -1, List.of(), resultCode, supplements, null, request.metadata(), List.of(call));
    }

    private static final List<String> CALL_ORDER = List.of("preSourceCall", "postSourceCall", "preDestinationCall",
            "postDestinationCall");

    private static List<LogCall> inIbmsOrder(List<LogCall> calls) {
        List<LogCall> sorted = new ArrayList<>(calls);
        sorted.sort(java.util.Comparator.comparingInt(c -> CALL_ORDER.indexOf(c.element())));
        return sorted;
    }

    @Override
    public synchronized void requestRejected(String agent, String messageId, int resultCode, String reason) {
        if (resultCode != 43) {
            return;
        }
        String id = TransferIds.forRequest(messageId == null ? "" : messageId, config.agentQMgr());
        log(id, new TransferLog(DocumentWriter.VERSION, id, TransferLog.SOURCE_AGENT, LogAction.MALFORMED,
                clock.instant(), new AgentRef(agent(), config.agentQMgr()), null, null, null, null, -1, -1, -1,
                List.of(), resultCode, List.of(reason == null ? "malformed request" : reason), null, Map.of()));
    }

    /** The longest refused request kept in a NotAuthorized message, in characters. */
    static final int MAX_REQUEST_IN_LOG = 64 * 1024;

    @Override
    public synchronized void notAuthorized(String agent, AuthorityRefusal refusal) {
        List<String> supplements = new ArrayList<>();
        supplements.add(refusal.supplement());
        String request = refusal.request();
        if (request != null) {
            supplements.add(request.length() <= MAX_REQUEST_IN_LOG ? request
                    : request.substring(0, MAX_REQUEST_IN_LOG) + " [" + (request.length() - MAX_REQUEST_IN_LOG)
                            + " more characters not kept]");
        }
        String id = refusal.requestId() == null ? "" : refusal.requestId();
        NotAuthorizedLog entry = new NotAuthorizedLog(DocumentWriter.VERSION, id, refusal.agentRole(), clock.instant(),
                new AgentRef(agent(), config.agentQMgr()), refusal.user(), refusal.authority().ibmName(),
                ResultCode.NOT_AUTHORIZED.code(), supplements);
        buffer.add(new Publication(Publication.Kind.LOG, Publications.notAuthorized(agent()), writer.write(entry),
                nextId()));
    }

    @Override
    public synchronized void monitorAction(String agent, org.openmft.agent.monitor.MonitorEvent event) {
        String id = event.referenceId() == null ? "" : event.referenceId();
        org.openmft.xml.log.MonitorLog entry = new org.openmft.xml.log.MonitorLog(DocumentWriter.VERSION,
                event.monitorName(), event.referenceId(), event.originator(), event.action(), event.time(),
                new AgentRef(agent(), config.agentQMgr()), event.resultCode(), event.supplements(), event.metadata(),
                Map.of(), event.transferIds().isEmpty() ? null : event.transferIds().get(0));
        buffer.add(new Publication(Publication.Kind.LOG, Publications.monitorLog(agent(), event.monitorName(), id),
                writer.write(entry), nextId()));
    }

    @Override
    public synchronized void scheduleAction(String agent, org.openmft.agent.scheduler.ScheduleEvent event) {
        buffer.add(new Publication(Publication.Kind.LOG, Publications.log(agent(), Long.toString(event.id())),
                org.openmft.xml.log.SchedulePublications.write(ScheduleLogs.log(event)), nextId()));
    }

    @Override
    public synchronized void schedulesChanged(String agent,
            List<org.openmft.agent.scheduler.ScheduleEntry> schedules) {
        buffer.add(new Publication(Publication.Kind.LISTING, Publications.scheduler(agent()),
                org.openmft.xml.log.SchedulePublications.write(ScheduleLogs.list(agent(), schedules)),
                nextId()));
    }

    @Override
    public synchronized void monitorListChanged(String agent, String monitorName,
            org.openmft.xml.MonitorDefinition definition, boolean started) {
        // An empty retained publication clears the listing of a deleted monitor, as fteDeleteAgent
        // clears an agent's status.
        buffer.add(new Publication(Publication.Kind.LISTING, Publications.monitorList(agent(), monitorName),
                definition == null ? "" : new DocumentWriter().writeMonitorList(definition, started), nextId()));
    }

    private void log(String id, TransferLog entry) {
        buffer.add(new Publication(Publication.Kind.LOG, Publications.log(agent(), id), writer.write(entry),
                nextId()));
    }
}
