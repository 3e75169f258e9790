package org.openmft.client;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.openmft.agent.config.QueueNames;
import org.openmft.client.internal.CommandChannel;
import org.openmft.xml.AgentRef;
import org.openmft.xml.ChecksumMethod;
import org.openmft.xml.CommandDocument;
import org.openmft.xml.DestinationType;
import org.openmft.xml.Disposition;
import org.openmft.xml.DocumentWriter;
import org.openmft.xml.ExistAction;
import org.openmft.xml.ItemDestination;
import org.openmft.xml.ItemSource;
import org.openmft.xml.MalformedRequestException;
import org.openmft.xml.Mode;
import org.openmft.xml.RequestParser;
import org.openmft.xml.TransferItem;
import org.openmft.xml.TransferRequest;
import org.openmft.xml.TransferSet;

/**
 * A transfer request, checked and ready to submit: built with {@link #builder()} or read from an
 * IBM MFT request document ({@link #fromXml}). Immutable and thread-safe.
 *
 * <pre>{@code
 * TransferSpec spec = TransferSpec.builder()
 *         .sourceAgent("AGENT1").destinationAgent("AGENT2")
 *         .file("/data/out/orders.csv", "/data/in/orders.csv")
 *         .ifExists(IfExists.OVERWRITE).checksum(Checksum.SHA_256)
 *         .jobName("NIGHTLY").metadata("batch", "42")
 *         .build();
 * }</pre>
 */
public final class TransferSpec {
    private final TransferRequest request;

    private TransferSpec(TransferRequest request) {
        this.request = request;
    }

    /**
     * A new builder, with IBM's defaults: binary mode, MD5 checksum, an existing destination file
     * fails the item, source files are left, priority 0.
     *
     * @return the builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Reads an IBM MFT request document ({@code <request><managedTransfer>}, FileTransfer.xsd), as
     * {@code fteCreateTransfer -gt} writes it. Its {@code <reply>} element, if any, is replaced when
     * the transfer is submitted.
     *
     * @param xml the document
     * @return the request
     * @throws IllegalArgumentException when the document is not valid, or is not a managed transfer
     */
    public static TransferSpec fromXml(String xml) {
        Objects.requireNonNull(xml, "xml");
        CommandDocument document;
        try {
            document = new RequestParser().parse(xml.getBytes(StandardCharsets.UTF_8));
        } catch (MalformedRequestException e) {
            throw new IllegalArgumentException("not a valid transfer request: " + e.getMessage(), e);
        }
        if (!(document instanceof TransferRequest request)) {
            throw new IllegalArgumentException("not a transfer request: the document is a "
                    + document.getClass().getSimpleName() + ", not a <request><managedTransfer>");
        }
        return new TransferSpec(request);
    }

    /**
     * The request as IBM's XML document.
     *
     * @return the document
     */
    public String toXml() {
        return new DocumentWriter().write(request);
    }

    /**
     * The source agent's name, upper case.
     *
     * @return the name
     */
    public String sourceAgent() {
        return request.sourceAgent().agent();
    }

    /**
     * The destination agent's name, upper case.
     *
     * @return the name
     */
    public String destinationAgent() {
        return request.destinationAgent().agent();
    }

    /**
     * This transfer on {@code schedule}: the source agent keeps it and starts each occurrence
     * ({@link MftClient#createSchedule}); null makes it a transfer to run now.
     *
     * @param schedule when it runs, or null for now
     * @return the scheduled transfer
     */
    public TransferSpec withSchedule(Schedule schedule) {
        return new TransferSpec(request.withSchedule(schedule == null ? null : schedule.element()));
    }

    /**
     * Whether the transfer has a schedule ({@code <schedule>}).
     *
     * @return true when scheduled
     */
    public boolean scheduled() {
        return request.schedule() != null;
    }

    /** The request document; for the client's own use. */
    TransferRequest request() {
        return request;
    }

    @Override
    public String toString() {
        return "TransferSpec[" + sourceAgent() + " -> " + destinationAgent() + ", "
                + request.transferSet().items().size() + " item(s)]";
    }

    /**
     * Builds a {@link TransferSpec}. The transfer-wide settings (mode, checksum, what happens to an
     * existing destination file or a source file) apply to every item, as fteCreateTransfer's flags
     * do. Not thread-safe; {@link #build} checks everything and names what is wrong.
     */
    public static final class Builder {
        private String sourceAgent;
        private String sourceQMgr;
        private String destinationAgent;
        private String destinationQMgr;
        private final List<String[]> items = new ArrayList<>();
        private TransferMode mode = TransferMode.BINARY;
        private Checksum checksum = Checksum.MD5;
        private IfExists ifExists = IfExists.ERROR;
        private SourceDisposition disposition = SourceDisposition.LEAVE;
        private boolean recursive;
        private int priority;
        private String jobName;
        private final Map<String, String> metadata = new LinkedHashMap<>();
        private Schedule schedule;

        private Builder() {
        }

        /**
         * The agent that reads the files (IBM's {@code -sa}); on the command queue manager.
         *
         * @param agent the agent's name, any case
         * @return this builder
         */
        public Builder sourceAgent(String agent) {
            return sourceAgent(agent, null);
        }

        /**
         * The agent that reads the files and its queue manager (IBM's {@code -sa}, {@code -sm}): the
         * request goes there, through the command queue manager's channel when it is another one.
         *
         * @param agent the agent's name, any case
         * @param qmgr its queue manager, or null for the command queue manager
         * @return this builder
         */
        public Builder sourceAgent(String agent, String qmgr) {
            this.sourceAgent = agent;
            this.sourceQMgr = qmgr;
            return this;
        }

        /**
         * The agent that writes the files (IBM's {@code -da}).
         *
         * @param agent the agent's name, any case
         * @return this builder
         */
        public Builder destinationAgent(String agent) {
            return destinationAgent(agent, null);
        }

        /**
         * The agent that writes the files and its queue manager (IBM's {@code -da}, {@code -dm}).
         *
         * @param agent the agent's name, any case
         * @param qmgr its queue manager, or null when the same as the source agent's
         * @return this builder
         */
        public Builder destinationAgent(String agent, String qmgr) {
            this.destinationAgent = agent;
            this.destinationQMgr = qmgr;
            return this;
        }

        /**
         * An item: one source file to one destination file (IBM's {@code -df}), paths as the agents
         * see them.
         *
         * @param source the source file
         * @param destinationFile the destination file
         * @return this builder
         */
        public Builder file(String source, String destinationFile) {
            items.add(new String[] {source, destinationFile, DestinationType.FILE.name()});
            return this;
        }

        /**
         * An item: a source file, a wildcard ({@code *} and {@code ?} in its last part) or, with
         * {@link #recursive}, a directory, into a destination directory (IBM's {@code -dd}); each
         * file keeps its name.
         *
         * @param source the source file, wildcard or directory
         * @param destinationDirectory the destination directory
         * @return this builder
         */
        public Builder toDirectory(String source, String destinationDirectory) {
            items.add(new String[] {source, destinationDirectory, DestinationType.DIRECTORY.name()});
            return this;
        }

        /**
         * Transfer mode (IBM's {@code -t}; default binary).
         *
         * @param mode binary or text
         * @return this builder
         */
        public Builder mode(TransferMode mode) {
            this.mode = Objects.requireNonNull(mode, "mode");
            return this;
        }

        /**
         * Checksum (IBM's {@code -cs}; default MD5).
         *
         * @param checksum the method
         * @return this builder
         */
        public Builder checksum(Checksum checksum) {
            this.checksum = Objects.requireNonNull(checksum, "checksum");
            return this;
        }

        /**
         * What happens when a destination file exists (IBM's {@code -de}; default error).
         *
         * @param ifExists error or overwrite
         * @return this builder
         */
        public Builder ifExists(IfExists ifExists) {
            this.ifExists = Objects.requireNonNull(ifExists, "ifExists");
            return this;
        }

        /**
         * What happens to each source file once transferred (IBM's {@code -sd}; default leave).
         *
         * @param disposition leave or delete
         * @return this builder
         */
        public Builder sourceDisposition(SourceDisposition disposition) {
            this.disposition = Objects.requireNonNull(disposition, "disposition");
            return this;
        }

        /**
         * Whether directory sources are transferred with everything below them (IBM's {@code -r}).
         *
         * @param recursive true to descend
         * @return this builder
         */
        public Builder recursive(boolean recursive) {
            this.recursive = recursive;
            return this;
        }

        /**
         * Priority (IBM's {@code -pr}): 0 (the default) to 9.
         *
         * @param priority the priority
         * @return this builder
         */
        public Builder priority(int priority) {
            this.priority = priority;
            return this;
        }

        /**
         * Job name (IBM's {@code -jn}), shown in the transfer log.
         *
         * @param jobName the name, or null for none
         * @return this builder
         */
        public Builder jobName(String jobName) {
            this.jobName = jobName;
            return this;
        }

        /**
         * One metadata entry (IBM's {@code -md}), kept in the transfer log.
         *
         * @param key the key, not empty
         * @param value the value
         * @return this builder
         */
        public Builder metadata(String key, String value) {
            if (metadata.containsKey(key)) {
                throw new IllegalArgumentException("metadata key '" + key + "' is given twice");
            }
            metadata.put(key, value);
            return this;
        }

        /**
         * When the transfer runs (fteCreateTransfer's {@code -tb -ss -oi -of -oc -es}): a scheduled
         * transfer is kept by its source agent, which starts each occurrence; send it with
         * {@link MftClient#createSchedule}. Without one (the default) it runs now.
         *
         * @param schedule the schedule, or null to run now
         * @return this builder
         */
        public Builder schedule(Schedule schedule) {
            this.schedule = schedule;
            return this;
        }

        /**
         * Checks everything and makes the request.
         *
         * @return the request
         * @throws IllegalArgumentException naming what is missing or wrong: an agent, an item, a
         *     path, the priority, the job name or a metadata entry
         */
        public TransferSpec build() {
            String sa = agent("sourceAgent", sourceAgent);
            String da = agent("destinationAgent", destinationAgent);
            AgentRef source = check("sourceAgent queue manager", () -> new AgentRef(sa, blankToNull(sourceQMgr)));
            AgentRef destination = check("destinationAgent queue manager",
                    () -> new AgentRef(da, blankToNull(destinationQMgr)));
            if (items.isEmpty()) {
                throw new IllegalArgumentException("no item: add at least one with file(source, destinationFile) or"
                        + " toDirectory(source, destinationDirectory)");
            }
            if (priority < 0 || priority > TransferSet.MAX_PRIORITY) {
                throw new IllegalArgumentException("priority " + priority + " is out of range 0-"
                        + TransferSet.MAX_PRIORITY);
            }
            List<TransferItem> built = new ArrayList<>();
            for (String[] item : items) {
                built.add(item(item[0], item[1], DestinationType.valueOf(item[2])));
            }
            TransferSet set = check("metadata", () -> new TransferSet(priority, null, metadata, built));
            return new TransferSpec(check("jobName", () -> new TransferRequest(DocumentWriter.VERSION,
                    CommandChannel.originator(), source, destination, null, set, blankToNull(jobName),
                    schedule == null ? null : schedule.element(), null)));
        }

        private TransferItem item(String source, String target, DestinationType type) {
            String what = "item " + (source == null ? "null" : "'" + source + "'");
            if (source == null || source.isBlank()) {
                throw new IllegalArgumentException("an item's source is empty: give a file, wildcard or directory");
            }
            if (target == null || target.isBlank()) {
                throw new IllegalArgumentException(what + ": the destination " + (type == DestinationType.FILE
                        ? "file" : "directory") + " is empty");
            }
            ItemSource src = check(what, () -> new ItemSource(recursive, Disposition.valueOf(disposition.name()),
                    source, null));
            ItemDestination dst = check(what, () -> new ItemDestination(type, ExistAction.valueOf(ifExists.name()),
                    target, null, null));
            return check(what, () -> new TransferItem(Mode.valueOf(mode.name()),
                    ChecksumMethod.valueOf(checksum.name()), src, dst));
        }

        private static String agent(String what, String name) {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException(what + " is required");
            }
            try {
                return QueueNames.validateAgentName(name.strip());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(what + ": " + e.getMessage(), e);
            }
        }

        private static String blankToNull(String s) {
            return s == null || s.isBlank() ? null : s.strip();
        }

        /** Builds a value whose constructor checks it, naming {@code what} when it refuses. */
        private static <T> T check(String what, java.util.function.Supplier<T> build) {
            try {
                return build.get();
            } catch (IllegalArgumentException | NullPointerException e) {
                throw new IllegalArgumentException(what + ": " + e.getMessage(), e);
            }
        }
    }
}
