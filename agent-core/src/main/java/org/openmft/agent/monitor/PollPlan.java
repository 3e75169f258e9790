package org.openmft.agent.monitor;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.openmft.agent.ResultCode;
import org.openmft.xml.MonitorDefinition;

/**
 * What one poll submits, once its trigger decision is made: a request per batch of trigger
 * matches (up to the monitor's batch size), and for each the resources it is for and the variables
 * of its first trigger (its own {@code triggerSatisfied} log: IBM logs once per task), and the
 * batches whose task could not be prepared, with IBM's result code. {@link MonitorService} saves
 * the tasks with the new history in one transaction.
 */
final class PollPlan {
    final List<String> tasks = new ArrayList<>();
    /** Every resource the poll triggered, including those of batches whose task failed. */
    final List<String> names = new ArrayList<>();
    /** The resources each task was submitted for, aligned with {@link #tasks}. */
    final List<List<String>> taskNames = new ArrayList<>();
    /**
     * The variables of each task's first trigger (its {@code triggerSatisfied} log's metadata, the
     * values IBM's {@code ${...}} substitution uses outside the items of a batch), aligned with
     * {@link #tasks}; empty for a {@code fileNoMatch} trigger.
     */
    final List<Map<String, String>> taskMetadata = new ArrayList<>();
    /** Queue monitors: the history keys (groups) each task was submitted for, aligned with {@link #tasks}. */
    final List<List<String>> taskKeys = new ArrayList<>();
    final List<String> problems = new ArrayList<>();
    ResultCode problemCode;

    /** A task was prepared for {@code batchNames}, its first trigger's variables {@code metadata}. */
    private void prepared(String task, List<String> batchNames, Map<String, String> metadata) {
        tasks.add(task);
        taskNames.add(List.copyOf(batchNames));
        taskMetadata.add(metadata);
    }

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
        int batchSize = tasks.batchSize(m);
        for (int i = 0; i < triggered.size(); i += batchSize) {
            batches.add(triggered.subList(i, Math.min(triggered.size(), i + batchSize)));
        }
        for (List<FileSnapshot> batch : batches) {
            List<String> batchNames = batch.stream().map(f -> f == null ? "(no file matches)" : f.path()).toList();
            try {
                String task = tasks.prepare(m, batch, now);
                FileSnapshot first = batch.get(0);
                out.prepared(task, batchNames, first == null ? Map.of() : tasks.metadata(first, now));
            } catch (TaskVariables.TaskException e) {
                out.failed(e);
            }
            out.names.addAll(batchNames);
        }
        return out;
    }

    /** The tasks of a queue monitor's decision, a batch being up to the batch size of groups. */
    static PollPlan forMessages(MonitorDefinition m, QueueTriggerEvaluator.Decision decision, MonitorTasks tasks,
            Instant now) {
        PollPlan out = new PollPlan();
        boolean groups = m.conditions().get(0) instanceof org.openmft.xml.MonitorCondition.CompleteGroups;
        List<QueueMessage> triggered = decision.triggered();
        int batchSize = tasks.batchSize(m);
        for (int i = 0; i < triggered.size(); i += batchSize) {
            List<QueueMessage> batch = triggered.subList(i, Math.min(triggered.size(), i + batchSize));
            List<String> batchNames = batch.stream().map(q -> m.queue() + " message " + q.messageId()).toList();
            try {
                out.prepared(tasks.prepareQueue(m, batch, now), batchNames, tasks.queueMetadata(m, batch.get(0), now));
                out.taskKeys.add(batch.stream().map(q -> QueueTriggerEvaluator.key(q, groups)).toList());
            } catch (TaskVariables.TaskException e) {
                out.failed(e);
            }
            out.names.addAll(batchNames);
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
