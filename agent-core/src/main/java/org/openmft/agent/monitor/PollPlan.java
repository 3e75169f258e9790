package org.openmft.agent.monitor;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.openmft.agent.ResultCode;
import org.openmft.xml.MonitorDefinition;

/**
 * What one poll submits, once its trigger decision is made: a request per batch of trigger
 * matches (up to the monitor's batch size), the resources they are for (for the
 * {@code triggerSatisfied} log), and the batches whose task could not be prepared, with IBM's
 * result code. {@link MonitorService} saves the tasks with the new history in one transaction.
 */
final class PollPlan {
    final List<String> tasks = new ArrayList<>();
    final List<String> names = new ArrayList<>();
    /** Queue monitors: the history keys (groups) each task was submitted for, aligned with {@link #tasks}. */
    final List<List<String>> taskKeys = new ArrayList<>();
    final List<String> problems = new ArrayList<>();
    ResultCode problemCode;
    /** The variables of the poll's first trigger (the {@code triggerSatisfied} log's metadata), or empty. */
    Map<String, String> metadata = Map.of();

    private void failed(TaskVariables.TaskException e) {
        problemCode = e.resultCode();
        problems.add(e.getMessage());
    }

    /** The tasks of a directory monitor's decision; a {@code fileNoMatch} trigger is a batch without a file. */
    static PollPlan forFiles(MonitorDefinition m, TriggerEvaluator.Decision decision, MonitorTasks tasks, Instant now) {
        PollPlan out = new PollPlan();
        List<List<FileSnapshot>> batches = new ArrayList<>();
        if (decision.noMatchTriggered()) {
            batches.add(java.util.Collections.singletonList(null));
        }
        List<FileSnapshot> triggered = decision.triggered();
        if (!triggered.isEmpty()) {
            out.metadata = tasks.metadata(triggered.get(0), now);
        }
        int batchSize = tasks.batchSize(m);
        for (int i = 0; i < triggered.size(); i += batchSize) {
            batches.add(triggered.subList(i, Math.min(triggered.size(), i + batchSize)));
        }
        for (List<FileSnapshot> batch : batches) {
            try {
                out.tasks.add(tasks.prepare(m, batch, now));
            } catch (TaskVariables.TaskException e) {
                out.failed(e);
            }
            for (FileSnapshot f : batch) {
                out.names.add(f == null ? "(no file matches)" : f.path());
            }
        }
        return out;
    }

    /** The tasks of a queue monitor's decision, a batch being up to the batch size of groups. */
    static PollPlan forMessages(MonitorDefinition m, QueueTriggerEvaluator.Decision decision, MonitorTasks tasks,
            Instant now) {
        PollPlan out = new PollPlan();
        boolean groups = m.conditions().get(0) instanceof org.openmft.xml.MonitorCondition.CompleteGroups;
        List<QueueMessage> triggered = decision.triggered();
        if (!triggered.isEmpty()) {
            out.metadata = tasks.queueMetadata(m, triggered.get(0), now);
        }
        int batchSize = tasks.batchSize(m);
        for (int i = 0; i < triggered.size(); i += batchSize) {
            List<QueueMessage> batch = triggered.subList(i, Math.min(triggered.size(), i + batchSize));
            try {
                out.tasks.add(tasks.prepareQueue(m, batch, now));
                out.taskKeys.add(batch.stream().map(q -> QueueTriggerEvaluator.key(q, groups)).toList());
            } catch (TaskVariables.TaskException e) {
                out.failed(e);
            }
            batch.forEach(q -> out.names.add(m.queue() + " message " + q.messageId()));
        }
        return out;
    }

    /** Whether two histories know the same files in the same states (polls counted aside). */
    static boolean sameFiles(Map<String, FileHistory> a, Map<String, FileHistory> b) {
        if (a == b) {
            return true;
        }
        if (!a.keySet().equals(b.keySet())) {
            return false;
        }
        for (Map.Entry<String, FileHistory> e : a.entrySet()) {
            FileHistory x = e.getValue();
            FileHistory y = b.get(e.getKey());
            if (x.size() != y.size() || x.lastModifiedMillis() != y.lastModifiedMillis() || x.triggered() != y.triggered()) {
                return false;
            }
        }
        return true;
    }
}
