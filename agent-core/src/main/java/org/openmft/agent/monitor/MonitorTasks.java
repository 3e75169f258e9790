package org.openmft.agent.monitor;

import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.openmft.agent.ResultCode;
import org.openmft.xml.CommandDocument;
import org.openmft.xml.MalformedRequestException;
import org.openmft.xml.ManagedCallRequest;
import org.openmft.xml.MonitorCondition;
import org.openmft.xml.MonitorDefinition;
import org.openmft.xml.RequestParser;
import org.openmft.xml.TransferRequest;

/**
 * Turns a monitor's task into the request a trigger submits: its variables substituted
 * ({@link TaskVariables}), the monitor's job name added, and the result checked to be a transfer
 * request from the monitoring agent, or a managed call ({@code <managedCall>}) run by it (IBM's
 * result 111 otherwise). Either goes on the agent's COMMAND queue and runs as one sent there. Also checks a task when the
 * monitor is created, with a sample file, so a task that could never run is refused up front. A
 * monitor with trigger content ({@code -tc}) takes one trigger file per task and one set of values
 * per file it lists ({@link TriggerContents}).
 *
 * <p>Stateless apart from its settings; thread-safe.
 */
final class MonitorTasks {
    private final String agentName;
    private final TaskVariables variables;
    private final RequestParser parser = new RequestParser();
    private final TriggerContents.Reader triggerFiles;

    /**
     * @param agentName the monitoring agent
     * @param zone the agent's time zone
     * @param triggerFiles reads a trigger file that lists files ({@code -tc}) in its monitor's sandbox
     */
    MonitorTasks(String agentName, ZoneId zone, TriggerContents.Reader triggerFiles) {
        this.agentName = agentName;
        this.variables = new TaskVariables(java.io.File.separator, zone);
        this.triggerFiles = triggerFiles;
    }

    /**
     * Why the task cannot run, as "NNN message" with IBM's result code, or null: it is substituted
     * with a sample file in the monitored directory and read as a transfer request.
     */
    String check(MonitorDefinition m, Instant now) {
        String task = m.task().requestXml();
        if (m.queueMonitor()) {
            // The message's properties are known only when it arrives: every name is taken as
            // provided here, and its syntax and the request around it checked.
            Map<String, String> any = new java.util.HashMap<>(variables.queueMetadata(new QueueMessage("sample", "sample",
                    true, "546", Map.of()), agentName, m.queue(), true, m.defaultVariables(), now)) {
                private static final long serialVersionUID = 1L;

                @Override
                public String get(Object key) {
                    return getOrDefault(key, "sample");
                }
            };
            try {
                submit(m, List.of(any));
                return null;
            } catch (TaskVariables.TaskException e) {
                return e.resultCode().code() + " " + e.getMessage();
            }
        }
        boolean onlyNoMatch = m.conditions().stream().allMatch(c -> c instanceof MonitorCondition.FileNoMatch);
        FileSnapshot sample = onlyNoMatch ? null : new FileSnapshot(Path.of(m.directory(), "sample.txt").toString(),
                "sample.txt", 0, now.toEpochMilli());
        if (onlyNoMatch && TaskVariables.usesVariables(task)) {
            return "110 BFGDM0060E: the task uses variables, which a noMatch trigger does not provide";
        }
        try {
            if (m.triggerContent() != null) {
                return checkContent(m, sample, now);
            }
            prepare(m, java.util.Collections.singletonList(sample), now);
            return null;
        } catch (TaskVariables.TaskException e) {
            return e.resultCode().code() + " " + e.getMessage();
        }
    }

    /**
     * The request document a batch of files submits.
     *
     * @param batch the files, or one {@code null} for a trigger without a file
     */
    String prepare(MonitorDefinition m, List<FileSnapshot> batch, Instant now) throws TaskVariables.TaskException {
        if (m.triggerContent() != null) {
            return submit(m, listed(m, batch.get(0), now));
        }
        List<Map<String, String>> values = new ArrayList<>();
        for (FileSnapshot file : batch) {
            values.add(variables.metadata(file, agentName, now));
        }
        return submit(m, values);
    }

    /**
     * The variables a file's trigger substitutes into the task, for the {@code triggerSatisfied}
     * log's metadata: IBM's names in upper case ({@code FILENAME}, {@code FILEPATH} ...), sorted.
     */
    Map<String, String> metadata(FileSnapshot file, Instant now) {
        return upperCase(variables.metadata(file, agentName, now));
    }

    /** The variables a queue monitor's trigger substitutes, as {@link #metadata(FileSnapshot, Instant)}. */
    Map<String, String> queueMetadata(MonitorDefinition m, QueueMessage message, Instant now) {
        boolean groups = m.conditions().get(0) instanceof org.openmft.xml.MonitorCondition.CompleteGroups;
        return upperCase(variables.queueMetadata(message, agentName, m.queue(), groups, m.defaultVariables(), now));
    }

    private static Map<String, String> upperCase(Map<String, String> values) {
        Map<String, String> upper = new java.util.TreeMap<>();
        values.forEach((key, value) -> upper.put(key.toUpperCase(java.util.Locale.ROOT), value));
        return upper;
    }

    /**
     * The request document a batch of a queue monitor's triggers submits.
     *
     * @param batch the first message of each triggering group (or of the queue)
     */
    String prepareQueue(MonitorDefinition m, List<QueueMessage> batch, Instant now) throws TaskVariables.TaskException {
        boolean groups = m.conditions().get(0) instanceof org.openmft.xml.MonitorCondition.CompleteGroups;
        List<Map<String, String>> values = new ArrayList<>();
        for (QueueMessage message : batch) {
            values.add(variables.queueMetadata(message, agentName, m.queue(), groups, m.defaultVariables(), now));
        }
        return submit(m, values);
    }

    /**
     * How many triggers one task takes: the monitor's batch size ({@code -bs}) for a transfer, whose
     * items repeat per file; one for a managed call, which has no items to repeat, so that each
     * trigger runs the call once with its own variables.
     */
    int batchSize(MonitorDefinition m) {
        return MANAGED_CALL.matcher(m.task().requestXml()).find() || m.triggerContent() != null ? 1 : m.batchSize();
    }

    /**
     * {@code -tc}: the values of each file a trigger file lists, as the item repeats per line: the
     * trigger file's own variables plus {@code contentSource} and, when the line gives one,
     * {@code contentDestination}.
     */
    private List<Map<String, String>> listed(MonitorDefinition m, FileSnapshot trigger, Instant now)
            throws TaskVariables.TaskException {
        String text = triggerFiles.read(m.name(), Path.of(trigger.path()));
        List<TriggerContents.Entry> entries = TriggerContents.parse(trigger.path(), text, m.triggerContent());
        if (entries.isEmpty()) {
            throw new TaskVariables.TaskException(ResultCode.MONITOR_TASK_FAILED, "trigger file " + trigger.path()
                    + " lists no files");
        }
        Map<String, String> own = variables.metadata(trigger, agentName, now);
        List<Map<String, String>> values = new ArrayList<>(entries.size());
        for (TriggerContents.Entry entry : entries) {
            values.add(TaskVariables.withContent(own, entry.source(), entry.destination()));
        }
        return values;
    }

    /** A -tc monitor's task at creation: it must place ${contentSource}; substituted with a sample line. */
    private String checkContent(MonitorDefinition m, FileSnapshot sample, Instant now)
            throws TaskVariables.TaskException {
        if (MANAGED_CALL.matcher(m.task().requestXml()).find()) {
            return "43 a monitor with trigger content (-tc) runs a transfer, whose item repeats per listed file, not a"
                    + " managed call";
        }
        if (!TaskVariables.usesContentSource(m.task().requestXml())) {
            return "43 the task does not use ${contentSource}, which a monitor with trigger content (-tc) fills with"
                    + " each file the trigger file lists";
        }
        submit(m, List.of(TaskVariables.withContent(variables.metadata(sample, agentName, now),
                Path.of(m.directory(), "listed.txt").toString(), "listed.txt")));
        return null;
    }

    /** The start tag of a {@code <managedCall>} (with any namespace prefix). */
    private static final java.util.regex.Pattern MANAGED_CALL = java.util.regex.Pattern.compile(
            "<([A-Za-z_][\\w.-]*:)?managedCall[\\s/>]");

    private String submit(MonitorDefinition m, List<Map<String, String>> values) throws TaskVariables.TaskException {
        String task = variables.substitute(m.task().requestXml(), values);
        if (m.jobName() != null && !task.contains("<job>")) {
            // The monitor's job name (-mj) goes into the task as a request's own <job> would.
            for (String root : List.of("</managedTransfer>", "</managedCall>")) {
                if (task.contains(root)) {
                    task = task.replace(root, "<job><name>" + escape(m.jobName()) + "</name></job>" + root);
                }
            }
        }
        CommandDocument document;
        try {
            document = parser.parse(task);
        } catch (MalformedRequestException e) {
            throw new TaskVariables.TaskException(ResultCode.MALFORMED_XML, "the task is not a valid transfer request: "
                    + e.getMessage());
        }
        if (document instanceof ManagedCallRequest call) {
            // A managed call (IBM: <request><managedCall> in the task) runs on the monitoring agent.
            if (!call.agent().agent().equalsIgnoreCase(agentName)) {
                throw new TaskVariables.TaskException(ResultCode.MONITOR_TASK_SOURCE_AGENT, "the task's agent "
                        + call.agent().agent() + " is not the monitoring agent " + agentName);
            }
            return task;
        }
        if (!(document instanceof TransferRequest request)) {
            throw new TaskVariables.TaskException(ResultCode.MALFORMED_XML, "the task is neither a transfer request"
                    + " (<managedTransfer>) nor a managed call (<managedCall>)");
        }
        if (request.schedule() != null) {
            // IBM (9.0.4 on): a monitor's task cannot be a scheduled transfer.
            throw new TaskVariables.TaskException(ResultCode.MALFORMED_XML, "the task is a scheduled transfer"
                    + " (<schedule>), which a monitor cannot run");
        }
        if (!request.sourceAgent().agent().equalsIgnoreCase(agentName)) {
            throw new TaskVariables.TaskException(ResultCode.MONITOR_TASK_SOURCE_AGENT, "the task's source agent "
                    + request.sourceAgent().agent() + " is not the monitoring agent " + agentName);
        }
        return task;
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
