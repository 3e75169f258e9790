package org.openmft.agent;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

import org.openmft.agent.authority.Authority;
import org.openmft.agent.authority.AuthorityCheck;
import org.openmft.agent.authority.AuthorityRefusal;
import org.openmft.agent.command.CommandHandler;
import org.openmft.agent.command.CommandIntake;
import org.openmft.agent.config.AgentConfig;
import org.openmft.agent.config.ConfigurationException;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.lifecycle.AgentThreads;
import org.openmft.agent.lifecycle.Backoff;
import org.openmft.agent.messaging.ArtemisQueueAdmin;
import org.openmft.agent.messaging.LostConnections;
import org.openmft.agent.messaging.ProviderErrors;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.monitor.MonitorService;
import org.openmft.agent.protection.MessageProtection;
import org.openmft.agent.qmgr.QueueManagerException;
import org.openmft.agent.transfer.TransferEngine;
import org.openmft.agent.transfer.files.SandboxPolicy;
import org.openmft.agent.transfer.protocol.TransferIds;
import org.openmft.agent.transfer.sandbox.AgentSandboxes;
import org.openmft.agent.transfer.state.StateException;
import org.openmft.agent.transfer.state.StateTag;
import org.openmft.xml.CancelRequest;
import org.openmft.xml.CommandDocument;
import org.openmft.xml.DocumentWriter;
import org.openmft.xml.ManagedCallRequest;
import org.openmft.xml.PingAgentRequest;
import org.openmft.xml.Reply;
import org.openmft.xml.StopAgentRequest;
import org.openmft.xml.TransferRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * An OpenMFT agent: a long-running daemon that owns the {@code SYSTEM.FTE.*.<AGENT>} queues on its
 * queue manager and serves the requests put on its COMMAND queue.
 *
 * <p>Lifecycle: {@link #start()} connects (failing fast with exit code 75 when the queue manager
 * cannot be reached) and starts the command thread; {@link #requestStop(boolean)} or a
 * {@code stopAgent} request ends it; {@link #awaitStopped(Duration)} waits for the end. A lost
 * connection moves the agent to {@link AgentState#PROBLEM} and it reconnects with a bounded,
 * jittered back-off ({@link Backoff#RECONNECT}) until it succeeds or is stopped. So does a thread
 * of the agent that ends with an uncaught exception: the agent's threads come from
 * {@link #threads()}, which logs the error and reports it to the agent.
 *
 * <p>Thread-safety: all public methods may be called from any thread.
 *
 * <p>Why this file is over 600 lines: the command loop, its reconnects and the stop that wakes it
 * share the agent's state machine (stop requested, immediate, transfers running, state), which is
 * kept under one lock in one place so that a stop, a loss and the last transfer's end cannot
 * interleave unseen; the request dispatch beside it is one switch over the command documents.
 */
public final class Agent implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Agent.class);

    /** MDC key naming the agent on every log line its threads write. */
    public static final String MDC_AGENT = "agent";
    /**
     * How long the command thread waits in one receive while nothing else is due: on Artemis a
     * timed receive that ends empty costs a round trip through the broker (docs/idle-agents.md), so
     * the loop does not poll; what must end the wait sooner (a stop, a lost connection) wakes it
     * ({@link #commandWait}).
     */
    static final long IDLE_RECEIVE_MILLIS = 30_000;

    private final AgentConfig config;
    private final QueueManagerConnector connector;
    /**
     * The connector of the agent's control work (command loop, monitor and schedule stores): it
     * lends the process's connection for the agent's login ({@link QueueManagerConnector#sharing}),
     * shared with the agent's publisher and with other agents of the process that log in as the same
     * user. Transfers keep a connection of their own ({@link #connector}).
     */
    private final QueueManagerConnector control;
    private final AgentListener listener;
    private final String name;
    private final Path stateDirectory;
    /** Who may read and write which files; outlives the engines (user sandboxes keep reloading). */
    private final SandboxPolicy sandboxes;
    private final AgentThreads threads;
    private final AuthorityCheck authorityCheck;
    /** Replaced after a lost connection: the old one suspends its transfers, the new one resumes them. */
    private volatile TransferEngine transfers;
    private final DocumentWriter writer = new DocumentWriter();
    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final List<PendingReply> stopReplies = new ArrayList<>();
    private volatile AgentState state = AgentState.STARTING;
    private volatile boolean immediateStop;
    private volatile int exitCode;
    private Thread commandThread;
    /** Ends the command thread's receive when it must stop or reconnect. */
    private final org.openmft.agent.messaging.WakeableReceive commandWait =
            new org.openmft.agent.messaging.WakeableReceive();
    /** Run once on the command thread after the agent stopped (a host forgetting it). */
    private final List<Runnable> whenStopped = new ArrayList<>();
    /** How replies reach requesters on other queue managers (IBM's QUEUE@QMGR). */
    private final org.openmft.agent.messaging.Routing routing;
    /** The user exits of transfers, loaded at the start. */
    private final org.openmft.agent.exits.TransferExits exits;
    /** {@code openmft.messageProtection} and its keys, opened once at construction. */
    private final MessageProtection protection;
    /** The agent's resource monitors: their commands and their polling thread. */
    private final MonitorService monitors;
    /** The agent's scheduled transfers: their commands and the thread that submits their occurrences. */
    private final org.openmft.agent.scheduler.ScheduleService schedules;
    /** Authenticates what the agent keeps on its own queues (and its schedules' occurrences). */
    private final StateTag stateTag;

    /**
     * @param config    the agent's parsed configuration
     * @param connector how to reach the agent queue manager
     * @param listener  receives the agent's events
     * @param stateDirectory where the agent keeps transfer state that grows with the number of
     *                  files (never in a STATE queue message), and the key that authenticates its
     *                  transfer state ({@code StateTag})
     * @throws ConfigurationException (exit code 78) when the sandbox the configuration asks for cannot
     *                  be applied: an invalid {@code UserSandboxes.xml}, a bad {@code sandboxRoot}; or
     *                  when the state key cannot be used: readable by other users, damaged; or when
     *                  the message protection asked for cannot be applied (a store missing, no certificate)
     */
    public Agent(AgentConfig config, QueueManagerConnector connector, AgentListener listener, Path stateDirectory)
            throws ConfigurationException {
        this.config = config;
        this.connector = connector;
        this.control = connector.sharing();
        AgentListener outside = listener == null ? AgentListener.NONE : listener;
        // The transfers a queue monitor submitted tell it how they ended (monitorGroupRetryLimit).
        this.listener = new ForwardingAgentListener() {
            @Override
            protected AgentListener delegate() {
                return outside;
            }

            @Override
            public void callCompleted(String agent, Role role, String transferId, String phase,
                    org.openmft.xml.ProgramCall call, org.openmft.agent.calls.CallResult result) {
                outside.callCompleted(agent, role, transferId, phase, call, result); // not forwarded by the base class
            }

            @Override
            public void transferEnded(String agent, Role role, TransferOutcome outcome) {
                super.transferEnded(agent, role, outcome);
                MonitorService m = monitors;
                if (role == Role.SOURCE && m != null) {
                    m.transferEnded(outcome.transferId(), outcome.resultCode());
                }
            }
        };
        this.name = config.agentName();
        this.stateDirectory = stateDirectory;
        StateTag stateTag;
        try {
            // Made at first use; refused now, before anything is served, when others may read it.
            stateTag = StateTag.open(stateDirectory);
        } catch (StateException e) {
            throw new ConfigurationException("Agent " + name + " cannot start: " + e.getMessage(), e);
        }
        this.sandboxes = AgentSandboxes.forAgent(config, Clock.systemUTC());
        this.threads = AgentThreads.forAgent(name, this::threadFailed);
        this.authorityCheck = AuthorityCheck.forAgent(config.authorityChecking(), connector);
        this.protection = config.messageProtection(Clock.systemUTC());
        this.routing = new org.openmft.agent.messaging.Routing(config.provider(), config.agentQMgr());
        // Loaded once: a class named and not loadable stops the agent here (78), never fails open.
        this.exits = org.openmft.agent.exits.TransferExits.load(config);
        this.transfers = newEngine();
        this.monitors = MonitorService.forAgent(new MonitorService.Settings(name, config.agentQMgr(),
                config.monitorMaxResourcesInPoll(), config.monitorReportTriggerFail(),
                config.monitorSilenceOnTriggerFailure(), config.monitorGroupRetryLimit()), control, stateTag, sandboxes, this.listener,
                threads.factory("monitor", false));
        this.stateTag = stateTag;
        this.schedules = org.openmft.agent.scheduler.ScheduleService.forAgent(name, control, stateTag, this.listener,
                Clock.systemUTC(), threads.factory("scheduler", false));
    }

    private TransferEngine newEngine() {
        // The engine's threads are the agent's: one that dies is logged and moves the agent to PROBLEM.
        TransferEngine engine = new TransferEngine(config, connector, listener, stateDirectory, sandboxes,
                authorityCheck, protection, Clock.systemUTC(), threads.factory("transfer", false), exits);
        engine.onActivity(this::activityChanged);
        // The command loop does not poll for the engine's loss: the engine tells it.
        engine.onConnectionLost(commandWait::wake);
        return engine;
    }

    /**
     * The factory of this agent's threads ({@code openmft-<agent>-<role>}): a thread made by it that
     * ends with an uncaught exception is logged to the agent's log and moves the agent to
     * {@link AgentState#PROBLEM}. For the agent's parts that run threads of their own (the transfer
     * engine, the coordination publisher).
     */
    public AgentThreads threads() {
        return threads;
    }

    /** A thread of the agent died: it is no longer whole, which is what PROBLEM tells the user. */
    private synchronized void threadFailed(Thread thread, Throwable error) {
        if (state != AgentState.STOPPED && state != AgentState.ENDED_UNEXPECTEDLY) {
            setState(AgentState.PROBLEM);
        }
    }

    /** READY when idle, ACTIVE with transfers in progress; other states are left alone. */
    private synchronized void activityChanged(int transfersInProgress) {
        if (transfersInProgress == 0 && stopRequested.getCount() == 0) {
            // A controlled stop waited for the last transfer: the command loop may end now.
            commandWait.wake();
        }
        if (state == AgentState.READY && transfersInProgress > 0) {
            setState(AgentState.ACTIVE);
        } else if (state == AgentState.ACTIVE && transfersInProgress == 0) {
            setState(AgentState.READY);
        }
    }

    /**
     * Connects to the agent queue manager and starts serving the COMMAND queue.
     *
     * @throws QueueManagerException (exit code 75) when the queue manager cannot be reached
     */
    public synchronized void start() throws QueueManagerException {
        if (commandThread != null) {
            throw new IllegalStateException("agent " + name + " was already started");
        }
        setState(AgentState.STARTING);
        if (connector.artemisUrl() != null) {
            // On Artemis the agent defines its own queues, as fteCreateAgent's MQSC does on IBM MQ.
            new ArtemisQueueAdmin(connector).createQueues(QueueNames.agentQueues(name));
        }
        CommandSession first = openCommandSession();
        try {
            authorityCheck.verify(first.connection, name);
        } catch (QueueManagerException e) {
            first.close();
            authorityCheck.close();
            throw e;
        }
        try {
            transfers.start();
        } catch (QueueManagerException e) {
            first.close();
            authorityCheck.close();
            throw e;
        }
        commandThread = threads.newThread("command", () -> runCommandLoop(first));
        commandThread.start();
        monitors.start();
        schedules.start();
        setState(AgentState.READY);
        log.info("BFGAG0059I: The agent {} has been successfully started on queue manager {} ({})", name,
                config.agentQMgr(), connector.description());
    }

    /**
     * Asks the agent to stop. A controlled stop lets running transfers finish and accepts no new
     * ones; an immediate stop ends them at once (they resume when the agent next starts).
     */
    public void requestStop(boolean immediate) {
        // A stopping agent refuses new transfers: a monitor that went on polling would mark files
        // as triggered whose tasks are then refused; a scheduler would count occurrences as run.
        monitors.close();
        schedules.close();
        TransferEngine running = transfers;
        if (immediate) {
            immediateStop = true;
            // Running source transfers stop sending now, not when the command loop next wakes.
            if (running != null) {
                running.stopNow();
            }
        } else if (running != null) {
            // Refused from now on, not from when the command loop next looks (it may wait long).
            running.stopAccepting();
        }
        if (stopRequested.getCount() > 0) {
            log.info("Agent {}: {} stop requested; {} transfer(s) in progress", name,
                    immediate ? "immediate" : "controlled", transfers.activeTransfers());
            if (state != AgentState.STOPPED) {
                setState(AgentState.STOPPING);
            }
        }
        stopRequested.countDown();
        if (immediate || running == null || running.activeTransfers() == 0) {
            commandWait.wake();
        }
    }

    /**
     * Runs {@code action} once the agent has stopped, on the thread that stopped it (at once when it
     * already has); it must not block for long. For a process hosting agents, which forgets each one
     * when it ends without keeping a thread per agent to wait for that.
     */
    public void whenStopped(Runnable action) {
        synchronized (whenStopped) {
            if (stopped.getCount() > 0) {
                whenStopped.add(action);
                return;
            }
        }
        action.run();
    }

    /** Waits for the agent to end. @return whether it ended within the timeout */
    public boolean awaitStopped(Duration timeout) throws InterruptedException {
        return stopped.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The agent's current state. */
    public AgentState state() {
        return state;
    }

    /** The agent's name. */
    public String name() {
        return name;
    }

    /** 0 after a requested stop, 70 when the agent ended because of an unrecoverable error. */
    public int exitCode() {
        return exitCode;
    }

    /** Stops immediately and waits a bounded time ({@code immediateShutdownTimeout}). */
    @Override
    public void close() {
        requestStop(true);
        try {
            Duration limit = config.immediateShutdownTimeout();
            if (!awaitStopped(limit.isZero() ? Duration.ofSeconds(1) : limit)) {
                log.warn("Agent {} did not stop within {} s", name, limit.toSeconds());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private synchronized void setState(AgentState next) {
        if (state != next) {
            state = next;
            listener.stateChanged(name, next);
        }
    }

    private CommandSession openCommandSession() throws QueueManagerException {
        Connection connection = control.connect();
        try {
            CommandSession.FailureFlag failure = new CommandSession.FailureFlag();
            // Providers differ in whether receive() throws once the connection is gone; the listener
            // is the one signal all of them give.
            connection.setExceptionListener(e -> {
                failure.set(e);
                commandWait.wake();
            });
            Session session = connection.createSession(true, Session.SESSION_TRANSACTED);
            MessageConsumer consumer = session.createConsumer(session.createQueue(QueueNames.command(name)));
            connection.start();
            return new CommandSession(connection, session, consumer, failure);
        } catch (JMSException e) {
            closeQuietly(connection);
            throw new QueueManagerException("agent " + name + " cannot open its command queue "
                    + QueueNames.command(name) + " on " + connector.description() + ": "
                    + ProviderErrors.describe(e), QueueManagerException.UNAVAILABLE, e);
        }
    }

    private void runCommandLoop(CommandSession first) {
        MDC.put(MDC_AGENT, name);
        CommandIntake intake = new CommandIntake(name, config.provider(), this::handle, listener,
                CommandIntake.DEFAULT_MAX_MESSAGE_BYTES, authorityCheck, routing);
        CommandSession current = first;
        Backoff.Retries reconnects = Backoff.RECONNECT.retries();
        // UserSandboxes.xml is looked at while no transfer asks, every xmlConfigReloadInterval.
        long receiveMillis = config.userSandboxes() ? Math.max(1000, Math.min(IDLE_RECEIVE_MILLIS,
                config.xmlConfigReloadInterval().toMillis())) : IDLE_RECEIVE_MILLIS;
        try {
            while (true) {
                commandWait.rearm();
                if (stopRequested.getCount() == 0) {
                    // A controlled stop refuses new transfers but keeps serving the COMMAND queue
                    // (pings, cancels, an immediate stop) until the running ones have finished.
                    if (immediateStop || transfers.activeTransfers() == 0) {
                        break;
                    }
                    transfers.stopAccepting();
                }
                if (current == null) {
                    try {
                        current = openCommandSession();
                        try {
                            // The transfers suspended when the connection went resume from their
                            // records, as after a restart.
                            transfers = newEngine();
                            transfers.start();
                        } catch (QueueManagerException e) {
                            current.close();
                            current = null;
                            throw e;
                        }
                        log.info("Agent {}: connection to queue manager {} restored", name, config.agentQMgr());
                        listener.connectionRestored(name, config.agentQMgr());
                        setState(AgentState.READY);
                        activityChanged(transfers.activeTransfers());
                        reconnects.reset();
                    } catch (QueueManagerException e) {
                        long delayMillis = reconnects.next().toMillis();
                        log.warn("Agent {}: reconnecting to queue manager {} failed, next attempt in {} ms: {}",
                                name, config.agentQMgr(), delayMillis, e.getMessage());
                        if (stopRequested.await(delayMillis, TimeUnit.MILLISECONDS)) {
                            // Stopping without a connection: nothing more can finish.
                            break;
                        }
                        continue;
                    }
                }
                // UserSandboxes.xml is looked at even while no transfer asks, so a broken edit is
                // reported within xmlConfigReloadInterval (a cheap clock comparison when not due).
                sandboxes.refresh();
                try {
                    Message m = commandWait.receive(current.consumer, receiveMillis);
                    if (m != null) {
                        Runnable afterCommit = intake.accept(current.session, m);
                        current.session.commit();
                        if (afterCommit != null) {
                            afterCommit.run();
                        }
                    }
                    JMSException failed = current.failure.get();
                    if (failed != null) {
                        throw failed;
                    }
                    if (transfers.connectionLostFlag()) {
                        // The provider's own words, whichever connection heard of the loss first.
                        JMSException cause = transfers.connectionFailure();
                        throw cause != null ? cause : new JMSException("the transfer connection failed");
                    }
                } catch (JMSException e) {
                    // Woken by the loss, the receive saw its consumer closed: the provider's own words.
                    JMSException lost = current.failure.get() != null ? current.failure.get()
                            : transfers.connectionFailure();
                    String reason = ProviderErrors.describe(lost != null ? lost : e);
                    if (immediateStop || stopRequested.getCount() == 0 && transfers.activeTransfers() == 0) {
                        // Woken to stop: the receive's consumer was closed under it.
                        break;
                    }
                    log.warn("BFGAG0183I: Agent {} lost its connection to queue manager {}: {}; reconnecting",
                            name, config.agentQMgr(), reason);
                    listener.connectionLost(name, config.agentQMgr(), reason);
                    setState(AgentState.PROBLEM);
                    // Running transfers are suspended, keeping their records, partial files and
                    // queue of requests; they resume once the connection is back. The lost
                    // connections close beside the reconnect, which must not wait for them.
                    transfers.closeLost();
                    LostConnections.close(current.connection());
                    current = null;
                }
            }
            exitCode = 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            log.error("BFGAG0179E: Agent {} ended abnormally", name, e);
            exitCode = 70;
        } finally {
            monitors.close();
            schedules.close();
            transfers.close();
            authorityCheck.close();
            sendStopReplies(current);
            if (current != null) {
                current.close();
            }
            setState(exitCode == 0 ? AgentState.STOPPED : AgentState.ENDED_UNEXPECTEDLY);
            log.info("Agent {} stopped", name);
            MDC.remove(MDC_AGENT);
            List<Runnable> actions;
            synchronized (whenStopped) {
                stopped.countDown();
                actions = List.copyOf(whenStopped);
                whenStopped.clear();
            }
            actions.forEach(Runnable::run);
        }
    }

    private CommandHandler.Outcome handle(CommandDocument document, CommandHandler.RequestContext context) {
        if (document instanceof PingAgentRequest ping) {
            if (!matches(ping.agent())) {
                return wrongAgent(context, ping.agent(), ping.reply());
            }
            listener.pinged(name, context.requesterUser() != null ? context.requesterUser()
                    : ping.originator() == null ? null : ping.originator().userId());
            return new CommandHandler.Outcome(new Reply(DocumentWriter.VERSION, context.messageId(), 0,
                    List.of("Agent " + name + " is " + state), List.of()), ping.reply(), false);
        }
        if (document instanceof StopAgentRequest stop) {
            if (!matches(stop.agent())) {
                return wrongAgent(context, stop.agent(), stop.reply());
            }
            CommandHandler.Outcome refused = refuseWithout(Authority.ADMINISTRATION, "shut down the agent", context,
                    stop.reply());
            if (refused != null) {
                return refused;
            }
            synchronized (stopReplies) {
                stopReplies.add(new PendingReply(context.messageId(), context.replyTo(), stop.reply()));
            }
            requestStop(stop.immediate());
            return CommandHandler.Outcome.none();
        }
        if (org.openmft.agent.scheduler.ScheduleService.isScheduleCommand(document)) {
            CommandHandler.Outcome refused = refuseWithout(Authority.SCHEDULE, "create or delete a scheduled transfer",
                    context, org.openmft.agent.scheduler.ScheduleService.replyTo(document));
            return refused != null ? refused : schedules.handle(document, context);
        }
        if (document instanceof TransferRequest transfer) {
            CommandHandler.Outcome refused = refuseWithout(Authority.TRANSFER, "start a transfer", context,
                    transfer.reply());
            Long occurrenceOf = org.openmft.agent.scheduler.ScheduleService.occurrenceOf(stateTag, name, context);
            return refused != null ? refused
                    : transfers.submit(occurrenceOf == null ? transfer : transfer.withScheduleLogId(occurrenceOf), context);
        }
        if (document instanceof ManagedCallRequest call) {
            CommandHandler.Outcome refused = refuseWithout(Authority.TRANSFER, "start a managed call", context,
                    call.reply());
            return refused != null ? refused : transfers.submit(call, context);
        }
        if (MonitorService.isMonitorCommand(document)) {
            CommandHandler.Outcome refused = refuseWithout(Authority.MONITOR, "create or change a resource monitor",
                    context, MonitorService.replyTo(document));
            return refused != null ? refused : monitors.handle(document, context);
        }
        if (document instanceof CancelRequest cancel) {
            CommandHandler.Outcome refused = refuseWithout(Authority.TRANSFER, "cancel a transfer", context,
                    cancel.reply());
            return refused != null ? refused : transfers.cancel(cancel, context);
        }
        return CommandHandler.Outcome.none();
    }

    /**
     * With {@code authorityChecking=true}, refuses a request whose user the queue manager did not
     * vouch for holding {@code needed} on this agent: result 53, IBM's BFGCH0083E, a NotAuthorized
     * log message. Null when the request may go on.
     */
    private CommandHandler.Outcome refuseWithout(Authority needed, String action, CommandHandler.RequestContext context,
            org.openmft.xml.ReplyTo replyTo) {
        if (!config.authorityChecking() || context.authorities().holds(needed)) {
            return null;
        }
        String why = AuthorityRefusal.message(context.requesterUser(), needed, name, action);
        log.warn("Agent {}: request {} refused: {}", name, context.messageId(), why);
        // IBM's NotAuthorized names the request by its 48-hex id (a transfer's would-be transfer id).
        String requestId = TransferIds.forRequest(context.messageId(), config.agentQMgr());
        listener.notAuthorized(name, new AuthorityRefusal(requestId, context.requesterUser(), needed, "sourceAgent",
                why, context.requestText()));
        return new CommandHandler.Outcome(new Reply(DocumentWriter.VERSION, context.messageId(),
                ResultCode.NOT_AUTHORIZED.code(), List.of(why), List.of()), replyTo, true);
    }

    private boolean matches(String agent) {
        return agent != null && agent.equalsIgnoreCase(name);
    }

    private CommandHandler.Outcome wrongAgent(CommandHandler.RequestContext context, String agent,
            org.openmft.xml.ReplyTo replyTo) {
        return new CommandHandler.Outcome(new Reply(DocumentWriter.VERSION, context.messageId(), ResultCode.WRONG_AGENT.code(),
                List.of("BFGCH0014E: the request names agent " + agent + " but was received by agent " + name),
                List.of()), replyTo, true);
    }

    /** Answers the stop requests once the agent has stopped, so the requester knows it is done. */
    private void sendStopReplies(CommandSession current) {
        List<PendingReply> replies;
        synchronized (stopReplies) {
            replies = List.copyOf(stopReplies);
        }
        if (replies.isEmpty() || current == null) {
            return;
        }
        try {
            Session s = current.session;
            for (PendingReply r : replies) {
                String document = writer.write(new Reply(DocumentWriter.VERSION, r.requestId(), 0,
                        List.of("BFGCL0034I: Agent " + name + " has stopped"), List.of()));
                if (r.replyTo() != null && routing.isRemote(r.replyTo().qmgr())) {
                    // A stop requested from another queue manager: its document names where to answer.
                    CommandIntake.sendRouted(s, routing, r.replyTo().queue(), r.replyTo().qmgr(), r.requestId(),
                            document);
                    continue;
                }
                jakarta.jms.Destination to = r.destination() != null ? r.destination()
                        : CommandIntake.documentReplyDestination(s, config.provider(), r.replyTo());
                if (to == null) {
                    continue;
                }
                TextMessage m = s.createTextMessage(document);
                if (r.requestId() != null) {
                    m.setJMSCorrelationID(r.requestId());
                }
                try (MessageProducer p = s.createProducer(to)) {
                    p.send(m);
                }
            }
            s.commit();
        } catch (JMSException e) {
            log.warn("Agent {}: could not answer the stop request: {}", name, ProviderErrors.describe(e));
        }
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (JMSException e) {
            // Closing a broken connection: nothing more to do.
        }
    }

    private record PendingReply(String requestId, jakarta.jms.Destination destination,
            org.openmft.xml.ReplyTo replyTo) {
    }

    private record CommandSession(Connection connection, Session session, MessageConsumer consumer,
            FailureFlag failure) {
        void close() {
            closeQuietly(connection);
        }

        /** The first exception the provider reported for the connection, if any. */
        static final class FailureFlag {
            private volatile JMSException failure;

            void set(JMSException e) {
                if (failure == null) {
                    failure = e;
                }
            }

            JMSException get() {
                return failure;
            }
        }
    }
}
