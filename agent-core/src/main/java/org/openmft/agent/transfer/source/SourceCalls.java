package org.openmft.agent.transfer.source;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import jakarta.jms.JMSException;

import org.openmft.agent.AgentListener.Role;
import org.openmft.agent.ItemOutcome;
import org.openmft.agent.ResultCode;
import org.openmft.agent.TransferInfo;
import org.openmft.agent.TransferOutcome;
import org.openmft.agent.calls.CallPhase;
import org.openmft.agent.calls.CallResult;
import org.openmft.agent.exits.TransferExitContext;
import org.openmft.agent.exits.TransferExitResult;
import org.openmft.agent.transfer.failure.TransferFailure;
import org.openmft.agent.transfer.state.StateException;
import org.openmft.agent.transfer.state.StateFiles;
import org.openmft.xml.ProgramCall;
import org.openmft.xml.ProgramCalls;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The program calls and user exits of one source transfer, in IBM's order and on IBM's conditions:
 * the source start exits (a cancel ends the transfer with 21) and the pre-source call here, then the
 * pre-destination call at the destination agent, before any data moves (a failed call fails the
 * transfer with 40); after the items, the post-destination call only when the transfer succeeded or
 * partly succeeded, the source end exits (always, once), and the post-source call only when the
 * transfer succeeded or partly succeeded and the post-destination call (if any) succeeded. A post
 * call's failure does not change the transfer's result code (its data did arrive): it is in the
 * transfer log and the supplement. Every call's result goes to the listener ({@code callCompleted}),
 * from which the transfer log is made.
 *
 * <p>At most once, across crashes: each call's start is journaled with the transfer's state before
 * its program runs (or its CALL goes to the destination), and its end once it has a result
 * ({@link StateFiles.CallRecord}). A transfer taken back after a restart does not run a call again:
 * one that ended gives its journaled result (its output is not kept); one that started and did not
 * end was running when the agent ended, and its outcome is {@code error}, "not known" (a pre-call's
 * then fails the transfer with 40, since its data may not move on an unknown outcome; a
 * post-destination call's keeps the post-source call from running). A call never started runs
 * when its turn comes, also after a restart: a transfer whose items had all ended before the
 * restart runs its post calls then. A call whose start cannot be journaled is not run (an error).
 * State an earlier version wrote has no call lines: such a resumed transfer runs no pre-call and,
 * with all its items ended, no post call, as that version did.
 *
 * <p>Used by the transfer's thread only.
 */
final class SourceCalls {
    private static final Logger log = LoggerFactory.getLogger(SourceCalls.class);

    /** Runs a call at the destination agent and waits for its result (the transfer's own messages). */
    @FunctionalInterface
    interface AtDestination {
        CallResult run(CallPhase phase, ProgramCall call) throws JMSException, InterruptedException, TransferFailure;
    }

    private final SourceContext context;
    private final String id;
    private final TransferInfo info;
    private final ProgramCalls calls;
    private final BooleanSupplier cancelled;
    private String postSupplement;
    private boolean endExitsCalled;
    /** The calls journaled by an earlier run, by phase (empty for a new transfer). */
    private final Map<String, StateFiles.CallRecord> journaled;
    /** Resumed from state an earlier version wrote, without call lines: calls behave as that version's did. */
    private final boolean legacy;

    /** The journal line that says this transfer's calls are journaled (written at its first start). */
    static final String JOURNALED = "openmft.calls";

    /**
     * @param resumed whether the transfer was started before a restart (it has a record with an
     *                incarnation), rather than new or queued again
     */
    SourceCalls(SourceContext context, TransferInfo info, ProgramCalls calls, BooleanSupplier cancelled,
            boolean resumed) {
        this.context = context;
        this.id = info.transferId();
        this.info = info;
        this.calls = calls;
        this.cancelled = cancelled;
        this.journaled = calls.isEmpty() ? Map.of() : readJournal();
        this.legacy = resumed && !calls.isEmpty() && !journaled.containsKey(JOURNALED);
    }

    private Map<String, StateFiles.CallRecord> readJournal() {
        try {
            return context.state().readSourceJournal(id).calls();
        } catch (StateException e) {
            // Unreadable: every call counts as started and not ended, so none runs (at most once).
            log.error("Transfer {}: its journal of program calls cannot be read ({}); its calls are not run", id,
                    e.getMessage());
            Map<String, StateFiles.CallRecord> unknown = new java.util.HashMap<>();
            for (CallPhase p : CallPhase.values()) {
                unknown.put(p.element(), StateFiles.CallRecord.started(p.element()));
            }
            unknown.put(JOURNALED, StateFiles.CallRecord.started(JOURNALED));
            return unknown;
        }
    }

    /** Whether the transfer has any call or the agent any exit. */
    boolean any() {
        return !calls.isEmpty() || context.exits().any();
    }

    /**
     * The source start exits, then the pre-source call, before the START: an exit's cancel ends the
     * transfer with 21, a failed call with 40, before anything was sent.
     */
    void start() throws JMSException, InterruptedException, TransferFailure {
        TransferExitResult exit = context.exits().sourceStart(exitContext());
        if (!exit.proceed()) {
            log.info("Transfer {}: cancelled by a source transfer start exit: {}", id, exit.reason());
            throw new TransferFailure(ResultCode.STOPPED_BY_EXIT, "The transfer was cancelled by a user exit: "
                    + exit.reason());
        }
        if (!calls.isEmpty() && !journaled.containsKey(JOURNALED)) {
            try {
                context.state().appendSourceCall(id, new StateFiles.CallRecord(JOURNALED, true, null, 0, null, null));
            } catch (StateException e) {
                throw new TransferFailure(ResultCode.FAILED, "BFGTR0095E: The transfer's program calls cannot be"
                        + " recorded: " + e.getMessage());
            }
        }
        preSource();
    }

    /** The pre-source call of a transfer started before a restart: per its journal (never twice). */
    void resumed() throws JMSException, InterruptedException, TransferFailure {
        if (!legacy) {
            preSource();
        }
    }

    private void preSource() throws JMSException, InterruptedException, TransferFailure {
        ProgramCall call = calls.preSource();
        if (call != null) {
            failUnless(CallPhase.PRE_SOURCE, call, once(CallPhase.PRE_SOURCE, call,
                    () -> context.calls().run(call, cancelled)));
        }
    }

    /** Pre-destination call, once the destination took the START and before any data. */
    void preDestination(AtDestination destination) throws JMSException, InterruptedException, TransferFailure {
        ProgramCall call = calls.preDestination();
        if (call != null && !legacy) {
            failUnless(CallPhase.PRE_DESTINATION, call, once(CallPhase.PRE_DESTINATION, call,
                    () -> destination.run(CallPhase.PRE_DESTINATION, call)));
        }
    }

    /**
     * Whether a transfer whose items had all ended before a restart still has post calls to run or
     * to report: then it goes through them before it completes.
     */
    boolean postLeftAfterRestart() {
        return !legacy && (calls.postDestination() != null || calls.postSource() != null);
    }

    /**
     * Whether the post calls need the destination agent: its call has not started yet (a transfer
     * taken back after a restart must first resynchronise with it).
     */
    boolean postNeedsDestination(ItemOutcome[] results) {
        ResultCode code = ResultCode.fromItems(Arrays.asList(results));
        return calls.postDestination() != null && (code == ResultCode.SUCCESS || code == ResultCode.PARTIAL_SUCCESS)
                && !journaled.containsKey(CallPhase.POST_DESTINATION.element());
    }

    /**
     * Post calls, once every item has its result.
     *
     * @return a supplement naming a failed post call, or null
     */
    String post(ItemOutcome[] results, AtDestination destination) throws JMSException, InterruptedException,
            TransferFailure {
        ResultCode code = ResultCode.fromItems(Arrays.asList(results));
        if (code != ResultCode.SUCCESS && code != ResultCode.PARTIAL_SUCCESS) {
            return null;
        }
        boolean destinationOk = true;
        ProgramCall post = calls.postDestination();
        if (post != null) {
            CallResult r = once(CallPhase.POST_DESTINATION, post, () -> destination.run(CallPhase.POST_DESTINATION,
                    post));
            destinationOk = r.succeeded();
            note(CallPhase.POST_DESTINATION, post, r);
        }
        ended(code.code(), null);
        ProgramCall source = calls.postSource();
        if (source != null) {
            if (!destinationOk || cancelled.getAsBoolean()) {
                log.info("Transfer {}: the postSourceCall '{}' is not run: the postDestinationCall did not succeed",
                        id, source.name());
            } else {
                note(CallPhase.POST_SOURCE, source, once(CallPhase.POST_SOURCE, source,
                        () -> context.calls().run(source, cancelled)));
            }
        }
        return postSupplement;
    }

    /**
     * The source end exits, once per transfer: after the post-destination call when the transfer
     * got that far, else when it ended.
     */
    void ended(int resultCode, String supplement) {
        if (!endExitsCalled) {
            endExitsCalled = true;
            context.exits().sourceEnd(exitContext(), resultCode, supplement);
        }
    }

    private TransferExitContext exitContext() {
        if (!context.exits().any()) {
            return null;
        }
        List<TransferExitContext.File> files = info.items().stream()
                .map(i -> new TransferExitContext.File(i.source(), i.destination())).toList();
        return new TransferExitContext(id, info.sourceAgent().agent(), info.destinationAgent().agent(),
                context.exits().environment(), info.metadata(), files);
    }

    /** The outcome with a post call's failure added to its supplement; unchanged when {@code supplement} is null. */
    static TransferOutcome withSupplement(TransferOutcome o, String supplement) {
        if (supplement == null) {
            return o;
        }
        return new TransferOutcome(o.transferId(), o.resultCode(), o.supplement() == null ? supplement
                : o.supplement() + " " + supplement, o.items(), o.started(), o.ended());
    }

    /** Runs a call of this transfer, here or at the destination. */
    @FunctionalInterface
    private interface Run {
        CallResult run() throws JMSException, InterruptedException, TransferFailure;
    }

    /** What the journal says of a call that started and did not end before a restart. */
    static String notKnown(ProgramCall call) {
        return "The agent ended while the call '" + call.name() + "' ran: whether it ran to its end is not known."
                + " It is not run again.";
    }

    /**
     * A call, at most once: its journaled result when it ended before a restart, "not known" when it
     * started and did not end, else run now between its journaled start and end. An interruption
     * (the agent stopping) journals no end: the next run of the agent says "not known".
     */
    private CallResult once(CallPhase phase, ProgramCall call, Run run)
            throws JMSException, InterruptedException, TransferFailure {
        StateFiles.CallRecord before = journaled.get(phase.element());
        CallResult r;
        if (before != null && before.ended()) {
            r = new CallResult(CallResult.Outcome.fromXml(before.outcome()), before.retries(), before.returnCode(),
                    List.of(), List.of(), before.error());
            log.info("Transfer {}: the {} '{}' ran before the agent restarted ({}); it is not run again", id,
                    phase.element(), call.name(), r.summary());
        } else if (before != null) {
            r = CallResult.error(notKnown(call));
            log.warn("Transfer {}: {}", id, r.error());
            journalEnd(phase, r);
        } else {
            try {
                context.state().appendSourceCall(id, StateFiles.CallRecord.started(phase.element()));
            } catch (StateException e) {
                r = CallResult.error("The call was not run: its start could not be recorded (" + e.getMessage() + ")");
                reported(phase, call, r);
                return r;
            }
            r = run.run();
            journalEnd(phase, r);
        }
        reported(phase, call, r);
        return r;
    }

    private void journalEnd(CallPhase phase, CallResult r) {
        try {
            context.state().appendSourceCall(id, new StateFiles.CallRecord(phase.element(), true, r.outcome().xml(),
                    r.retries(), r.returnCode(), r.error()));
        } catch (StateException e) {
            // The call ran: a restart now would call its outcome "not known", which stays true enough.
            log.warn("Transfer {}: the end of its {} could not be journaled: {}", id, phase.element(), e.getMessage());
        }
    }

    private void reported(CallPhase phase, ProgramCall call, CallResult r) {
        log.info("Transfer {}: {} '{}': {}", id, phase.element(), call.name(), r.summary());
        context.listener().callCompleted(context.settings().agentName(), Role.SOURCE, id, phase.element(), call, r);
    }

    private void failUnless(CallPhase phase, ProgramCall call, CallResult r) throws TransferFailure {
        if (!r.succeeded()) {
            throw new TransferFailure(ResultCode.FAILED, describe(phase, call, r));
        }
    }

    private void note(CallPhase phase, ProgramCall call, CallResult r) {
        if (!r.succeeded()) {
            postSupplement = postSupplement == null ? describe(phase, call, r)
                    : postSupplement + " " + describe(phase, call, r);
        }
    }

    private static String describe(CallPhase phase, ProgramCall call, CallResult r) {
        return "The " + phase.element() + " '" + call.name() + "' ended with outcome " + r.summary() + ".";
    }
}
