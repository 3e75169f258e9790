package org.openmft.coordination.publish;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The one thread, {@value #NAME}, that sends the publications of every agent of a process: a
 * queue manager's process hosting 500 agents has one publisher thread, not 500. Each agent keeps
 * its own {@link PublicationSender} (its buffer, its outbox, its connections as its own user); this
 * thread gives each in turn one {@link PublicationSender#step pass}, then sleeps until a buffer
 * receives a publication or the soonest pass is due (a second while every agent is idle, a fifth of
 * one while a transfer is logged). A sender is taken off before it flushes at its agent's stop,
 * which happens on the stopping thread, so one agent's stop neither stops nor holds up the others.
 *
 * <p>What one sender does on this thread is what its own thread did: sends over connections opened
 * and re-made (with back-off) by that sender. An agent whose coordination queue manager is slow
 * delays the others' publications by as long as its pass takes; connection attempts that fail are
 * not repeated by other agents of the same login for a second ({@code SharedConnections}), so an
 * unreachable coordination queue manager costs one attempt a second, not one per agent.
 *
 * <p>An {@link Error} thrown by a pass (an {@code OutOfMemoryError}, a {@code StackOverflowError})
 * ends the thread, as it would end any thread; it is logged, and the thread is made again by the
 * next publication any agent buffers, or by the next agent that starts, so no agent's
 * publications stop for good because of one pass.
 *
 * <p>Thread-safe.
 */
final class PublisherThread {
    private static final Logger log = LoggerFactory.getLogger(PublisherThread.class);

    /** The thread's name. */
    static final String NAME = "openmft-publisher";
    /** The process's publisher thread. */
    static final PublisherThread PROCESS = new PublisherThread();

    /** A thread of its own; the process has {@link #PROCESS}, tests make others. */
    PublisherThread() {
    }

    /** What the thread runs for each agent: a {@link PublicationSender}. */
    interface Pass {
        /** The agent, for the log. */
        String agent();

        /** One pass without waiting; milliseconds until the next one is wanted. */
        long step();
    }

    private final List<Pass> senders = new CopyOnWriteArrayList<>();
    private final Object signal = new Object();
    private boolean signalled;
    /** Written under this object's lock; read without it on the publications' path. */
    private volatile Thread thread;

    /** Serves {@code sender} from now on; starts the thread with the first. */
    void add(Pass sender) {
        senders.add(sender);
        wake();
    }

    /**
     * Serves {@code sender} no more. A pass of it may still be running: its passes hold its lock,
     * which {@link PublicationSender#finishStep} waits for.
     */
    void remove(Pass sender) {
        senders.remove(sender);
    }

    /** A buffer received a publication: the next passes run now. */
    void wake() {
        Thread running = thread;
        if (running == null || !running.isAlive()) {
            ensureRunning();
        }
        synchronized (signal) {
            signalled = true;
            signal.notifyAll();
        }
    }

    /** Starts the thread if there is none or an {@link Error} ended it. */
    private synchronized void ensureRunning() {
        if (thread == null || !thread.isAlive()) {
            if (thread != null) {
                log.warn("The publisher thread had ended (see the error above); it is started again");
            }
            thread = new Thread(this::run, NAME);
            thread.setDaemon(true);
            thread.start();
        }
    }

    /** Whether the thread runs now (tests). */
    synchronized boolean running() {
        return thread != null && thread.isAlive();
    }

    /** How many senders it serves. */
    int size() {
        return senders.size();
    }

    private void run() {
        while (true) {
            long wait = 1000;
            for (Pass s : senders) {
                // What a pass logs goes to its agent's log, as from the agent's own thread.
                MDC.put(org.openmft.agent.Agent.MDC_AGENT, s.agent());
                try {
                    wait = Math.min(wait, s.step());
                } catch (RuntimeException e) {
                    log.error("Agent {}: a publication pass failed; it is tried again", s.agent(), e);
                    wait = Math.min(wait, 200);
                } catch (Error e) {
                    log.error("Agent {}: a publication pass failed with {}; the publisher thread ends and is"
                            + " started again by the next publication", s.agent(), e.toString(), e);
                    throw e;
                } finally {
                    MDC.remove(org.openmft.agent.Agent.MDC_AGENT);
                }
            }
            synchronized (signal) {
                try {
                    if (!signalled && wait > 0) {
                        signal.wait(wait);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                signalled = false;
            }
        }
    }
}
