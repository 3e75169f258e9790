package org.openmft.agent.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Queue monitor decisions: complete groups once each, queueNotEmpty once per first message, limits. */
class QueueTriggerEvaluatorTest {
    private static QueueMessage m(String id, String group, boolean last) {
        return new QueueMessage(id, group, last, null, Map.of());
    }

    @Test
    void completeGroupsTriggerOnceAndIncompleteOnesWait() {
        QueueTriggerEvaluator groups = new QueueTriggerEvaluator(true);
        List<QueueMessage> queue = List.of(m("1", null, false), m("2", "G1", false), m("3", "G2", false),
                m("4", "G1", true));
        QueueTriggerEvaluator.Decision first = groups.evaluate(queue, Map.of(), -1);
        assertThat(first.triggered()).extracting(QueueMessage::messageId).containsExactly("1", "2");
        assertThat(first.history()).containsOnlyKeys("group:1", "group:G1");

        List<QueueMessage> more = List.of(m("1", null, false), m("2", "G1", false), m("3", "G2", false),
                m("4", "G1", true), m("5", "G2", true));
        QueueTriggerEvaluator.Decision second = groups.evaluate(more, first.history(), -1);
        assertThat(second.triggered()).extracting(QueueMessage::messageId).containsExactly("3");

        // Consumed groups are forgotten; the same group id coming back triggers again.
        QueueTriggerEvaluator.Decision emptied = groups.evaluate(List.of(), second.history(), -1);
        assertThat(emptied.history()).isEmpty();
        assertThat(groups.evaluate(List.of(m("9", "G1", true)), emptied.history(), -1).triggered()).hasSize(1);
    }

    @Test
    void monitorMaxResourcesInPollLeavesTheRestForTheNextPoll() {
        QueueTriggerEvaluator groups = new QueueTriggerEvaluator(true);
        List<QueueMessage> queue = List.of(m("1", null, false), m("2", null, false), m("3", null, false));
        QueueTriggerEvaluator.Decision first = groups.evaluate(queue, Map.of(), 2);
        assertThat(first.triggered()).hasSize(2);
        assertThat(groups.evaluate(queue, first.history(), 2).triggered()).extracting(QueueMessage::messageId)
                .containsExactly("3");
    }

    @Test
    void queueNotEmptyTriggersOncePerFirstMessage() {
        QueueTriggerEvaluator notEmpty = new QueueTriggerEvaluator(false);
        assertThat(notEmpty.evaluate(List.of(), Map.of(), -1).triggered()).isEmpty();
        QueueTriggerEvaluator.Decision first = notEmpty.evaluate(List.of(m("1", null, false), m("2", null, false)),
                Map.of(), -1);
        assertThat(first.triggered()).extracting(QueueMessage::messageId).containsExactly("1");
        assertThat(notEmpty.evaluate(List.of(m("1", null, false)), first.history(), -1).triggered()).isEmpty();
        assertThat(notEmpty.evaluate(List.of(m("2", null, false)), first.history(), -1).triggered())
                .extracting(QueueMessage::messageId).containsExactly("2");
    }
}
