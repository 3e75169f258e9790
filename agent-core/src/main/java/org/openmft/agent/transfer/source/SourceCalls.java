package org.openmft.agent.transfer.source;

import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;

import javax.jms.JMSException;

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
 * from which the transfer log is made. Used by the transfer's thread only.
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

    SourceCalls(SourceContext context, TransferInfo info, ProgramCalls calls, BooleanSupplier cancelled) {
        this.context = context;
        this.id = info.transferId();
        this.info = info;
        this.calls = calls;
        this.cancelled = cancelled;
    }

    /** Whether the transfer has any call or the agent any exit. */
    boolean any() {
        return !calls.isEmpty() || context.exits().any();
    }

    /**
     * The source start exits, then the pre-source call, before the START: an exit's cancel ends the
     * transfer with 21, a failed call with 40, before anything was sent.
     */
    void start() throws InterruptedException, TransferFailure {
        TransferExitResult exit = context.exits().sourceStart(exitContext());
        if (!exit.proceed()) {
            log.info("Transfer {}: cancelled by a source transfer start exit: {}", id, exit.reason());
            throw new TransferFailure(ResultCode.STOPPED_BY_EXIT, "The transfer was cancelled by a user exit: "
                    + exit.reason());
        }
        ProgramCall call = calls.preSource();
        if (call != null) {
            failUnless(CallPhase.PRE_SOURCE, call, here(CallPhase.PRE_SOURCE, call));
        }
    }

    /** Pre-destination call, once the destination took the START and before any data. */
    void preDestination(AtDestination destination) throws JMSException, InterruptedException, TransferFailure {
        ProgramCall call = calls.preDestination();
        if (call != null) {
            CallResult r = destination.run(CallPhase.PRE_DESTINATION, call);
            reported(CallPhase.PRE_DESTINATION, call, r);
            failUnless(CallPhase.PRE_DESTINATION, call, r);
        }
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
            CallResult r = destination.run(CallPhase.POST_DESTINATION, post);
            reported(CallPhase.POST_DESTINATION, post, r);
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
                note(CallPhase.POST_SOURCE, source, here(CallPhase.POST_SOURCE, source));
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

    private CallResult here(CallPhase phase, ProgramCall call) throws InterruptedException {
        CallResult r = context.calls().run(call, cancelled);
        reported(phase, call, r);
        return r;
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
