package org.openmft.xml.log;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.openmft.xml.AgentRef;
import org.openmft.xml.Originator;
import org.openmft.xml.ProgramCall;

/**
 * Writes the documents an agent publishes on {@code SYSTEM.FTE} in the shapes IBM's tools read:
 * <ul>
 *   <li>{@link TransferLog}: IBM's TransferLog.xsd, root {@code <transaction version ID agentRole>}
 *       with {@code xsi:noNamespaceSchemaLocation="TransferLog.xsd"};</li>
 *   <li>{@link TransferProgress}: IBM's TransferStatus.xsd, root {@code <transaction version ID>}
 *       with {@code xsi:noNamespaceSchemaLocation="TransferStatus.xsd"};</li>
 *   <li>{@link AgentStatus}: a {@code java.util.Properties} XML document as
 *       {@code Properties.storeToXML} writes it, DOCTYPE included, with the keys in a fixed order.</li>
 * </ul>
 * The two transaction documents are compact (no indentation) and start with an XML declaration
 * naming UTF-8; the string forms are meant to be sent UTF-8 encoded, which is what the
 * {@code writeBytes} methods do. Elements follow schema order; what a record does not hold
 * ({@code null}, -1) is left out. Times are written in UTC to the millisecond
 * ({@code 2026-11-22T10:00:00.123Z}).
 *
 * <p>Every value is escaped. Carriage returns, and tabs and line feeds in attributes, are written as
 * character references so that XML parsers do not normalise them away; characters XML 1.0 cannot
 * carry (most control characters, unpaired surrogates, U+FFFE, U+FFFF) are replaced by U+FFFD, so the
 * output is always well-formed. In agent status documents characters outside the Basic
 * Multilingual Plane (emoji, for example) are replaced by U+FFFD as well: {@code Properties.loadFromXML}
 * reads neither their UTF-8 form nor character references to them, and the surrogate references
 * {@code storeToXML} itself writes are not well-formed XML. Apart from those replacements,
 * {@link PublicationReader} reads back exactly what was written.
 *
 * <p>Stateless and thread-safe.
 */
public final class PublicationWriter {

    /** Schema file named by transfer log documents. */
    public static final String TRANSFER_LOG_SCHEMA = "TransferLog.xsd";
    /** Schema file named by transfer progress documents. */
    public static final String TRANSFER_STATUS_SCHEMA = "TransferStatus.xsd";
    /** System id of the DOCTYPE of {@code Properties} XML documents. */
    public static final String PROPERTIES_DTD = "http://java.sun.com/dtd/properties.dtd";

    private static final String XSI = "http://www.w3.org/2001/XMLSchema-instance";
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

    /** Creates a writer; it holds no state, so one can be shared. */
    public PublicationWriter() {}

    /**
     * Writes a transfer log message.
     *
     * @param log the message
     * @return the XML, with a declaration naming UTF-8
     */
    public String write(TransferLog log) {
        return write(log, log.trigger(), null);
    }

    /**
     * Writes a transfer log message with the parts only a {@code started} message carries: the
     * request's trigger, and the schedule a scheduled transfer is an occurrence of
     * ({@code <scheduleLog ID="n"/>}).
     *
     * @param log           the message
     * @param trigger       the trigger, or null for the message's own ({@link TransferLog#trigger()})
     * @param scheduleLogId the schedule, or null
     * @return the XML, with a declaration naming UTF-8
     */
    public String write(TransferLog log, org.openmft.xml.TransferTrigger trigger, Long scheduleLogId) {
        if (trigger == null) {
            trigger = log.trigger();
        }
        Xml x = new Xml();
        x.start("transaction")
                .attribute("version", log.version())
                .attribute("ID", log.transferId())
                .attribute("agentRole", log.agentRole())
                .attribute("xmlns:xsi", XSI)
                .attribute("xsi:noNamespaceSchemaLocation", TRANSFER_LOG_SCHEMA);
        x.start("action").attribute("time", time(log.time())).text(log.action().xml()).end();
        if (log.action().managedCall()) {
            // IBM's logger formats read a managed call's agent at /transaction/agent.
            agent(x, "agent", log.sourceAgent());
        } else {
            agent(x, "sourceAgent", log.sourceAgent());
            agent(x, "destinationAgent", log.destinationAgent());
        }
        originator(x, log.originator());
        if (log.resultCode() != null) {
            status(x, log.resultCode(), log.supplements());
        }
        if (trigger != null) {
            x.start("trigger").attribute("log", trigger.log() ? "yes" : "no");
            for (org.openmft.xml.TransferTrigger.Condition c : trigger.conditions()) {
                if (c instanceof org.openmft.xml.TransferTrigger.FileExist e) {
                    x.start("fileExist").attribute("comparison", e.comparison()).attribute("value", e.value());
                } else {
                    org.openmft.xml.TransferTrigger.FileSize f = (org.openmft.xml.TransferTrigger.FileSize) c;
                    x.start("fileSize").attribute("comparison", ">=").attribute("value", Long.toString(f.value()))
                            .attribute("units", f.units());
                }
                x.text(c.path()).end();
            }
            x.end();
        }
        transferSet(x, log);
        if (log.jobName() != null) {
            x.start("job").textElement("name", log.jobName()).end();
        }
        if (scheduleLogId != null) {
            x.start("scheduleLog").attribute("ID", Long.toString(scheduleLogId)).end();
        }
        statistics(x, log.statistics());
        x.end();
        return x.toString();
    }

    /**
     * Writes a transfer log message as the body of a message.
     *
     * @param log the message
     * @return the XML encoded in UTF-8
     */
    public byte[] writeBytes(TransferLog log) {
        return write(log).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Writes a NotAuthorized log message.
     *
     * @param log the message
     * @return the XML, with a declaration naming UTF-8
     */
    public String write(NotAuthorizedLog log) {
        Xml x = new Xml();
        x.start("notAuthorized")
                .attribute("version", log.version())
                .attribute("ID", log.id())
                .attribute("agentRole", log.agentRole())
                .attribute("xmlns:xsi", XSI)
                .attribute("xsi:noNamespaceSchemaLocation", TRANSFER_LOG_SCHEMA);
        x.start("action").attribute("time", time(log.time())).text("not_authorized").end();
        agent(x, log.agentRole(), log.agent());
        x.start("originator");
        if (log.mqmdUserId() != null) {
            x.textElement("mqmdUserID", log.mqmdUserId());
        }
        x.end();
        x.textElement("authority", log.authority());
        status(x, log.resultCode(), log.supplements());
        x.end();
        return x.toString();
    }

    /**
     * Writes a monitor log message as IBM publishes it ({@code xsi:noNamespaceSchemaLocation="MonitorLog.xsd"}).
     *
     * @param log the message
     * @return the XML, with a declaration naming UTF-8
     */
    public String write(MonitorLog log) {
        Xml x = new Xml();
        x.start("monitorLog")
                .attribute("version", log.version())
                .attribute("monitorName", log.monitorName())
                .attribute("referenceId", log.referenceId())
                .attribute("xmlns:xsi", XSI)
                .attribute("xsi:noNamespaceSchemaLocation", "MonitorLog.xsd");
        originator(x, log.originator());
        if (log.referenceId() != null || log.taskRequestId() != null) {
            x.start("references");
            if (log.referenceId() != null) {
                x.textElement("createRequest", log.referenceId());
            }
            if (log.taskRequestId() != null) {
                x.textElement("taskRequest", log.taskRequestId());
            }
            x.end();
        }
        x.start("action").attribute("time", time(log.time())).text(log.action()).end();
        agent(x, "monitorAgent", log.agent());
        status(x, log.resultCode(), log.supplements());
        if (!log.originalMetadata().isEmpty() || !log.updatedMetadata().isEmpty()) {
            x.start("monitorMetaData");
            metadataItems(x, "originalMetaData", log.originalMetadata());
            metadataItems(x, "updatedMetaData", log.updatedMetadata());
            x.end();
        }
        x.end();
        return x.toString();
    }

    /**
     * Writes a live progress message.
     *
     * @param progress the message
     * @return the XML, with a declaration naming UTF-8
     */
    public String write(TransferProgress progress) {
        Xml x = new Xml();
        x.start("transaction")
                .attribute("version", progress.version())
                .attribute("ID", progress.transferId())
                .attribute("xmlns:xsi", XSI)
                .attribute("xsi:noNamespaceSchemaLocation", TRANSFER_STATUS_SCHEMA);
        agent(x, "sourceAgent", progress.sourceAgent());
        agent(x, "destinationAgent", progress.destinationAgent());
        x.start("transferSet").attribute("time", time(progress.time()));
        x.start("stats")
                .attribute("bytes", number(progress.bytes()))
                .attribute("seconds", progress.seconds() < 0 ? null : BigDecimal.valueOf(progress.seconds()).toPlainString())
                .attribute("currentItem", number(progress.currentItem()))
                .attribute("totalItems", number(progress.totalItems()))
                .end();
        if (progress.currentSource() != null || progress.currentDestination() != null
                || progress.currentTransferred() >= 0 || progress.currentSize() >= 0) {
            x.start("current")
                    .attribute("transferred", number(progress.currentTransferred()))
                    .attribute("size", number(progress.currentSize()));
            if (progress.currentSource() != null) {
                x.start("source").textElement("file", progress.currentSource()).end();
            }
            if (progress.currentDestination() != null) {
                x.start("destination").textElement("file", progress.currentDestination()).end();
            }
            x.end();
        }
        x.end();
        x.end();
        return x.toString();
    }

    /**
     * Writes a live progress message as the body of a message.
     *
     * @param progress the message
     * @return the XML encoded in UTF-8
     */
    public byte[] writeBytes(TransferProgress progress) {
        return write(progress).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Writes an agent status as a {@code Properties} XML document, readable by
     * {@code Properties.loadFromXML}. Keys come in the order the {@link AgentStatus} components do;
     * absent values are left out, except the two transfer state lists, which are always written
     * (empty when there are no transfers). Characters outside the Basic Multilingual Plane become
     * U+FFFD (see the class description).
     *
     * @param status the status
     * @return the XML, with a declaration naming UTF-8 and the properties DOCTYPE
     */
    public String write(AgentStatus status) {
        StringBuilder out = new StringBuilder(1024);
        out.append("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n");
        out.append("<!DOCTYPE properties SYSTEM \"").append(PROPERTIES_DTD).append("\">\n");
        out.append("<properties>\n");
        entry(out, "agentName", status.agentName());
        entry(out, "agentDescription", status.description());
        entry(out, "agentVersion", status.version());
        entry(out, "agentType", status.agentType());
        entry(out, "agentOsName", status.osName());
        entry(out, "agentTimeZone", status.timeZone());
        entry(out, "agentDeclaredHostName", status.hostName());
        entry(out, "queueManager", status.queueManager());
        entry(out, "queueManagerHost", status.queueManagerHost());
        entry(out, "queueManagerPort", number(status.queueManagerPort()));
        entry(out, "queueManagerChannel", status.queueManagerChannel());
        entry(out, "AgentStatus", status.status());
        entry(out, "AgentStatusPublishTime", time(status.publishTime()));
        entry(out, "AgentStartTime", time(status.startTime()));
        entry(out, "agentStatusPublishRateMin", number(status.publishRateMinSeconds()));
        entry(out, "maxSourceTransfers", number(status.maxSourceTransfers()));
        entry(out, "maxDestinationTransfers", number(status.maxDestinationTransfers()));
        entry(out, "maxQueuedTransfers", number(status.maxQueuedTransfers()));
        entry(out, "QueuedTransfers", number(status.queuedTransfers()));
        entry(out, "SourceTransferStates", states(status.sourceTransferStates()));
        entry(out, "DestinationTransferStates", states(status.destinationTransferStates()));
        out.append("</properties>\n");
        return out.toString();
    }

    /**
     * Writes an agent status as the body of a message.
     *
     * @param status the status
     * @return the XML encoded in UTF-8
     */
    public byte[] writeBytes(AgentStatus status) {
        return write(status).getBytes(StandardCharsets.UTF_8);
    }

    // ---------------------------------------------------------------- transfer log parts

    /** {@code <status resultCode="N"><supplement>..</supplement>*</status>}. */
    /** {@code <element><metaData key="K">V</metaData>...</element>}, nothing when there are no items. */
    private static void metadataItems(Xml x, String element, java.util.Map<String, String> items) {
        if (items.isEmpty()) {
            return;
        }
        x.start(element);
        items.forEach((key, value) -> x.start("metaData").attribute("key", key).text(value).end());
        x.end();
    }

    private static void status(Xml x, int resultCode, List<String> supplements) {
        x.start("status").attribute("resultCode", Integer.toString(resultCode));
        for (String supplement : supplements) {
            x.textElement("supplement", supplement);
        }
        x.end();
    }

    private static void agent(Xml x, String element, AgentRef agent) {
        if (agent != null) {
            x.start(element).attribute("agent", agent.agent()).attribute("QMgr", agent.qmgr()).end();
        }
    }

    private static void originator(Xml x, Originator originator) {
        if (originator == null) {
            return;
        }
        x.start("originator");
        x.textElement("hostName", originator.hostName());
        x.textElement("userID", originator.userId());
        if (originator.mqmdUserId() != null) {
            x.textElement("mqmdUserID", originator.mqmdUserId());
        }
        x.end();
    }

    private static void transferSet(Xml x, TransferLog log) {
        boolean progress = log.action() == LogAction.PROGRESS || !log.items().isEmpty();
        if (!progress && log.startTime() == null && log.totalItems() < 0 && log.bytesSent() < 0 && log.index() < 0
                && log.metadata().isEmpty() && log.calls().isEmpty()) {
            return;
        }
        x.start("transferSet")
                .attribute("index", number(log.index()))
                .attribute("size", progress ? Integer.toString(log.items().size()) : null)
                .attribute("startTime", time(log.startTime()))
                .attribute("total", number(log.totalItems()))
                .attribute("bytesSent", number(log.bytesSent()));
        if (!log.metadata().isEmpty()) {
            x.start("metaDataSet");
            for (Map.Entry<String, String> entry : log.metadata().entrySet()) {
                x.start("metaData").attribute("key", entry.getKey()).text(entry.getValue()).end();
            }
            x.end();
        }
        for (LogCall call : log.calls()) {
            call(x, call);
        }
        for (LogItem item : log.items()) {
            item(x, item);
        }
        x.end();
    }

    /** IBM's call element: the command, then the callResult with the last attempt's output. */
    private static void call(Xml x, LogCall call) {
        x.start(call.element());
        ProgramCall c = call.command();
        x.start("command").attribute("name", c.name()).attribute("type", c.type().xml())
                .attribute("retryCount", Integer.toString(c.retryCount()))
                .attribute("retryWait", Integer.toString(c.retryWaitSeconds()))
                .attribute("successRC", c.successCodes().expression());
        for (String argument : c.arguments()) {
            x.start("argument").text(argument).end();
        }
        x.end();
        if (call.outcome() == null) {
            x.end();
            return;
        }
        x.start("callResult").attribute("outcome", call.outcome()).attribute("retries", Integer.toString(call.retries()));
        x.start("result").attribute("returnCode", call.returnCode() == null ? null : call.returnCode().toString());
        lines(x, "stdout", call.stdout());
        lines(x, "stderr", call.stderr());
        if (call.error() != null) {
            x.start("error").text(call.error()).end();
        }
        x.end();
        x.end();
        x.end();
    }

    private static void lines(Xml x, String element, List<String> lines) {
        if (lines.isEmpty()) {
            return;
        }
        x.start(element);
        for (String line : lines) {
            x.start("line").text(line).end();
        }
        x.end();
    }

    private static void item(Xml x, LogItem item) {
        x.start("item").attribute("mode", item.mode());
        // A source queue (message to file) is IBM's <source type="queue"><queue size groupId
        // messageCount>QUEUE@QMGR</queue>: the bytes, the group and the number of messages read.
        x.start("source").attribute("disposition", item.sourceDisposition())
                .attribute("type", item.sourceQueue() ? "queue" : "file");
        x.start(item.sourceQueue() ? "queue" : "file").attribute("size", number(item.sourceSize()));
        if (item.sourceQueue()) {
            x.attribute("groupId", item.groupId()).attribute("messageCount", number(item.messageCount()));
        }
        x.text(item.source()).end();
        checksum(x, item);
        x.end();
        if (item.destination() != null || item.destinationExist() != null) {
            x.start("destination").attribute("exist", item.destinationExist()).attribute("type", "file");
            if (item.destination() != null) {
                file(x, item.destination(), item.destinationSize());
                checksum(x, item);
            }
            x.end();
        }
        x.start("status").attribute("resultCode", Integer.toString(item.resultCode()));
        if (item.supplement() != null) {
            x.textElement("supplement", item.supplement());
        }
        x.end();
        x.end();
    }

    private static void file(Xml x, String path, long size) {
        x.start("file").attribute("size", number(size)).text(path).end();
    }

    private static void checksum(Xml x, LogItem item) {
        if (item.checksumMethod() != null || item.checksum() != null) {
            x.start("checksum").attribute("method", item.checksumMethod())
                    .text(item.checksum() == null ? "" : item.checksum()).end();
        }
    }

    private static void statistics(Xml x, Statistics statistics) {
        if (statistics == null) {
            return;
        }
        x.start("statistics");
        if (statistics.actualStartTime() != null) {
            x.textElement("actualStartTime", time(statistics.actualStartTime()));
        }
        optionalNumberElement(x, "retryCount", statistics.retryCount());
        optionalNumberElement(x, "numFileFailures", statistics.numFileFailures());
        optionalNumberElement(x, "numFileWarnings", statistics.numFileWarnings());
        x.end();
    }

    private static void optionalNumberElement(Xml x, String element, long value) {
        if (value >= 0) {
            x.textElement(element, Long.toString(value));
        }
    }

    // ---------------------------------------------------------------- agent status parts

    private static void entry(StringBuilder out, String key, String value) {
        if (value == null) {
            return;
        }
        out.append("<entry key=\"");
        escape(out, key, true, true);
        out.append("\">");
        escape(out, value, false, true);
        out.append("</entry>\n");
    }

    /** One {@code id=State} a line, in the map's order; empty when there are none. */
    private static String states(Map<String, String> states) {
        StringBuilder out = new StringBuilder();
        states.forEach((id, state) -> out.append(out.length() == 0 ? "" : "\n").append(id).append('=').append(state));
        return out.toString();
    }

    // ---------------------------------------------------------------- values

    private static String time(Instant time) {
        return time == null ? null : TIME.format(time);
    }

    /** A count or size, or {@code null} (attribute left out) for the -1 of "unknown". */
    private static String number(long value) {
        return value < 0 ? null : Long.toString(value);
    }

    /**
     * Appends {@code value} as character data ({@code attribute} false) or as a double-quoted
     * attribute value. Characters XML 1.0 cannot carry become U+FFFD, and so do characters outside
     * the Basic Multilingual Plane when {@code bmpOnly}.
     */
    private static void escape(StringBuilder out, String value, boolean attribute, boolean bmpOnly) {
        for (int i = 0; i < value.length(); i++) {
            char ch = value.charAt(i);
            switch (ch) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                // Always, so that "]]>" never appears in character data.
                case '>' -> out.append("&gt;");
                case '"' -> out.append(attribute ? "&quot;" : "\"");
                // A literal CR is read back as LF (end-of-line handling), in text and attributes alike.
                case '\r' -> out.append("&#13;");
                // In attributes a literal tab or LF is read back as a space (attribute value normalisation).
                case '\t' -> out.append(attribute ? "&#9;" : "\t");
                case '\n' -> out.append(attribute ? "&#10;" : "\n");
                default -> {
                    if (Character.isHighSurrogate(ch) && i + 1 < value.length()
                            && Character.isLowSurrogate(value.charAt(i + 1))) {
                        i++;
                        if (bmpOnly) {
                            out.append('\uFFFD');
                        } else {
                            out.append(ch).append(value.charAt(i));
                        }
                    } else if (ch < 0x20 || Character.isSurrogate(ch) || ch == 0xFFFE || ch == 0xFFFF) {
                        out.append('\uFFFD');
                    } else {
                        out.append(ch);
                    }
                }
            }
        }
    }

    /**
     * A minimal streaming writer: start tags stay open for attributes until content or the end
     * comes, and an element without content is written as an empty-element tag. Names are our own
     * constants and are written as they are; values are escaped.
     */
    private static final class Xml {
        private final StringBuilder out = new StringBuilder(1024).append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
        private final Deque<String> open = new ArrayDeque<>();
        private boolean inStartTag;

        Xml start(String name) {
            closeStartTag();
            out.append('<').append(name);
            open.push(name);
            inStartTag = true;
            return this;
        }

        /** Adds an attribute to the element just started; a {@code null} value leaves it out. */
        Xml attribute(String name, String value) {
            if (value != null) {
                out.append(' ').append(name).append("=\"");
                escape(out, value, true, false);
                out.append('"');
            }
            return this;
        }

        Xml text(String value) {
            closeStartTag();
            escape(out, value, false, false);
            return this;
        }

        Xml textElement(String name, String value) {
            return start(name).text(value).end();
        }

        Xml end() {
            String name = open.pop();
            if (inStartTag) {
                out.append("/>");
                inStartTag = false;
            } else {
                out.append("</").append(name).append('>');
            }
            return this;
        }

        private void closeStartTag() {
            if (inStartTag) {
                out.append('>');
                inStartTag = false;
            }
        }

        @Override
        public String toString() {
            return out.toString();
        }
    }
}
