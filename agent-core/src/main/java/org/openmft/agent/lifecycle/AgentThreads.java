package org.openmft.agent.lifecycle;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

import org.openmft.agent.Agent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Creates the threads of an agent, or of another OpenMFT daemon, so that every one of them is
 * named after its owner and role, {@code openmft-<owner>-<role>} (numbered
 * {@code openmft-<owner>-<role>-<n>} when made by a {@link #factory pool factory}), and none dies
 * unnoticed: an uncaught exception is logged with the owner's name and handed to the owner's
 * {@link FailureListener}. For an agent the error is logged under the agent's {@link Agent#MDC_AGENT
 * MDC key}, so it lands in that agent's own log; the {@link Agent} moves itself to
 * {@link org.openmft.agent.AgentState#PROBLEM PROBLEM} when one of its threads fails.
 *
 * <p>Threads are returned unstarted. Whoever creates a thread owns it: starts it, asks it to end,
 * and waits a bounded time for it ({@link BoundedJoin}).
 *
 * <p>Thread-safe.
 */
public final class AgentThreads {
    private static final Logger log = LoggerFactory.getLogger(AgentThreads.class);

    /** Told when a thread ended with an uncaught exception, after it was logged. */
    @FunctionalInterface
    public interface FailureListener {
        /** Logging only. */
        FailureListener NONE = (thread, error) -> { };

        /**
         * Called on the failing thread, as it ends; must not block for long. An exception it
         * throws is logged and otherwise ignored.
         */
        void threadFailed(Thread thread, Throwable error);
    }

    private final String owner;
    /** The MDC value set while logging a failure, or null for a daemon that is not an agent. */
    private final String mdcAgent;
    private final FailureListener onFailure;
    private final Thread.UncaughtExceptionHandler handler = this::uncaught;

    private AgentThreads(String owner, String mdcAgent, FailureListener onFailure) {
        if (owner == null || owner.isEmpty()) {
            throw new IllegalArgumentException("a thread owner needs a name");
        }
        this.owner = owner;
        this.mdcAgent = mdcAgent;
        this.onFailure = onFailure == null ? FailureListener.NONE : onFailure;
    }

    /**
     * The threads of agent {@code agent}: {@code openmft-<agent>-<role>}; a failure is logged to
     * the agent's log and reported to {@code onFailure}.
     */
    public static AgentThreads forAgent(String agent, FailureListener onFailure) {
        return new AgentThreads(agent, agent, onFailure);
    }

    /**
     * The threads of a daemon that is not an agent (a queue manager's host, a logger, a command):
     * {@code openmft-<owner>-<role>}; a failure is logged to the process's log.
     */
    public static AgentThreads forProcess(String owner) {
        return new AgentThreads(owner, null, FailureListener.NONE);
    }

    /** The agent or daemon whose threads these are. */
    public String owner() {
        return owner;
    }

    /** The name of the thread of {@code role}: {@code openmft-<owner>-<role>}. */
    public String threadName(String role) {
        if (role == null || role.isEmpty()) {
            throw new IllegalArgumentException("a thread of " + owner + " needs a role");
        }
        return "openmft-" + owner + "-" + role;
    }

    /**
     * A thread that keeps the JVM alive while it runs (the work it does must finish or be stopped
     * before the process may end), unstarted.
     */
    public Thread newThread(String role, Runnable task) {
        return create(threadName(role), task, false);
    }

    /** A daemon thread (the JVM may end while it runs), unstarted. */
    public Thread newDaemonThread(String role, Runnable task) {
        return create(threadName(role), task, true);
    }

    /**
     * A factory for a pool's threads of one role, {@code openmft-<owner>-<role>-<n>} with n counting
     * from 1.
     */
    public ThreadFactory factory(String role, boolean daemon) {
        String prefix = threadName(role) + "-";
        AtomicInteger n = new AtomicInteger();
        return task -> create(prefix + n.incrementAndGet(), task, daemon);
    }

    /** The handler these threads have, for threads made elsewhere (such as by a library). */
    public Thread.UncaughtExceptionHandler uncaughtExceptionHandler() {
        return handler;
    }

    private Thread create(String name, Runnable task, boolean daemon) {
        Thread t = new Thread(task, name);
        t.setDaemon(daemon);
        t.setUncaughtExceptionHandler(handler);
        return t;
    }

    private String who() {
        return mdcAgent != null ? "Agent " + owner : owner;
    }

    private void uncaught(Thread thread, Throwable error) {
        String previous = MDC.get(Agent.MDC_AGENT);
        if (mdcAgent != null) {
            MDC.put(Agent.MDC_AGENT, mdcAgent);
        }
        try {
            log.error("{}: thread {} ended with an unexpected error", who(), thread.getName(), error);
            try {
                onFailure.threadFailed(thread, error);
            } catch (RuntimeException e) {
                log.warn("{}: reporting the failure of thread {} failed too", who(), thread.getName(), e);
            }
        } finally {
            if (previous != null) {
                MDC.put(Agent.MDC_AGENT, previous);
            } else {
                MDC.remove(Agent.MDC_AGENT);
            }
        }
    }
}
