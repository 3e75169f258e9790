package org.openmft.agent.monitor;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import org.openmft.agent.AgentListener;
import org.openmft.agent.ResultCode;
import org.openmft.agent.command.CommandHandler;
import org.openmft.agent.transfer.files.Access;
import org.openmft.agent.transfer.files.SandboxPolicy;
import org.openmft.agent.transfer.files.SandboxViolationException;
import org.openmft.agent.transfer.protocol.TransferIds;
import org.openmft.xml.ClearMonitorHistoryRequest;
import org.openmft.xml.CommandDocument;
import org.openmft.xml.DeleteMonitorRequest;
import org.openmft.xml.DocumentWriter;
import org.openmft.xml.MalformedRequestException;
import org.openmft.xml.MonitorCondition;
import org.openmft.xml.MonitorControlRequest;
import org.openmft.xml.MonitorDefinition;
import org.openmft.xml.Reply;
import org.openmft.xml.ReplyTo;
import org.openmft.xml.RequestParser;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An agent's resource monitors at run time: serves the monitor commands that arrive on the
 * COMMAND queue (create, delete, start, stop, clear history) and polls each started monitor on its interval from
 * one thread ({@code openmft-<agent>-monitor}).
 *
 * <p>A poll lists the directory, lets {@link TriggerEvaluator} decide what triggers, substitutes
 * each batch into the task ({@link TaskVariables}), checks it is a transfer request from this
 * agent, and hands the tasks and the new history to {@link MonitorStore#save} in one transaction:
 * the tasks then go through the agent's own command path like any request, and each task is
 * reported by a {@code triggerSatisfied} {@link MonitorEvent} of its own (its batch, its transfer id,
 * its first trigger's variables). When the store cannot be written the poll is forgotten (nothing
 * changed) and done again on the next interval, so a file triggers exactly once whatever fails. Files that land while the agent is down are new to the
 * history the next poll after a restart reads.
 *
 * <p>Refusals (all before anything is stored): a monitor for another agent (4), one that exists
 * already without {@code -f} (105), a directory that is not absolute or outside the agent's
 * sandbox (114), a task that is not a transfer from this agent (111), that uses unknown variables
 * (110, 100), that is malformed (43), or that uses variables under a {@code fileNoMatch}
 * trigger alone (110, IBM's BFGDM0060E). Unknown monitors for delete, start and stop: 104.
 *
 * <p>Thread-safe: every method takes the service's lock; a poll holds it while it runs.
 *
 * <p>Why this file is over 600 lines: the monitor commands and the polls change the same monitors
 * under that one lock (a command must never interleave with a poll deciding, submitting and
 * recording), so both stay in the class that owns the lock; the pure parts are classes of their own
 * ({@link TriggerEvaluator}, {@link QueueTriggerEvaluator}, {@link PollPlan}, {@link MonitorTasks},
 * {@link GroupRetries}, and the store).
 */
public final class MonitorService implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(MonitorService.class);
    /** How often the store is tried again after it failed, and the longest idle wait. */
    private static final Duration RETRY = Duration.ofSeconds(5);

    /** The agent facts and settings a monitor needs. */
    public record Settings(String agentName, String agentQMgr, int maxResourcesInPoll, boolean reportTriggerFail,
            int silenceOnTriggerFailure, int groupRetryLimit) {}

    private final Settings settings;
    private final MonitorStore store;
    private final SandboxPolicy sandboxes;
    private final AgentListener listener;
    private final Clock clock;
    private final ThreadFactory threads;
    private final RequestParser parser = new RequestParser();
    private final DocumentWriter writer = new DocumentWriter();
    private final MonitorTasks tasks;
    private final QueueScanner queues;
    private final Object lock = new Object();
    private final Map<String, Running> monitors = new LinkedHashMap<>();
    private final GroupRetries retries;
    private boolean loaded;
    private boolean closed;
    private Thread thread;
    /** Whether {@link #start} was called. */
    private boolean started;

    /** One monitor's definition, record and schedule. */
    private static final class Running {
        MonitorDefinition definition;
        TriggerEvaluator evaluator;
        MonitorRecord record;
        Instant nextPoll;
        int failuresInARow;
    }

    /**
     * @param settings the agent's name, queue manager and monitor properties
     * @param store where monitors are kept
     * @param sandboxes the agent's sandboxes: a monitored directory must be readable in its creator's
     * @param listener receives {@link MonitorEvent}s
     * @param clock the time polls are scheduled and time stamps taken by
     * @param threads makes the polling thread
     */
    public MonitorService(Settings settings, MonitorStore store, SandboxPolicy sandboxes, AgentListener listener,
            Clock clock, ThreadFactory threads) {
        this(settings, store, null, sandboxes, listener, clock, threads);
    }

    private MonitorService(Settings settings, MonitorStore store, QueueScanner queues, SandboxPolicy sandboxes,
            AgentListener listener, Clock clock, ThreadFactory threads) {
        this.queues = queues;
        this.settings = settings;
        this.store = store;
        this.sandboxes = sandboxes;
        this.listener = listener == null ? AgentListener.NONE : listener;
        this.clock = clock;
        this.threads = threads;
        this.tasks = new MonitorTasks(settings.agentName(), ZoneId.systemDefault(), this::readTriggerFile);
        this.retries = new GroupRetries(settings.groupRetryLimit(), settings.agentQMgr());
    }

    /**
     * The service for an agent, its monitors on the agent's EVENT queue.
     *
     * @param settings the agent's facts and monitor properties
     * @param connector the agent's queue manager
     * @param tag the agent's state key: records are tagged with it
     * @param sandboxes the agent's sandboxes
     * @param listener receives monitor events
     * @param threads makes the polling thread
     * @return the service, not started
     */
    public static MonitorService forAgent(Settings settings, org.openmft.agent.messaging.QueueManagerConnector connector,
            org.openmft.agent.transfer.state.StateTag tag, SandboxPolicy sandboxes, AgentListener listener,
            ThreadFactory threads) {
        return new MonitorService(settings, new EventQueueMonitorStore(connector, settings.agentName(), tag),
                new QueueScanner(connector), sandboxes, listener, Clock.systemUTC(), threads);
    }

    /**
     * Starts polling. The monitors are read from the store now; the polling thread is started only
     * when there is a monitor to poll (or the store could not be read): an agent without monitors,
     * as most hosted agents are, has no polling thread until one is created.
     */
    public void start() {
        synchronized (lock) {
            if (started) {
                return;
            }
            started = true;
            if (!ensureLoaded() || !monitors.isEmpty()) {
                startThread();
            }
        }
    }

    /** Starts the polling thread once started and not closed, when there is none. Holds the lock. */
    private void startThread() {
        if (started && !closed && thread == null) {
            thread = threads.newThread(this::run);
            thread.start();
        }
    }

    /** Whether {@code document} is a monitor command, which {@link #handle} serves. */
    public static boolean isMonitorCommand(CommandDocument document) {
        return document instanceof MonitorDefinition || document instanceof DeleteMonitorRequest
                || document instanceof MonitorControlRequest || document instanceof ClearMonitorHistoryRequest;
    }

    /**
     * Serves a monitor command.
     *
     * @param document a {@link #isMonitorCommand monitor command}
     * @param context where it came from
     * @return the reply to send
     */
    public CommandHandler.Outcome handle(CommandDocument document, CommandHandler.RequestContext context) {
        synchronized (lock) {
            if (!ensureLoaded()) {
                return answer(context, replyTo(document), ResultCode.COMMAND_UNSUCCESSFUL,
                        "BFGDM0001E: the agent cannot read its monitors now; try again");
            }
            if (document instanceof MonitorDefinition create) {
                return create(create, context);
            }
            if (document instanceof DeleteMonitorRequest delete) {
                return delete(delete, context);
            }
            if (document instanceof ClearMonitorHistoryRequest clear) {
                return clearHistory(clear, context);
            }
            MonitorControlRequest control = (MonitorControlRequest) document;
            return control(control, context);
        }
    }

    /** @return the names of the monitors, upper case, in creation order */
    public List<String> names() {
        synchronized (lock) {
            return List.copyOf(monitors.keySet());
        }
    }

    /**
     * @param name a monitor
     * @return its definition, or null
     */
    public MonitorDefinition definition(String name) {
        synchronized (lock) {
            Running r = monitors.get(name);
            return r == null ? null : r.definition;
        }
    }

    /**
     * @param name a monitor
     * @return whether it is started; false for an unknown one
     */
    public boolean isStarted(String name) {
        synchronized (lock) {
            Running r = monitors.get(name);
            return r != null && r.record.started();
        }
    }

    /**
     * @param document a {@link #isMonitorCommand monitor command}
     * @return where it asks to be answered, or null
     */
    public static ReplyTo replyTo(CommandDocument document) {
        if (document instanceof MonitorDefinition m) {
            return m.reply();
        }
        if (document instanceof DeleteMonitorRequest d) {
            return d.reply();
        }
        if (document instanceof ClearMonitorHistoryRequest c) {
            return c.reply();
        }
        return ((MonitorControlRequest) document).reply();
    }

    private CommandHandler.Outcome create(MonitorDefinition m, CommandHandler.RequestContext context) {
        if (!m.agent().equalsIgnoreCase(settings.agentName())) {
            return refuse(m, context, ResultCode.WRONG_AGENT, "BFGCH0014E: the monitor names agent " + m.agent()
                    + " but was received by agent " + settings.agentName());
        }
        Running existing = monitors.get(m.name());
        if (existing != null && !m.overwrite()) {
            return refuse(m, context, ResultCode.MONITOR_ALREADY_PRESENT, "BFGDM0051E: monitor " + m.name()
                    + " already exists on agent " + settings.agentName() + "; use -f to replace it");
        }
        if (m.queueMonitor()) {
            String refused = QueueMonitoring.refusal(m.queue(), settings.agentName());
            if (refused != null) {
                return refuse(m, context, ResultCode.MONITOR_DIRECTORY_ACCESS, refused);
            }
        } else {
            Path directory = Path.of(m.directory());
            if (!directory.isAbsolute()) {
                return refuse(m, context, ResultCode.MONITOR_DIRECTORY_ACCESS, "BFGDM0043E: the monitored directory "
                        + m.directory() + " is not an absolute path");
            }
            try {
                sandboxes.forRequester(context.requesterUser()).checkDirectory(directory, Access.READ);
            } catch (SandboxViolationException e) {
                return refuse(m, context, ResultCode.MONITOR_DIRECTORY_ACCESS, "BFGDM0043E: the monitored directory "
                        + m.directory() + " may not be read by agent " + settings.agentName() + ": " + e.getMessage());
            }
        }
        String problem = tasks.check(m, clock.instant());
        if (problem != null) {
            ResultCode code = problem.startsWith("110") ? ResultCode.MONITOR_VARIABLE_NOT_FOUND
                    : problem.startsWith("100") ? ResultCode.MONITOR_VARIABLE_SYNTAX
                    : problem.startsWith("111") ? ResultCode.MONITOR_TASK_SOURCE_AGENT : ResultCode.MALFORMED_XML;
            return refuse(m, context, code, problem.substring(4));
        }
        MonitorDefinition stored = m.withReply(null);
        Map<String, FileHistory> history = existing != null && !m.clearHistory() ? existing.record.history() : Map.of();
        MonitorRecord record = new MonitorRecord(m.name(), writer.write(stored), true, context.requesterUser(),
                referenceId(context), true, history);
        try {
            store.save(record, List.of());
        } catch (MonitorStore.MonitorStoreException e) {
            return refuse(m, context, ResultCode.COMMAND_UNSUCCESSFUL, e.getMessage());
        }
        Running r = new Running();
        r.definition = stored;
        r.evaluator = stored.queueMonitor() ? null : new TriggerEvaluator(stored);
        r.record = record;
        r.nextPoll = clock.instant();
        monitors.put(m.name(), r);
        log.info("BFGDM0040I: Monitor {} {} on agent {}: {}, every {}", m.name(),
                existing != null ? "replaced" : "created", settings.agentName(),
                m.queueMonitor() ? "queue " + m.queue() : "directory " + m.directory(), m.pollInterval());
        event(r, "create", 0, List.of(), List.of());
        event(r, "start", 0, List.of(), List.of());
        listed(r);
        lock.notifyAll();
        startThread();
        return answer(context, m.reply(), ResultCode.SUCCESS, "BFGDM0040I: monitor " + m.name() + " created on agent "
                + settings.agentName());
    }

    private CommandHandler.Outcome delete(DeleteMonitorRequest d, CommandHandler.RequestContext context) {
        Running r = monitors.get(d.name());
        if (r == null) {
            return unknown(d.name(), context, d.reply());
        }
        try {
            store.delete(d.name());
        } catch (MonitorStore.MonitorStoreException e) {
            return answer(context, d.reply(), ResultCode.COMMAND_UNSUCCESSFUL, e.getMessage());
        }
        monitors.remove(d.name());
        log.info("BFGDM0041I: Monitor {} deleted from agent {}", d.name(), settings.agentName());
        if (r.record.started()) {
            event(r, "stop", 0, List.of(), List.of());
        }
        event(r, "delete", 0, List.of(), List.of());
        listener.monitorListChanged(settings.agentName(), d.name(), null, false);
        return answer(context, d.reply(), ResultCode.SUCCESS, "BFGCL0251I: monitor " + d.name()
                + " deleted from agent " + settings.agentName());
    }

    private CommandHandler.Outcome control(MonitorControlRequest c, CommandHandler.RequestContext context) {
        Running r = monitors.get(c.name());
        if (r == null) {
            return unknown(c.name(), context, c.reply());
        }
        if (r.record.started() != c.start()) {
            String failed = replace(r, r.record.with(c.start()));
            if (failed != null) {
                return answer(context, c.reply(), ResultCode.COMMAND_UNSUCCESSFUL, failed);
            }
            log.info("Monitor {} on agent {} {}", c.name(), settings.agentName(), c.start() ? "started" : "stopped");
            event(r, c.start() ? "start" : "stop", 0, List.of(), List.of());
            listed(r);
        }
        return answer(context, c.reply(), ResultCode.SUCCESS, "monitor " + c.name() + " is "
                + (c.start() ? "started" : "stopped") + " on agent " + settings.agentName());
    }

    /** Saves a monitor's new record and polls it at once; returns why it could not, or null. */
    private String replace(Running r, MonitorRecord next) {
        try {
            store.save(next, List.of());
        } catch (MonitorStore.MonitorStoreException e) {
            return e.getMessage();
        }
        r.record = next;
        r.nextPoll = clock.instant();
        lock.notifyAll();
        startThread();
        return null;
    }

    /**
     * fteClearMonitorHistory: the history is emptied in one save, so the next poll, due at once,
     * triggers every file it sees again; a started monitor stays started, a stopped one stopped.
     */
    private CommandHandler.Outcome clearHistory(ClearMonitorHistoryRequest c, CommandHandler.RequestContext context) {
        Running r = monitors.get(c.name());
        if (r == null) {
            return unknown(c.name(), context, c.reply());
        }
        String failed = replace(r, r.record.with(Map.of(), true));
        if (failed != null) {
            return answer(context, c.reply(), ResultCode.COMMAND_UNSUCCESSFUL, failed);
        }
        log.info("Monitor {} on agent {}: history cleared", c.name(), settings.agentName());
        return answer(context, c.reply(), ResultCode.SUCCESS, "the history of monitor " + c.name() + " on agent "
                + settings.agentName() + " is cleared");
    }

    private CommandHandler.Outcome unknown(String name, CommandHandler.RequestContext context, ReplyTo reply) {
        String why = "BFGDM0042E: monitor " + name + " does not exist on agent " + settings.agentName();
        log.warn("Agent {}: {}", settings.agentName(), why);
        return new CommandHandler.Outcome(new Reply(DocumentWriter.VERSION, context.messageId(),
                ResultCode.MONITOR_MISSING.code(), List.of(why), List.of()), reply, true);
    }

    private CommandHandler.Outcome refuse(MonitorDefinition m, CommandHandler.RequestContext context, ResultCode code,
            String why) {
        log.warn("Agent {}: monitor {} not created: {}", settings.agentName(), m.name(), why);
        listener.monitorAction(settings.agentName(), new MonitorEvent(m.name(), "create", clock.instant(), code.code(),
                List.of(why), m.originator(), referenceId(context), List.of()));
        return new CommandHandler.Outcome(new Reply(DocumentWriter.VERSION, context.messageId(), code.code(),
                List.of(why), List.of()), m.reply(), true);
    }

    /** IBM's 48-hex id of a request, from its message id. */
    private String referenceId(CommandHandler.RequestContext context) {
        return TransferIds.forRequest(
                context.messageId() == null ? "" : context.messageId(), settings.agentQMgr());
    }

    private static CommandHandler.Outcome answer(CommandHandler.RequestContext context, ReplyTo reply, ResultCode code,
            String text) {
        return new CommandHandler.Outcome(new Reply(DocumentWriter.VERSION, context.messageId(), code.code(),
                List.of(text), List.of()), reply, code != ResultCode.SUCCESS);
    }

    /** Publishes the monitor's retained listing (fteListMonitors). */
    private void listed(Running r) {
        listener.monitorListChanged(settings.agentName(), r.definition.name(), r.definition, r.record.started());
    }

    private void event(Running r, String action, int code, List<String> supplements, List<String> transfers) {
        event(r, action, code, supplements, transfers, Map.of());
    }

    private void event(Running r, String action, int code, List<String> supplements, List<String> transfers,
            Map<String, String> metadata) {
        listener.monitorAction(settings.agentName(), new MonitorEvent(r.definition.name(), action, clock.instant(), code,
                supplements, r.definition.originator(), r.record.createRequestId(), transfers, metadata));
    }

    // ---------------------------------------------------------------- polling

    private boolean ensureLoaded() {
        if (loaded) {
            return true;
        }
        try {
            for (MonitorRecord record : store.load()) {
                Running r = new Running();
                try {
                    CommandDocument d = parser.parse(record.definitionXml());
                    r.definition = (MonitorDefinition) d;
                } catch (MalformedRequestException | ClassCastException e) {
                    log.warn("Agent {}: the stored monitor {} cannot be read and is not run: {}", settings.agentName(),
                            record.name(), e.getMessage());
                    continue;
                }
                r.evaluator = r.definition.queueMonitor() ? null : new TriggerEvaluator(r.definition);
                r.record = record;
                r.nextPoll = clock.instant();
                monitors.put(record.name(), r);
            }
            loaded = true;
            // The listings are published again at each start: retained publications may have been
            // lost with the coordination queue manager, or changed while this agent was down.
            monitors.values().forEach(this::listed);
            if (!monitors.isEmpty()) {
                log.info("Agent {}: {} resource monitor(s) loaded: {}", settings.agentName(), monitors.size(),
                        String.join(", ", monitors.keySet()));
            }
        } catch (MonitorStore.MonitorStoreException e) {
            log.warn("Agent {}: {}; trying again in {} s", settings.agentName(), e.getMessage(), RETRY.toSeconds());
        }
        return loaded;
    }

    private void run() {
        synchronized (lock) {
            while (!closed) {
                try {
                    lock.wait(pollDue());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } catch (RuntimeException e) {
                    // One bad poll must not end the schedule of every monitor.
                    log.error("Agent {}: a monitor poll failed", settings.agentName(), e);
                }
            }
        }
    }

    /**
     * Polls the started monitors that are due by the clock; what the polling thread does each
     * time it wakes (and unit tests with a fake clock call directly).
     *
     * @return milliseconds until the next monitor is due (at most the store's retry interval)
     */
    long pollDue() {
        synchronized (lock) {
            long waitMillis = RETRY.toMillis();
            if (!ensureLoaded()) {
                return waitMillis;
            }
            for (GroupRetries.Submitted failed; (failed = retries.nextFailed()) != null;) {
                triggerAgain(failed);
            }
            Instant now = clock.instant();
            for (Running r : List.copyOf(monitors.values())) {
                if (r.record.started() && !now.isBefore(r.nextPoll)) {
                    poll(r, now);
                }
            }
            now = clock.instant();
            for (Running r : monitors.values()) {
                if (r.record.started()) {
                    waitMillis = Math.min(waitMillis, Math.max(1, Duration.between(now, r.nextPoll).toMillis()));
                }
            }
            return waitMillis;
        }
    }

    /** One poll of one monitor: decides, submits and records atomically, or changes nothing. */
    private void poll(Running r, Instant now) {
        MonitorDefinition m = r.definition;
        r.nextPoll = now.plusSeconds(m.pollInterval().seconds());
        if (m.queueMonitor()) {
            pollQueue(r, now);
            return;
        }
        Path directory = Path.of(m.directory());
        List<FileSnapshot> files;
        try {
            sandboxes.forRequester(r.record.creatorUser()).checkDirectory(directory, Access.READ);
            files = DirectoryScanner.scan(directory, m.recursionLevel());
        } catch (SandboxViolationException | IOException e) {
            failed(r, ResultCode.MONITOR_DIRECTORY_ACCESS, "BFGDM0043E: directory " + m.directory()
                    + " cannot be read: " + e.getMessage());
            return;
        }
        if (files == null) {
            failed(r, ResultCode.MONITOR_DIRECTORY_ACCESS, "BFGDM0043E: directory " + m.directory() + " does not exist");
            return;
        }
        TriggerEvaluator.Decision decision = r.evaluator.evaluate(files, r.record.history(), r.record.noMatchArmed(),
                settings.maxResourcesInPoll());
        PollPlan out = PollPlan.forFiles(m, decision, tasks, now);
        boolean changed = !out.names.isEmpty() || !PollPlan.sameFiles(r.record.history(), decision.history())
                || decision.noMatchArmed() != r.record.noMatchArmed();
        commit(r, out, r.record.with(decision.history(), decision.noMatchArmed()), changed);
    }

    /** A trigger file that lists files (-tc), read in the sandbox of its monitor's creator; polls hold the lock. */
    private String readTriggerFile(String monitor, Path file) throws TaskVariables.TaskException {
        Running r = monitors.get(monitor);
        return TriggerContents.read(file, sandboxes.forRequester(r == null ? null : r.record.creatorUser()));
    }

    /** A queue monitor's poll: browse, decide, then as for a directory. */
    private void pollQueue(Running r, Instant now) {
        MonitorDefinition m = r.definition;
        List<QueueMessage> messages;
        try {
            if (queues == null) {
                throw new org.openmft.agent.qmgr.QueueManagerException("this agent cannot browse queues",
                        org.openmft.agent.qmgr.QueueManagerException.UNAVAILABLE, null);
            }
            messages = queues.browse(m.queue());
        } catch (org.openmft.agent.qmgr.QueueManagerException e) {
            failed(r, ResultCode.COMMAND_UNSUCCESSFUL, "BFGDM0043E: " + e.getMessage());
            return;
        }
        if (messages == null) {
            failed(r, ResultCode.MONITOR_DIRECTORY_ACCESS, "BFGDM0043E: queue " + m.queue() + " does not exist on the"
                    + " queue manager of agent " + settings.agentName());
            return;
        }
        QueueTriggerEvaluator.Decision decision = new QueueTriggerEvaluator(
                m.conditions().get(0) instanceof MonitorCondition.CompleteGroups)
                .evaluate(messages, r.record.history(), settings.maxResourcesInPoll());
        PollPlan out = PollPlan.forMessages(m, decision, tasks, now);
        retries.seen(m.name(), decision.history().keySet()); // groups gone from the queue start afresh
        boolean changed = !out.names.isEmpty() || !r.record.history().keySet().equals(decision.history().keySet());
        commit(r, out, r.record.with(decision.history(), r.record.noMatchArmed()), changed);
    }

    /** Saves the new record with the tasks in one transaction (when anything changed), then reports. */
    private void commit(Running r, PollPlan out, MonitorRecord next, boolean changed) {
        MonitorDefinition m = r.definition;
        if (!changed) {
            r.record = next;
            return;
        }
        List<String> messageIds;
        try {
            messageIds = store.save(next, out.tasks);
        } catch (MonitorStore.MonitorStoreException e) {
            // Nothing was submitted or recorded: the next poll decides again from the same history.
            log.warn("Agent {}: monitor {}: {}; the poll is repeated in {}", settings.agentName(), m.name(),
                    e.getMessage(), m.pollInterval());
            return;
        }
        r.record = next;
        retries.submitted(m.name(), messageIds, out.taskKeys);
        if (!out.tasks.isEmpty()) {
            log.info("Monitor {} on agent {}: trigger satisfied, {} task(s) submitted for {}", m.name(),
                    settings.agentName(), out.tasks.size(), out.names);
            r.failuresInARow = 0;
            // One log per task, as IBM publishes them: the resources of its batch, the request id it
            // was submitted with (its transfer id) and its first trigger's variables.
            for (int i = 0; i < out.tasks.size(); i++) {
                List<String> transfer = i < messageIds.size()
                        ? List.of(TransferIds.forRequest(messageIds.get(i), settings.agentQMgr())) : List.of();
                event(r, "triggerSatisfied", 0, out.taskNames.get(i), transfer, out.taskMetadata.get(i));
            }
        }
        if (!out.problems.isEmpty()) {
            failed(r, Objects.requireNonNull(out.problemCode), String.join("; ", out.problems));
        }
    }

    /**
     * Tells the service that a transfer this agent was the source of ended: one a queue monitor
     * submitted that did not succeed has its groups triggered again by the monitor's next poll, if
     * they are still on the queue (IBM's {@code monitorGroupRetryLimit}). Called from the transfer
     * threads; takes no lock.
     *
     * @param transferId the transfer
     * @param resultCode its result, 0 for success
     */
    public void transferEnded(String transferId, int resultCode) {
        retries.ended(transferId, resultCode);
    }

    /**
     * IBM's {@code monitorGroupRetryLimit} ({@link GroupRetries}): the groups of a failed transfer
     * that are still in the history (still on the queue) are forgotten, so the next poll that sees
     * them triggers them again; a group over the limit stays triggered and the agent logs an error.
     * The history without them is saved at once, so a restart in between triggers them too.
     */
    private void triggerAgain(GroupRetries.Submitted failed) {
        Running r = monitors.get(failed.monitor());
        if (r == null || !r.definition.queueMonitor()) {
            return;
        }
        Map<String, FileHistory> history = new java.util.HashMap<>(r.record.history());
        List<String> again = retries.forget(r.definition, settings.agentName(), failed.keys(), history);
        if (again.isEmpty()) {
            return;
        }
        MonitorRecord next = r.record.with(history, r.record.noMatchArmed());
        try {
            store.save(next, List.of());
        } catch (MonitorStore.MonitorStoreException e) {
            log.warn("Agent {}: monitor {}: {}; {} trigger(s) again unless the agent restarts first",
                    settings.agentName(), r.definition.name(), e.getMessage(), again);
        }
        r.record = next;
        log.info("Monitor {} on agent {}: the transfer triggered by {} failed; it triggers again at the next poll if"
                + " still on queue {}", r.definition.name(), settings.agentName(), again, r.definition.queue());
    }

    private void failed(Running r, ResultCode code, String why) {
        r.failuresInARow++;
        boolean report = settings.silenceOnTriggerFailure() <= 0 || r.failuresInARow <= settings.silenceOnTriggerFailure();
        if (!report) {
            return;
        }
        log.warn("Monitor {} on agent {}: trigger failed ({}): {}{}", r.definition.name(), settings.agentName(),
                code.code(), why, r.failuresInARow == settings.silenceOnTriggerFailure()
                        ? " (further failures in a row are not reported: monitorSilenceOnTriggerFailure)" : "");
        if (settings.reportTriggerFail()) {
            event(r, "triggerFail", code.code(), List.of(why), List.of());
        }
    }

    /** Stops polling (waiting a bounded time for a poll in progress) and closes the store. */
    @Override
    public void close() {
        Thread running;
        synchronized (lock) {
            closed = true;
            lock.notifyAll();
            running = thread;
        }
        if (running != null) {
            running.interrupt();
            try {
                running.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (lock) {
            store.close();
            if (queues != null) {
                queues.close();
            }
        }
    }
}
