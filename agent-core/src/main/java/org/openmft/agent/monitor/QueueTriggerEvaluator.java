package org.openmft.agent.monitor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decides, for one poll of a queue monitor, what triggers: pure, no queues or clocks.
 *
 * <p>IBM's conditions (reference §1.2): {@code queueNotEmpty} triggers when the queue holds a
 * message, the task taking its variables from the first message; {@code completeGroups} triggers
 * once per complete group (its last message is there; a message outside a group is a group of one),
 * the task taking the variables of the group's first message. Exactly once, as for files: the
 * history remembers the first message's id ({@code queueNotEmpty}) or each complete group's id
 * ({@code completeGroups}) that triggered, for as long as a poll still sees it, so a message or
 * group that stays on the queue (its task has not consumed it yet, or failed) does not trigger
 * again, and one that comes back after it left does. At most {@code maxResources} groups trigger in
 * one poll; the rest wait for the next.
 *
 * <p>Immutable and thread-safe.
 */
public final class QueueTriggerEvaluator {
    private static final FileHistory FIRED = new FileHistory(0, 0, 0, true);

    /**
     * What one poll decided.
     *
     * @param triggered the messages that trigger now (a group's first message), in queue order
     * @param history the history to keep: the keys this poll saw that triggered, now or before
     */
    public record Decision(List<QueueMessage> triggered, Map<String, FileHistory> history) {}

    private final boolean groups;

    /**
     * @param message a message that triggers (a group's first)
     * @param completeGroups whether the condition is {@code completeGroups}
     * @return its key in the history: its group's for {@code completeGroups}, its own id otherwise
     */
    static String key(QueueMessage message, boolean completeGroups) {
        return completeGroups ? "group:" + message.group() : "message:" + message.messageId();
    }

    /** @param completeGroups whether the condition is {@code completeGroups} (else {@code queueNotEmpty}) */
    public QueueTriggerEvaluator(boolean completeGroups) {
        this.groups = completeGroups;
    }

    /**
     * @param messages what this poll browsed, in queue order
     * @param history what the previous polls left
     * @param maxResources most groups triggered by this poll, or -1 for no limit
     * @return what triggers and the history to keep
     */
    public Decision evaluate(List<QueueMessage> messages, Map<String, FileHistory> history, int maxResources) {
        Map<String, FileHistory> next = new HashMap<>();
        List<QueueMessage> triggered = new ArrayList<>();
        if (!groups) {
            if (!messages.isEmpty()) {
                String key = key(messages.get(0), false);
                if (!history.containsKey(key) && maxResources != 0) {
                    triggered.add(messages.get(0));
                }
                next.put(key, FIRED);
            }
            return new Decision(List.copyOf(triggered), next);
        }
        Map<String, QueueMessage> first = new LinkedHashMap<>();
        Map<String, Boolean> complete = new HashMap<>();
        for (QueueMessage m : messages) {
            first.putIfAbsent(m.group(), m);
            if (m.groupId() == null || m.lastInGroup()) {
                complete.put(m.group(), true);
            }
        }
        for (Map.Entry<String, QueueMessage> e : first.entrySet()) {
            if (!complete.containsKey(e.getKey())) {
                continue;
            }
            String key = key(e.getValue(), true);
            if (history.containsKey(key)) {
                next.put(key, FIRED);
            } else if (maxResources < 0 || triggered.size() < maxResources) {
                triggered.add(e.getValue());
                next.put(key, FIRED);
            }
        }
        return new Decision(List.copyOf(triggered), next);
    }
}
