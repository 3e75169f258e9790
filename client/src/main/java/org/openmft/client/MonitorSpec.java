package org.openmft.client;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

import org.openmft.agent.config.QueueNames;
import org.openmft.client.internal.CommandChannel;
import org.openmft.client.internal.MonitorDocuments;
import org.openmft.xml.CommandDocument;
import org.openmft.xml.DocumentWriter;
import org.openmft.xml.MalformedRequestException;
import org.openmft.xml.MonitorDefinition;
import org.openmft.xml.Originator;
import org.openmft.xml.RequestParser;

/**
 * A resource monitor to create ({@link MftClient#createMonitor}), checked and ready to send: read
 * from IBM's monitor definition document ({@link #fromXml}, as {@code fteCreateMonitor -ox} and
 * {@code fteListMonitors -ox} write it and {@code fteCreateMonitor -ix} reads it), or a directory
 * monitor built with {@link #builder()}. Immutable and thread-safe.
 *
 * <pre>{@code
 * MonitorSpec drop = MonitorSpec.builder()
 *         .agent("AGENT1").name("INVOICES").directory("/data/outbox")
 *         .trigger("match,*.xml").pollInterval(Duration.ofSeconds(30))
 *         .task(TransferSpec.builder().sourceAgent("AGENT1").destinationAgent("AGENT2")
 *                 .file("${FilePath}", "/data/in/${FileName}").build())
 *         .build();
 * }</pre>
 */
public final class MonitorSpec {
    private final MonitorDefinition definition;

    private MonitorSpec(MonitorDefinition definition) {
        this.definition = definition;
    }

    /**
     * A new builder of a directory monitor, with fteCreateMonitor's defaults: poll every minute,
     * trigger on every file ({@code match,*}), one trigger match per task, no subdirectories.
     *
     * @return the builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Reads IBM's monitor definition ({@code <monitor:monitor>}, Monitor.xsd), of a directory or a
     * queue monitor. Its {@code <reply>} element, if any, is replaced when the monitor is created;
     * its root attributes {@code overwrite} and {@code clearHistory} ({@code fteCreateMonitor -f},
     * {@code -c}) are kept.
     *
     * @param xml the document
     * @return the monitor
     * @throws IllegalArgumentException when the document is not valid, or is not a monitor definition
     */
    public static MonitorSpec fromXml(String xml) {
        Objects.requireNonNull(xml, "xml");
        CommandDocument document;
        try {
            document = new RequestParser().parse(xml.getBytes(StandardCharsets.UTF_8));
        } catch (MalformedRequestException e) {
            throw new IllegalArgumentException("not a valid monitor definition: " + e.getMessage(), e);
        }
        if (!(document instanceof MonitorDefinition monitor)) {
            throw new IllegalArgumentException("not a monitor definition (<monitor:monitor>): the document is a "
                    + document.getClass().getSimpleName());
        }
        return new MonitorSpec(monitor);
    }

    /**
     * The monitor as IBM's XML document, as {@code fteCreateMonitor -ox} writes it.
     *
     * @return the document
     */
    public String toXml() {
        return new DocumentWriter().write(definition.withReply(null));
    }

    /**
     * The monitoring agent, which is also the source agent of the transfers the monitor starts.
     *
     * @return the agent's name
     */
    public String agent() {
        return definition.agent();
    }

    /**
     * The monitor's name, upper case.
     *
     * @return the name
     */
    public String name() {
        return definition.name();
    }

    /** The document; for the client's own use. */
    MonitorDefinition definition() {
        return definition;
    }

    /** This monitor as asked for by {@code originator}. */
    MonitorSpec askedBy(Originator originator) {
        MonitorDefinition d = definition;
        return new MonitorSpec(new MonitorDefinition(d.version(), d.name(), d.description(), d.pollInterval(),
                d.batchSize(), d.agent(), d.directory(), d.recursionLevel(), d.allOf(), d.conditions(), d.reply(),
                d.task(), originator, d.jobName(), d.overwrite(), d.clearHistory(), d.queue(), d.defaultVariables()));
    }

    @Override
    public String toString() {
        return "MonitorSpec[" + agent() + "/" + name() + ", " + (definition.queueMonitor() ? "queue "
                + definition.queue() : "directory " + definition.directory()) + "]";
    }

    /**
     * Builds a directory monitor. Not thread-safe; {@link #build} checks everything and may be
     * called again after more changes.
     */
    public static final class Builder {
        private String agent;
        private String name;
        private String directory;
        private int recursionLevel;
        private Duration pollInterval = Duration.ofMinutes(1);
        private int batchSize = 1;
        private String trigger;
        private String patternType;
        private String exclude;
        private String task;
        private String jobName;
        private String description;
        private boolean replace;
        private boolean clearHistory;

        private Builder() {
        }

        /**
         * The monitoring agent ({@code -ma}): the task's source agent.
         *
         * @param agent the agent's name, any case
         * @return this builder
         */
        public Builder agent(String agent) {
            this.agent = agent;
            return this;
        }

        /**
         * The monitor's name ({@code -mn}): no {@code *}, {@code %} or {@code ?}; stored upper case.
         *
         * @param name the name
         * @return this builder
         */
        public Builder name(String name) {
            this.name = name;
            return this;
        }

        /**
         * The directory watched ({@code -md}), an absolute path on the agent's host.
         *
         * @param directory the directory
         * @return this builder
         */
        public Builder directory(String directory) {
            this.directory = directory;
            return this;
        }

        /**
         * How many levels of subdirectories are watched too ({@code -rl}); 0 (the default) for none.
         *
         * @param levels the levels, 0 to 1000
         * @return this builder
         */
        public Builder recursionLevel(int levels) {
            this.recursionLevel = levels;
            return this;
        }

        /**
         * How often the directory is looked at ({@code -pi}, {@code -pu}); whole seconds, written in the
         * largest of IBM's units (seconds, minutes, hours, days) that holds it exactly. Default: a minute.
         *
         * @param interval the interval, at least a second
         * @return this builder
         */
        public Builder pollInterval(Duration interval) {
            this.pollInterval = Objects.requireNonNull(interval, "interval");
            return this;
        }

        /**
         * The most trigger matches one task takes ({@code -bs}); default 1.
         *
         * @param matches the most, 1 to 10000
         * @return this builder
         */
        public Builder batchSize(int matches) {
            this.batchSize = matches;
            return this;
        }

        /**
         * The trigger condition in fteCreateMonitor's {@code -tr} syntax: {@code match,P} (the
         * default, with {@code *}), {@code noMatch,P}, {@code noSizeChange=N,P} or
         * {@code fileSize>=N[B|KB|MB|GB],P}, where P is a wildcard pattern ({@code *} any characters,
         * {@code ?} one) unless {@link #regexPatterns} is set.
         *
         * @param condition the condition
         * @return this builder
         */
        public Builder trigger(String condition) {
            this.trigger = condition;
            return this;
        }

        /**
         * Files left out although they match the trigger's pattern ({@code -x}).
         *
         * @param pattern a pattern of the trigger's kind, or null for none
         * @return this builder
         */
        public Builder exclude(String pattern) {
            this.exclude = pattern;
            return this;
        }

        /**
         * Reads the trigger's and the exclude's patterns as Java regular expressions ({@code -pt regex})
         * rather than wildcards.
         *
         * @param regex whether the patterns are regular expressions
         * @return this builder
         */
        public Builder regexPatterns(boolean regex) {
            this.patternType = regex ? "regex" : "wildcard";
            return this;
        }

        /**
         * The task run for each batch of trigger matches ({@code -mt}): a transfer whose source agent
         * is the monitoring agent. Its paths may use IBM's variables ({@code ${FilePath}},
         * {@code ${FileName}}, ...), filled in each time the monitor fires.
         *
         * @param transfer the transfer
         * @return this builder
         */
        public Builder task(TransferSpec transfer) {
            this.task = Objects.requireNonNull(transfer, "transfer").toXml();
            return this;
        }

        /**
         * The task as an IBM request document ({@code <request>}, as {@code fteCreateTransfer -gt}
         * writes it, or a {@code <managedCall>}), where variables may stand anywhere, an agent's name too.
         *
         * @param requestXml the document
         * @return this builder
         */
        public Builder task(String requestXml) {
            this.task = Objects.requireNonNull(requestXml, "requestXml");
            return this;
        }

        /**
         * The job name of the transfers the monitor starts ({@code -jn}).
         *
         * @param jobName the job name, or null for none
         * @return this builder
         */
        public Builder jobName(String jobName) {
            this.jobName = jobName;
            return this;
        }

        /**
         * A description, shown with the monitor's definition.
         *
         * @param description the text, or null for none
         * @return this builder
         */
        public Builder description(String description) {
            this.description = description;
            return this;
        }

        /**
         * Replaces a monitor of the same name on the agent ({@code -f}) instead of being refused
         * (result 105); with {@code clearHistory} ({@code -c}) the replaced monitor's record of the
         * files it has triggered on is forgotten, so that they trigger again.
         *
         * @param clearHistory whether the replaced monitor's history is forgotten
         * @return this builder
         */
        public Builder replace(boolean clearHistory) {
            this.replace = true;
            this.clearHistory = clearHistory;
            return this;
        }

        /**
         * Checks and builds the monitor.
         *
         * @return the monitor
         * @throws IllegalArgumentException naming what is missing or wrong
         * @throws MftClientException code 1 (BFGCL0003E) when the task is not a valid request
         */
        public MonitorSpec build() throws MftClientException {
            for (String[] required : new String[][] {{"agent", agent}, {"name", name}, {"directory", directory},
                    {"task", task}}) {
                if (required[1] == null) {
                    throw new IllegalArgumentException(required[0] + " is required");
                }
            }
            String monitoringAgent;
            try {
                monitoringAgent = QueueNames.validateAgentName(agent.strip());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("agent: " + e.getMessage(), e);
            }
            return new MonitorSpec(new MonitorDefinition("6.00", name, description, poll(pollInterval), batchSize,
                    monitoringAgent, directory, recursionLevel, true,
                    List.of(MonitorDocuments.condition(trigger, patternType, exclude, false)), null,
                    MonitorDocuments.task(task, "the task"), CommandChannel.originator(), jobName, replace,
                    clearHistory));
        }

        /** The interval in the largest of IBM's units that holds it exactly. */
        static MonitorDefinition.PollInterval poll(Duration interval) {
            if (interval.toNanos() % 1_000_000_000L != 0 || interval.getSeconds() < 1) {
                throw new IllegalArgumentException("poll interval " + interval + " is not a whole number of seconds"
                        + " of at least 1");
            }
            long seconds = interval.getSeconds();
            for (MonitorDefinition.TimeUnit unit : List.of(MonitorDefinition.TimeUnit.DAYS,
                    MonitorDefinition.TimeUnit.HOURS, MonitorDefinition.TimeUnit.MINUTES)) {
                long unitSeconds = new MonitorDefinition.PollInterval(1, unit).seconds();
                if (seconds % unitSeconds == 0) {
                    return new MonitorDefinition.PollInterval(seconds / unitSeconds, unit);
                }
            }
            return new MonitorDefinition.PollInterval(seconds, MonitorDefinition.TimeUnit.SECONDS);
        }
    }
}
