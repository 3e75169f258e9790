package org.openmft.agent.transfer.destination;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.function.Function;
import java.util.function.Predicate;

import jakarta.jms.JMSException;
import jakarta.jms.Message;

import org.openmft.agent.AgentListener;
import org.openmft.agent.AgentListener.Role;
import org.openmft.agent.calls.CallPhase;
import org.openmft.agent.calls.CallResult;
import org.openmft.agent.calls.CallRunner;
import org.openmft.agent.transfer.protocol.CallAnswer;
import org.openmft.agent.transfer.protocol.ProtocolCodec;
import org.openmft.xml.CallSpecs;
import org.openmft.xml.ProgramCall;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The destination side of program calls: a source's CALL (verified as the transfer's, by the
 * dispatcher) names a pre- or post-destination call, which runs on a thread of its own (a call may
 * take minutes; the DATA queue is served meanwhile), and its result goes back as CALL_RESULT from
 * the dispatcher's thread, the owner of the session ({@link #drain}). A CALL repeated for a phase
 * already run or running is answered with the result, or not at all until it is there: a call runs
 * once per transfer and phase. A call whose transfer is forgotten here (cancelled, completed) is
 * ended ({@code BFGCR0002I}). Only {@code preDestinationCall} and {@code postDestinationCall} are
 * run: a source cannot make the destination run anything else, and the program must be on this
 * agent's {@code commandPath}.
 *
 * <p>Thread-safety: {@link #onCall}, {@link #drain} and {@link #forget} on the dispatcher's thread;
 * the call threads only put finished results on a concurrent queue.
 */
final class DestinationCalls {
    private static final Logger log = LoggerFactory.getLogger(DestinationCalls.class);

    private final String agentName;
    private final CallRunner runner;
    private final AgentListener listener;
    private final ExecutorService executor;
    /** Results by transfer id and phase, null while running; the dispatcher's thread only. */
    private final Map<String, Map<String, CallAnswer>> calls = new HashMap<>();
    private final ConcurrentLinkedQueue<Finished> finished = new ConcurrentLinkedQueue<>();

    private record Finished(String id, CallAnswer answer) {
    }

    DestinationCalls(String agentName, CallRunner runner, AgentListener listener, ThreadFactory threads) {
        this.agentName = agentName;
        this.runner = runner;
        this.listener = listener;
        // At most one call per running destination transfer runs at a time (the source waits for
        // each), so the threads are bounded by maxDestinationTransfers.
        this.executor = Executors.newCachedThreadPool(threads);
    }

    /**
     * A CALL of a running transfer.
     *
     * @param known whether a transfer id is still running here, polled by the running call
     */
    void onCall(DestinationTransfer t, Message m, ReplySender replies, Predicate<String> known)
            throws JMSException {
        String[] call = ProtocolCodec.readCall(m);
        String id = t.id();
        CallPhase phase;
        ProgramCall program;
        try {
            if (call == null) {
                throw new IllegalArgumentException("a CALL without its phase or call");
            }
            phase = CallPhase.fromElement(call[0]);
            if (phase != CallPhase.PRE_DESTINATION && phase != CallPhase.POST_DESTINATION) {
                throw new IllegalArgumentException("a CALL of phase " + call[0] + " (not a destination call)");
            }
            program = CallSpecs.parse(phase.element(), call[1]);
        } catch (IllegalArgumentException e) {
            log.warn("Transfer {}: dropped a CALL: {}", id, e.getMessage());
            return;
        }
        Map<String, CallAnswer> byPhase = calls.computeIfAbsent(id, k -> new HashMap<>());
        if (byPhase.containsKey(phase.element())) {
            CallAnswer done = byPhase.get(phase.element());
            if (done != null) {
                answer(t, done, replies);
            }
            return;
        }
        byPhase.put(phase.element(), null);
        try {
            executor.execute(() -> run(id, phase, program, known));
        } catch (RejectedExecutionException e) {
            finished.add(new Finished(id, answer(phase, CallResult.error("the agent is stopping"))));
        }
    }

    private void run(String id, CallPhase phase, ProgramCall program, Predicate<String> known) {
        CallResult r;
        try {
            r = runner.run(program, () -> !known.test(id));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            r = CallResult.error("the agent is stopping");
        } catch (RuntimeException e) {
            log.error("Transfer {}: the {} '{}' failed unexpectedly", id, phase.element(), program.name(), e);
            r = CallResult.error(e.toString());
        }
        log.info("Transfer {}: {} '{}': {}", id, phase.element(), program.name(), r.summary());
        listener.callCompleted(agentName, Role.DESTINATION, id, phase.element(), program, r);
        finished.add(new Finished(id, answer(phase, r)));
    }

    private static CallAnswer answer(CallPhase phase, CallResult r) {
        return new CallAnswer(phase.element(), r.outcome().xml(), r.retries(), r.returnCode(), r.stdout(), r.stderr(),
                r.error());
    }

    /** Sends the results of calls that finished since the last time (the dispatcher's tick). */
    void drain(Function<String, DestinationTransfer> find, ReplySender replies) {
        Finished f;
        while ((f = finished.poll()) != null) {
            Map<String, CallAnswer> byPhase = calls.get(f.id());
            DestinationTransfer t = find.apply(f.id());
            if (byPhase == null || t == null) {
                continue;
            }
            byPhase.put(f.answer().phase(), f.answer());
            try {
                answer(t, f.answer(), replies);
            } catch (JMSException e) {
                log.warn("Transfer {}: the result of its {} could not be sent: {}", f.id(), f.answer().phase(),
                        e.toString());
            }
        }
    }

    private static void answer(DestinationTransfer t, CallAnswer a, ReplySender replies) throws JMSException {
        replies.send(t.sourceAgent(), t.sourceQMgr(), replies.codec().callResult(t.id(), t.incarnation(), a));
    }

    /** The transfer is forgotten here: its results go (a running call sees it and ends). */
    void forget(String id) {
        calls.remove(id);
    }

    /** Ends the call threads: a running program is ended by its runner when interrupted. */
    void close() {
        executor.shutdownNow();
    }
}
