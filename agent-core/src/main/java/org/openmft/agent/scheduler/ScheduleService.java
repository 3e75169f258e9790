package org.openmft.agent.scheduler;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadFactory;
import org.openmft.agent.AgentListener;
import org.openmft.agent.ResultCode;
import org.openmft.agent.command.CommandHandler;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.schedule.Due;
import org.openmft.agent.schedule.Schedule;
import org.openmft.agent.schedule.ScheduleException;
import org.openmft.agent.schedule.ScheduleSpec;
import org.openmft.agent.transfer.state.StateTag;
import org.openmft.xml.CommandDocument;
import org.openmft.xml.DeleteScheduledTransferRequest;
import org.openmft.xml.DocumentWriter;
import org.openmft.xml.MalformedRequestException;
import org.openmft.xml.Reply;
import org.openmft.xml.ReplyTo;
import org.openmft.xml.RequestParser;
import org.openmft.xml.TransferRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A source agent's scheduled transfers at run time: accepts requests that carry a
 * {@code <schedule>} (giving each a small id, unique on the agent), deletes them
 * ({@code <deleteScheduledTransfer>}), and from one thread ({@code openmft-<agent>-scheduler})
 * submits each occurrence when it is due as a normal transfer request on the agent's COMMAND queue,
 * without its schedule, so that it gets a transfer id of its own and goes through admission like
 * any request (its trigger, if any, is evaluated then).
 *
 * <p>Durability: the record of a schedule (its request and the next occurrence) is replaced in
 * the same transaction as the occurrence's request is put ({@link ScheduleStore#save}), so a crash
 * neither runs an occurrence twice nor loses one. Occurrences that came while the agent was down
 * (or could not reach its queue manager) are not all run: each is logged as {@code skipped}, the
 * latest one due runs once, and the next follows the repeat rule ({@link Schedule#due}). At most
 * {@value #MAX_SKIPPED_LOGGED} skipped occurrences are logged one by one; one more log says how many
 * more there were.
 *
 * <p>A start more than {@link #PAST_GRACE} before the minute the request arrives in is refused
 * (result 1); a later one in the past runs at once.
 *
 * <p>Thread-safe: every method takes the service's lock.
 */
public final class ScheduleService implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ScheduleService.class);
    /** The longest wait between two looks at the schedules, and the retry interval of the store. */
    private static final Duration MAX_WAIT = Duration.ofSeconds(30);
    /** Skipped occurrences logged one by one after an outage; the rest are counted in one more log. */
    static final int MAX_SKIPPED_LOGGED = 10;
    /** How far in the past a schedule's start may be when it arrives: its first occurrence then runs at once. */
    static final Duration PAST_GRACE = Duration.ofMinutes(10);
    /** The most schedules one agent holds. */
    static final int MAX_SCHEDULES = 10_000;

    private final String agentName;
    private final ScheduleStore store;
    private final AgentListener listener;
    private final Clock clock;
    private final ZoneId sourceZone;
    private final ThreadFactory threads;
    private final RequestParser parser = new RequestParser();
    private final DocumentWriter writer = new DocumentWriter();
    private final Object lock = new Object();
    private final Map<Long, Held> schedules = new TreeMap<>();
    private long highestId;
    private boolean loaded;
    private boolean closed;
    private Thread thread;
    /** Whether {@link #start} was called. */
    private boolean started;

    /** One schedule as held in memory. */
    private record Held(ScheduleRecord record, TransferRequest request, Schedule schedule) {
        Held withNext(long next) {
            return new Held(record.withNext(next), request, schedule);
        }
    }

    /**
     * @param agentName  the source agent
     * @param store      where schedules are kept
     * @param listener   receives {@link ScheduleEvent}s and the list of schedules
     * @param clock      the time occurrences are judged by
     * @param sourceZone the agent's zone (time base {@code source})
     * @param threads    makes the scheduler's thread
     */
    public ScheduleService(String agentName, ScheduleStore store, AgentListener listener, Clock clock, ZoneId sourceZone,
            ThreadFactory threads) {
        this.agentName = agentName;
        this.store = store;
        this.listener = listener == null ? AgentListener.NONE : listener;
        this.clock = clock;
        this.sourceZone = sourceZone;
        this.threads = threads;
    }

    /** The service of an agent, its schedules on the agent's EVENT queue. */
    public static ScheduleService forAgent(String agentName, QueueManagerConnector connector, StateTag tag,
            AgentListener listener, Clock clock, ThreadFactory threads) {
        return new ScheduleService(agentName, new EventQueueScheduleStore(connector, agentName, tag), listener, clock,
                ZoneId.systemDefault(), threads);
    }

    /**
     * The schedule a command message is an occurrence of, when this agent's scheduler put it on the
     * COMMAND queue; else null. Its started transfer log carries {@code <scheduleLog ID>}.
     */
    public static Long occurrenceOf(StateTag tag, String agentName, CommandHandler.RequestContext context) {
        return EventQueueScheduleStore.scheduleOf(tag, agentName, context.scheduleId(), context.scheduleTag(),
                context.requestText());
    }

    /** How the answer to a created schedule begins, followed by its id: {@link #createdId} reads it back. */
    private static final String CREATED = "Schedule ";
    private static final java.util.regex.Pattern CREATED_ID = java.util.regex.Pattern.compile(
            java.util.regex.Pattern.quote(CREATED) + "([0-9]{1,18}) created on agent ");

    /**
     * The id of a created schedule, from the agent's answer to its request (which IBM's reply
     * document carries as text only).
     *
     * @param supplements the answer's supplements
     * @return the id, or empty when the answer names none
     */
    public static java.util.OptionalLong createdId(List<String> supplements) {
        for (String s : supplements) {
            java.util.regex.Matcher m = CREATED_ID.matcher(s);
            if (m.find()) {
                return java.util.OptionalLong.of(Long.parseLong(m.group(1)));
            }
        }
        return java.util.OptionalLong.empty();
    }

    /** Whether the scheduler serves {@code document}: a request with a schedule, or a schedule's deletion. */
    public static boolean isScheduleCommand(CommandDocument document) {
        return document instanceof DeleteScheduledTransferRequest
                || document instanceof TransferRequest t && t.schedule() != null;
    }

    /** @return where {@code document}, a {@link #isScheduleCommand schedule command}, asks to be answered */
    public static ReplyTo replyTo(CommandDocument document) {
        return document instanceof TransferRequest t ? t.reply() : ((DeleteScheduledTransferRequest) document).reply();
    }

    /**
     * Starts the scheduler. The schedules are read from the store now; the scheduler's thread is
     * started only when there is a schedule (or the store could not be read): an agent without
     * schedules, as most hosted agents are, has no scheduler thread until one is created.
     */
    public void start() {
        synchronized (lock) {
            if (started || closed) {
                return;
            }
            started = true;
            if (!ensureLoaded() || !schedules.isEmpty()) {
                startThread();
            }
        }
    }

    /** Starts the scheduler's thread once started and not closed, when there is none. Holds the lock. */
    private void startThread() {
        if (started && !closed && thread == null) {
            thread = threads.newThread(this::run);
            thread.start();
        }
    }

    /**
     * Serves a schedule command.
     *
     * @return the reply to send
     */
    public CommandHandler.Outcome handle(CommandDocument document, CommandHandler.RequestContext context) {
        synchronized (lock) {
            if (!ensureLoaded()) {
                return answer(context, replyTo(document), ResultCode.COMMAND_UNSUCCESSFUL,
                        "the agent cannot read its schedules now; try again");
            }
            if (document instanceof DeleteScheduledTransferRequest d) {
                return delete(d, context);
            }
            return create((TransferRequest) document, context);
        }
    }

    private CommandHandler.Outcome create(TransferRequest request, CommandHandler.RequestContext context) {
        if (!request.sourceAgent().agent().equalsIgnoreCase(agentName)) {
            return answer(context, request.reply(), ResultCode.WRONG_AGENT, "BFGCH0014E: The transfer request names"
                    + " source agent " + request.sourceAgent().agent() + " but was received by agent " + agentName + ".");
        }
        Schedule schedule;
        try {
            ScheduleSpec spec = ScheduleDocuments.fromXml(request.schedule());
            schedule = spec.resolve(sourceZone);
        } catch (ScheduleException e) {
            return answer(context, request.reply(), ResultCode.MALFORMED_XML, e.getMessage());
        }
        // fteCreateTransfer refuses a start in the past; a request may take a while to arrive (or
        // wait on the queue), so the agent refuses only one well before the minute it arrives in.
        Instant oldest = clock.instant().truncatedTo(ChronoUnit.MINUTES).minus(PAST_GRACE);
        if (schedule.start().toInstant().isBefore(oldest)) {
            return answer(context, request.reply(), ResultCode.COMMAND_UNSUCCESSFUL, "the schedule's start <submit> "
                    + ScheduleSpec.FORMAT.format(schedule.start()) + " (" + schedule.start().getZone()
                    + ") is in the past");
        }
        if (schedules.size() >= MAX_SCHEDULES) {
            return answer(context, request.reply(), ResultCode.SOURCE_CAPACITY, "agent " + agentName + " already holds "
                    + schedules.size() + " schedules, the most it keeps");
        }
        long id = ++highestId;
        TransferRequest stored = request.withReply(null);
        ScheduleRecord record = new ScheduleRecord(id, writer.write(stored), sourceZone.getId(), 0,
                context.requesterUser());
        try {
            store.save(id, record, null);
        } catch (ScheduleStore.ScheduleStoreException e) {
            highestId--;
            return answer(context, request.reply(), ResultCode.COMMAND_UNSUCCESSFUL, e.getMessage());
        }
        schedules.put(id, new Held(record, stored, schedule));
        log.info("Agent {}: schedule {} created: first transfer at {}", agentName, id, schedule.start());
        event(id, stored, "submit", List.of(), null);
        listChanged();
        lock.notifyAll();
        startThread();
        return answer(context, request.reply(), ResultCode.SUCCESS, CREATED + id + " created on agent " + agentName
                + "; its first transfer is due at " + ScheduleSpec.FORMAT.format(schedule.start()) + " "
                + schedule.start().getZone() + ".");
    }

    private CommandHandler.Outcome delete(DeleteScheduledTransferRequest d, CommandHandler.RequestContext context) {
        Held held = schedules.get(d.id());
        if (held == null) {
            return answer(context, d.reply(), ResultCode.COMMAND_UNSUCCESSFUL, "Schedule " + d.id()
                    + " does not exist on agent " + agentName);
        }
        try {
            store.save(d.id(), null, null);
        } catch (ScheduleStore.ScheduleStoreException e) {
            return answer(context, d.reply(), ResultCode.COMMAND_UNSUCCESSFUL, e.getMessage());
        }
        schedules.remove(d.id());
        log.info("Agent {}: schedule {} deleted", agentName, d.id());
        event(d.id(), held.request(), "delete", List.of(), null);
        listChanged();
        return answer(context, d.reply(), ResultCode.SUCCESS, "Schedule " + d.id() + " deleted from agent "
                + agentName);
    }

    /** @return the schedules held, by id */
    public List<ScheduleEntry> list() {
        synchronized (lock) {
            List<ScheduleEntry> out = new ArrayList<>();
            for (Map.Entry<Long, Held> e : schedules.entrySet()) {
                Held h = e.getValue();
                out.add(new ScheduleEntry(e.getKey(), h.request(), h.schedule().start(),
                        h.schedule().occurrence(h.record().next()).orElse(null)));
            }
            return out;
        }
    }

    private boolean ensureLoaded() {
        if (loaded) {
            return true;
        }
        try {
            for (ScheduleRecord record : store.load()) {
                highestId = Math.max(highestId, record.id());
                try {
                    TransferRequest request = (TransferRequest) parser.parse(record.requestXml());
                    Schedule schedule = ScheduleDocuments.fromXml(request.schedule()).resolve(ZoneId.of(record.sourceZone()));
                    schedules.put(record.id(), new Held(record, request, schedule));
                } catch (MalformedRequestException | ScheduleException | RuntimeException e) {
                    log.warn("Agent {}: the stored schedule {} cannot be read and is not run: {}", agentName,
                            record.id(), e.getMessage());
                }
            }
            highestId = Math.max(highestId, store.highestId());
            loaded = true;
            if (!schedules.isEmpty()) {
                log.info("Agent {}: {} schedule(s) loaded: {}", agentName, schedules.size(), schedules.keySet());
            }
            listChanged();
        } catch (ScheduleStore.ScheduleStoreException e) {
            log.warn("Agent {}: {}; trying again in {} s", agentName, e.getMessage(), MAX_WAIT.toSeconds());
        }
        return loaded;
    }

    private void run() {
        synchronized (lock) {
            while (!closed) {
                try {
                    lock.wait(fireDue());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } catch (RuntimeException e) {
                    // One bad occurrence must not end every schedule.
                    log.error("Agent {}: the scheduler failed; it looks again shortly", agentName, e);
                }
            }
        }
    }

    /**
     * Submits the occurrences due by the clock; what the scheduler's thread does each time it wakes
     * (and tests with a fake clock call directly).
     *
     * @return milliseconds until the next occurrence is due (at most {@link #MAX_WAIT})
     */
    public long fireDue() {
        synchronized (lock) {
            long waitMillis = MAX_WAIT.toMillis();
            if (!ensureLoaded() || closed) {
                return waitMillis;
            }
            Instant now = clock.instant();
            for (Held h : List.copyOf(schedules.values())) {
                fire(h, now);
            }
            now = clock.instant();
            for (Held h : schedules.values()) {
                ZonedDateTime next = h.schedule().occurrence(h.record().next()).orElse(null);
                if (next != null) {
                    waitMillis = Math.min(waitMillis, Math.max(1, Duration.between(now, next.toInstant()).toMillis()));
                }
            }
            return waitMillis;
        }
    }

    private void fire(Held h, Instant now) {
        long id = h.record().id();
        Due due = h.schedule().due(h.record().next(), now);
        if (!due.runs() && !due.expired()) {
            return;
        }
        String transfer = due.runs() ? writer.write(h.request().withSchedule(null)) : null;
        try {
            store.save(id, due.expired() ? null : h.record().withNext(due.next()), transfer);
        } catch (ScheduleStore.ScheduleStoreException e) {
            // Nothing ran or was counted: the next look decides again.
            log.warn("Agent {}: schedule {}: {}; tried again shortly", agentName, id, e.getMessage());
            return;
        }
        for (long i = 0; i < Math.min(due.skippedCount(), MAX_SKIPPED_LOGGED); i++) {
            long index = due.skippedFrom() + i;
            ZonedDateTime at = h.schedule().occurrence(index).orElse(null);
            event(id, h.request(), "skipped", List.of("The transfer due at " + at + " was skipped: the agent was not"
                    + " running then."), at);
        }
        if (due.skippedCount() > MAX_SKIPPED_LOGGED) {
            event(id, h.request(), "skipped", List.of((due.skippedCount() - MAX_SKIPPED_LOGGED) + " more transfers"
                    + " were skipped up to the one due at " + h.schedule().occurrence(due.run()).orElse(null)
                    + ", which runs now."), null);
        }
        if (due.runs()) {
            log.info("Agent {}: schedule {}: occurrence {} due at {} submitted{}", agentName, id, due.run(),
                    h.schedule().occurrence(due.run()).orElse(null),
                    due.skippedCount() > 0 ? " (" + due.skippedCount() + " missed ones skipped)" : "");
        }
        if (due.expired()) {
            schedules.remove(id);
            log.info("Agent {}: schedule {} expired", agentName, id);
            event(id, h.request(), "expire", List.of(), null);
        } else {
            schedules.put(id, h.withNext(due.next()));
        }
        listChanged();
    }

    private void event(long id, TransferRequest request, String action, List<String> supplements,
            ZonedDateTime occurrence) {
        listener.scheduleAction(agentName, new ScheduleEvent(id, action, clock.instant(), 0, supplements, request,
                occurrence));
    }

    private void listChanged() {
        listener.schedulesChanged(agentName, list());
    }

    private static CommandHandler.Outcome answer(CommandHandler.RequestContext context, ReplyTo reply, ResultCode code,
            String text) {
        return new CommandHandler.Outcome(new Reply(DocumentWriter.VERSION, context.messageId(), code.code(),
                List.of(text), List.of()), reply, code != ResultCode.SUCCESS);
    }

    /** Stops the scheduler (waiting a bounded time for an occurrence being submitted) and closes the store. */
    @Override
    public void close() {
        Thread running;
        synchronized (lock) {
            closed = true;
            lock.notifyAll();
            running = thread;
        }
        if (running != null && running != Thread.currentThread()) {
            running.interrupt();
            try {
                running.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (lock) {
            store.close();
        }
    }
}
