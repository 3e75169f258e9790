package org.openmft.agent.transfer.source;

import java.util.Arrays;
import java.util.function.BooleanSupplier;

import javax.jms.JMSException;

import org.openmft.agent.AgentListener.Role;
import org.openmft.agent.ItemOutcome;
import org.openmft.agent.ResultCode;
import org.openmft.agent.TransferOutcome;
import org.openmft.agent.calls.CallPhase;
import org.openmft.agent.calls.CallResult;
import org.openmft.agent.transfer.failure.TransferFailure;
import org.openmft.xml.ProgramCall;
import org.openmft.xml.ProgramCalls;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The program calls of one source transfer, in IBM's order and on IBM's conditions: pre-source
 * (here) and pre-destination (at the destination agent) before any data moves, a failure of either
 * failing the transfer with 40; after the items, post-destination only when the transfer succeeded
 * or partly succeeded, and post-source only then and when the post-destination call (if any)
 * succeeded. A post-call's failure does not change the transfer's result code: its data did arrive;
 * the outcome is in the transfer log and the supplement. Every call's result goes to the listener
 * ({@code callCompleted}), from which the transfer log is made. Used by the transfer's thread only.
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
    private final ProgramCalls calls;
    private final BooleanSupplier cancelled;
    private String postSupplement;

    SourceCalls(SourceContext context, String id, ProgramCalls calls, BooleanSupplier cancelled) {
        this.context = context;
        this.id = id;
        this.calls = calls;
        this.cancelled = cancelled;
    }

    /** Whether the transfer has any call. */
    boolean any() {
        return !calls.isEmpty();
    }

    /** Pre-source call, before the START: a failure fails the transfer (40) before anything was sent. */
    void preSource() throws InterruptedException, TransferFailure {
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
