package org.openmft.agent.monitor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.openmft.agent.ResultCode;
import org.openmft.agent.transfer.protocol.TransferIds;
import org.openmft.xml.MonitorDefinition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * IBM's {@code monitorGroupRetryLimit} for queue monitors: a group (or message) whose transfer
 * failed and that is still on the queue triggers again at a later poll, at most the limit times
 * (-1: no limit), counted in memory from the agent's start as IBM counts it.
 *
 * <p>The transfers a queue monitor submitted are awaited by transfer id (made from the task
 * message's id, as the command thread makes it; at most {@link #MAX_AWAITED}, beyond which a
 * failure is not retried). {@link #ended} is called from the transfer threads and only queues a
 * failure; everything else runs on the polling thread under {@link MonitorService}'s lock.
 */
final class GroupRetries {
    /** The monitor service's log, where a monitor's other messages are. */
    private static final Logger log = LoggerFactory.getLogger(MonitorService.class);
    /** Most transfers awaited for their outcome. */
    static final int MAX_AWAITED = 10_000;

    /** The history keys (groups) of one monitor's transfer. */
    record Submitted(String monitor, List<String> keys) {}

    private final int limit;
    private final String agentQMgr;
    private final Map<String, Submitted> awaited = new ConcurrentHashMap<>();
    private final Queue<Submitted> failed = new ConcurrentLinkedQueue<>();
    /** Times each monitor's groups triggered again; polling thread only. */
    private final Map<String, Map<String, Integer>> times = new HashMap<>();

    /**
     * @param limit the agent's {@code monitorGroupRetryLimit}, -1 for no limit, 0 for none
     * @param agentQMgr the agent's queue manager, part of a request's transfer id
     */
    GroupRetries(int limit, String agentQMgr) {
        this.limit = limit;
        this.agentQMgr = agentQMgr;
    }

    /** A poll of {@code monitor} submitted tasks: their message ids and, aligned, the groups of each. */
    void submitted(String monitor, List<String> messageIds, List<List<String>> keys) {
        if (limit == 0) {
            return;
        }
        for (int i = 0; i < keys.size() && i < messageIds.size() && awaited.size() < MAX_AWAITED; i++) {
            awaited.put(TransferIds.forRequest(messageIds.get(i), agentQMgr), new Submitted(monitor, keys.get(i)));
        }
    }

    /** A transfer this agent was the source of ended; takes no lock. */
    void ended(String transferId, int resultCode) {
        Submitted s = awaited.remove(transferId);
        if (s != null && resultCode != ResultCode.SUCCESS.code()) {
            failed.add(s);
        }
    }

    /** @return the next failed transfer's groups, or null */
    Submitted nextFailed() {
        return failed.poll();
    }

    /**
     * Takes a failed transfer's groups out of {@code history} where they may trigger again: those
     * still in it (still on the queue) and under the limit; one over the limit stays, logged as an
     * error.
     *
     * @param monitor the queue monitor
     * @param agent the agent, for the log
     * @param keys the failed transfer's groups
     * @param history the monitor's history, changed in place
     * @return the groups taken out
     */
    List<String> forget(MonitorDefinition monitor, String agent, List<String> keys, Map<String, FileHistory> history) {
        List<String> again = new ArrayList<>();
        for (String key : keys) {
            if (!history.containsKey(key)) {
                continue; // it left the queue: nothing to trigger
            }
            int n = times.computeIfAbsent(monitor.name(), m -> new HashMap<>()).merge(key, 1, Integer::sum);
            if (limit >= 0 && n > limit) {
                log.error("Monitor {} on agent {}: the transfer triggered by {} failed, and it was triggered again {}"
                        + " time(s), the agent's monitorGroupRetryLimit: it does not trigger again while it stays on"
                        + " queue {}", monitor.name(), agent, key, limit, monitor.queue());
                continue;
            }
            history.remove(key);
            again.add(key);
        }
        return again;
    }

    /** A poll of {@code monitor} saw these groups: the counts of the others (gone from the queue) go. */
    void seen(String monitor, Set<String> keys) {
        Map<String, Integer> counts = times.get(monitor);
        if (counts != null) {
            counts.keySet().retainAll(keys);
            if (counts.isEmpty()) {
                times.remove(monitor);
            }
        }
    }
}
