package org.openmft.xml;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * A resource monitor as IBM's Monitor.xsd defines it: the {@code <monitor:monitor>} document that
 * {@code fteCreateMonitor} puts on the monitoring agent's COMMAND queue and {@code -ox} writes to a
 * file. Namespace {@value #NAMESPACE} on the root only; children unqualified. Immutable.
 *
 * <p>Directory monitors ({@code <directory>}) and queue monitors ({@code <queue>}, with
 * {@code queueNotEmpty} or {@code completeGroups} and {@code <defaultVariables>}); managed-call
 * tasks are refused by {@link RequestParser} as not supported yet.
 *
 * @param version the version attribute read, 1.00 to 6.00
 * @param name the monitor's name, stored upper case as IBM does; no {@code *}, {@code %} or {@code ?}
 * @param description free text, or {@code null}
 * @param pollInterval how often the directory is looked at
 * @param batchSize most trigger matches one task carries ({@code <batch maxSize>}, {@code -bs}); at least 1
 * @param agent the monitoring agent, which must be the task's source agent
 * @param directory the directory watched, or {@code null} for a queue monitor
 * @param recursionLevel subdirectory levels descended ({@code recursionLevel}, {@code -rl}); 0 for none
 * @param allOf whether every condition must hold ({@code <allOf>}) or one ({@code <anyOf>})
 * @param conditions the trigger conditions; at least one
 * @param reply where the agent answers the create request, or {@code null}
 * @param task the task run on a trigger: a transfer request with IBM's {@code ${...}} variables
 * @param originator who created the monitor
 * @param jobName the job name given to the transfers the monitor starts ({@code -jn}), or {@code null}
 * @param overwrite whether a monitor of the same name is replaced ({@code -f}); the root's
 *     {@code overwrite="true"}, as public generators write it (IBM's schema does not list it)
 * @param clearHistory with {@code overwrite}: whether the replaced monitor's history is forgotten
 *     ({@code -c}); OpenMFT's root attribute {@code clearHistory="true"}
 * @param queue the queue watched ({@code -mq}, on the agent's queue manager), or {@code null}
 * @param defaultVariables values for variables a queue monitor's message lacks ({@code -dv},
 *     {@code <defaultVariables>}), by name as written
 * @param triggerContent whether the trigger file lists the files to transfer ({@code -tc},
 *     {@code -tcr}, {@code -tcc}), or {@code null}; directory monitors with {@code fileMatch} or
 *     {@code fileSizeSame} conditions and a batch size of 1 only
 */
public record MonitorDefinition(String version, String name, String description, PollInterval pollInterval,
        int batchSize, String agent, String directory, int recursionLevel, boolean allOf,
        List<MonitorCondition> conditions, ReplyTo reply, MonitorTask task, Originator originator, String jobName,
        boolean overwrite, boolean clearHistory, String queue, java.util.Map<String, String> defaultVariables,
        TriggerContent triggerContent) implements CommandDocument {

    /** The namespace of the root element, as IBM writes it. */
    public static final String NAMESPACE = "http://www.ibm.com/xmlns/wmqfte/7.0.1/MonitorDefinition";
    /** Longest monitor name IBM accepts. */
    public static final int MAX_NAME_LENGTH = 256;
    /** Deepest {@code recursionLevel} accepted; a directory tree deeper than this is not a drop box. */
    public static final int MAX_RECURSION_LEVEL = 1000;
    /** Largest {@code <batch maxSize>} accepted. */
    public static final int MAX_BATCH_SIZE = 10_000;

    /** Validates; the name becomes upper case. */
    public MonitorDefinition {
        version = Checks.version(version);
        name = monitorName(name);
        description = description == null || description.isEmpty() ? null : Checks.xmlText(description, "description");
        Objects.requireNonNull(pollInterval, "pollInterval");
        if (batchSize < 1 || batchSize > MAX_BATCH_SIZE) {
            throw new IllegalArgumentException("batch maxSize " + batchSize + " is out of range 1-" + MAX_BATCH_SIZE);
        }
        agent = Checks.name(agent, "agent");
        if ((directory == null) == (queue == null)) {
            throw new IllegalArgumentException("a monitor watches one directory or one queue");
        }
        directory = directory == null ? null : Checks.path(directory, "directory");
        queue = queue == null ? null : Checks.name(queue, "queue");
        defaultVariables = defaultVariables == null ? Map.of() : Map.copyOf(defaultVariables);
        if (directory != null && !defaultVariables.isEmpty()) {
            throw new IllegalArgumentException("default variables (-dv) are for queue monitors only");
        }
        if (recursionLevel < 0 || recursionLevel > MAX_RECURSION_LEVEL) {
            throw new IllegalArgumentException("recursionLevel " + recursionLevel + " is out of range 0-"
                    + MAX_RECURSION_LEVEL);
        }
        conditions = List.copyOf(conditions);
        if (conditions.isEmpty()) {
            throw new IllegalArgumentException("a monitor needs at least one trigger condition");
        }
        for (MonitorCondition c : conditions) {
            if (c.onQueue() != (queue != null)) {
                throw new IllegalArgumentException(queue != null
                        ? "a queue monitor's condition is queueNotEmpty or completeGroups"
                        : "queueNotEmpty and completeGroups are conditions of queue monitors (-mq)");
            }
        }
        if (queue != null && conditions.size() > 1) {
            throw new IllegalArgumentException("a queue monitor has one condition, queueNotEmpty or completeGroups");
        }
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(originator, "originator");
        jobName = Checks.optionalName(jobName, "job name");
        if (triggerContent != null) {
            checkTriggerContent(queue, conditions, batchSize);
        }
    }

    /** IBM: -tc goes with the match and noSizeChange triggers of a directory, one request per trigger file. */
    private static void checkTriggerContent(String queue, List<MonitorCondition> conditions, int batchSize) {
        if (queue != null) {
            throw new IllegalArgumentException("trigger content (-tc) is for directory monitors only");
        }
        for (MonitorCondition c : conditions) {
            if (!(c instanceof MonitorCondition.FileMatch) && !(c instanceof MonitorCondition.FileSizeSame)) {
                throw new IllegalArgumentException("trigger content (-tc) goes with the match and noSizeChange"
                        + " triggers only");
            }
        }
        if (batchSize != 1) {
            throw new IllegalArgumentException("trigger content (-tc) cannot be used with a batch size (-bs) of "
                    + batchSize + ": each trigger file is one transfer request");
        }
    }

    /** A monitor whose trigger files are not read for file names. */
    public MonitorDefinition(String version, String name, String description, PollInterval pollInterval,
            int batchSize, String agent, String directory, int recursionLevel, boolean allOf,
            List<MonitorCondition> conditions, ReplyTo reply, MonitorTask task, Originator originator, String jobName,
            boolean overwrite, boolean clearHistory, String queue, java.util.Map<String, String> defaultVariables) {
        this(version, name, description, pollInterval, batchSize, agent, directory, recursionLevel, allOf, conditions,
                reply, task, originator, jobName, overwrite, clearHistory, queue, defaultVariables, null);
    }

    /** A directory monitor: no queue, no default variables. */
    public MonitorDefinition(String version, String name, String description, PollInterval pollInterval,
            int batchSize, String agent, String directory, int recursionLevel, boolean allOf,
            List<MonitorCondition> conditions, ReplyTo reply, MonitorTask task, Originator originator, String jobName,
            boolean overwrite, boolean clearHistory) {
        this(version, name, description, pollInterval, batchSize, agent, directory, recursionLevel, allOf, conditions,
                reply, task, originator, jobName, overwrite, clearHistory, null, Map.of());
    }

    /** @return whether it watches a queue ({@code -mq}) rather than a directory */
    public boolean queueMonitor() {
        return queue != null;
    }

    /**
     * Checks a monitor name as IBM does (at least one character, no {@code *}, {@code %} or
     * {@code ?}, which are list patterns) and returns it upper case.
     *
     * @param name the name as given
     * @return the stored name
     * @throws IllegalArgumentException naming what is wrong
     */
    public static String monitorName(String name) {
        Checks.name(name, "monitor name");
        if (name.length() > MAX_NAME_LENGTH) {
            throw new IllegalArgumentException("monitor name is " + name.length() + " characters long; the limit is "
                    + MAX_NAME_LENGTH);
        }
        for (char c : new char[] {'*', '%', '?', '/', '\\'}) {
            if (name.indexOf(c) >= 0) {
                throw new IllegalArgumentException("monitor name " + Checks.quote(name) + " must not contain '" + c + "'");
            }
        }
        return name.toUpperCase(Locale.ROOT);
    }

    /**
     * @param newReply where the agent should answer, or {@code null}
     * @return the same monitor with another reply element
     */
    public MonitorDefinition withReply(ReplyTo newReply) {
        return new MonitorDefinition(version, name, description, pollInterval, batchSize, agent, directory,
                recursionLevel, allOf, conditions, newReply, task, originator, jobName, overwrite, clearHistory, queue,
                defaultVariables, triggerContent);
    }

    /**
     * {@code <pollInterval units="minutes">10</pollInterval>}.
     *
     * @param value how many units; at least 1
     * @param unit the unit
     */
    public record PollInterval(long value, TimeUnit unit) {
        /** Largest interval accepted, in any unit; a longer one is a typing error. */
        public static final long MAX_VALUE = 1_000_000;

        /** Validates. */
        public PollInterval {
            Objects.requireNonNull(unit, "units");
            if (value < 1 || value > MAX_VALUE) {
                throw new IllegalArgumentException("poll interval " + value + " is out of range 1-" + MAX_VALUE);
            }
        }

        /** @return the interval in seconds */
        public long seconds() {
            return value * unit.seconds;
        }

        @Override
        public String toString() {
            return value + " " + unit.xml;
        }
    }

    /** IBM's poll interval units ({@code -pu}), case-insensitive on input. */
    public enum TimeUnit {
        SECONDS("seconds", 1), MINUTES("minutes", 60), HOURS("hours", 3600), DAYS("days", 86_400);

        private final String xml;
        private final long seconds;

        TimeUnit(String xml, long seconds) {
            this.xml = xml;
            this.seconds = seconds;
        }

        /** @return the spelling in documents and on the command line */
        public String xml() {
            return xml;
        }

        /**
         * @param value {@code seconds}, {@code minutes}, {@code hours} or {@code days}, any case
         * @return the unit
         * @throws IllegalArgumentException naming the value and what is expected
         */
        public static TimeUnit fromXml(String value) {
            for (TimeUnit unit : values()) {
                if (unit.xml.equalsIgnoreCase(value.strip())) {
                    return unit;
                }
            }
            throw new IllegalArgumentException(Checks.quote(value) + " is not valid; expected seconds, minutes, hours or days");
        }
    }

    /**
     * The monitor's task: {@code <task><name/>[<description/>]<transfer><request>…</request></transfer></task>}.
     * The request is kept as the XML text it was given in, variables and all, because its
     * {@code ${...}} variables may stand where the transfer schema allows no such text (an agent
     * name); it is substituted and parsed as a transfer request each time the monitor fires.
     *
     * @param name the task's name, possibly empty (IBM writes {@code <name/>})
     * @param description free text, or {@code null}
     * @param requestXml the {@code <request>} element as a standalone XML fragment
     */
    public record MonitorTask(String name, String description, String requestXml) {
        /** Validates. */
        public MonitorTask {
            name = name == null ? "" : Checks.xmlText(name, "task name");
            description = description == null || description.isEmpty() ? null
                    : Checks.xmlText(description, "task description");
            Objects.requireNonNull(requestXml, "request");
            if (!requestXml.stripLeading().startsWith("<request")) {
                throw new IllegalArgumentException("a task's transfer must be a <request> element");
            }
        }
    }
}
