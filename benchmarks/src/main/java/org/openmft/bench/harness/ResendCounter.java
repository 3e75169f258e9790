package org.openmft.bench.harness;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.openmft.agent.AgentListener;

/**
 * The agents' listener of a harness: counts the chunk resends each transfer reported, so that a
 * run's result can say it was not a clean one. Thread-safe: agents report from their own threads.
 */
final class ResendCounter implements AgentListener {
    private final Map<String, AtomicInteger> resends = new ConcurrentHashMap<>();

    @Override
    public void resending(String agent, String transferId, long fromSeq, String reason) {
        resends.computeIfAbsent(transferId, k -> new AtomicInteger()).incrementAndGet();
    }

    /** The resends reported for {@code transferId} so far. */
    int of(String transferId) {
        AtomicInteger n = resends.get(transferId);
        return n == null ? 0 : n.get();
    }
}
