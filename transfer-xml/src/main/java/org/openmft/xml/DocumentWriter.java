package org.openmft.xml;

import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * Writes command documents and replies as IBM's tools do: FileTransfer.xsd documents in no
 * namespace with {@code xsi:noNamespaceSchemaLocation="FileTransfer.xsd"}, pings with a root in
 * {@value PingAgentRequest#NAMESPACE} and unqualified children, replies with
 * {@code xsi:noNamespaceSchemaLocation="Reply.xsd"}. Elements follow schema order; every document
 * carries version {@value #VERSION} whatever version its record was read with. Output is compact
 * (no indentation) and starts with an XML declaration naming UTF-8, so the string forms are meant
 * to be sent UTF-8 encoded, which is what {@link #writeBytes(CommandDocument)} does.
 *
 * <p>Everything a record holds survives a write and {@link RequestParser} parse unchanged,
 * including markup characters, quotes and carriage returns in metadata values, which are written
 * as character references because XML parsers would otherwise turn them into line feeds.
 *
 * <p>Stateless and thread-safe.
 */
public final class DocumentWriter {

    /** Version attribute written on every document. */
    public static final String VERSION = "6.00";

    private static final String XSI = XMLConstants.W3C_XML_SCHEMA_INSTANCE_NS_URI;

    /** Creates a writer; it holds no state, so one can be shared. */
    public DocumentWriter() {}

    /**
     * Writes a command document.
     *
     * @param document the request, managed call, cancel, ping or stop
     * @return the XML, with a declaration naming UTF-8
     */
    public String write(CommandDocument document) {
        if (document instanceof MonitorDefinition monitor) {
            return write(monitor);
        }
        return render(w -> {
            if (document instanceof TransferRequest request) {
                transferRequest(w, request);
            } else if (document instanceof ManagedCallRequest call) {
                managedCall(w, call);
            } else if (document instanceof CancelRequest cancel) {
                cancel(w, cancel);
            } else if (document instanceof PingAgentRequest ping) {
                ping(w, ping);
            } else if (document instanceof StopAgentRequest stop) {
                stop(w, stop);
            } else if (document instanceof DeleteMonitorRequest delete) {
                monitorCommand(w, "deleteMonitor", delete.version(), delete.name(), delete.originator(), delete.reply());
            } else if (document instanceof DeleteScheduledTransferRequest delete) {
                startRoot(w, "request", "FileTransfer.xsd");
                ScheduleTriggerWriter.deleteScheduledTransfer(w, delete);
                w.writeEndElement();
            } else if (document instanceof ClearMonitorHistoryRequest clear) {
                monitorCommand(w, "clearMonitorHistory", clear.version(), clear.name(), clear.originator(),
                        clear.reply());
            } else if (document instanceof MonitorControlRequest control) {
                monitorCommand(w, control.rootName(), control.version(), control.name(), control.originator(),
                        control.reply());
            } else {
                throw new IllegalArgumentException("not a command document: " + document);
            }
        });
    }

    /**
     * Writes a monitor definition as IBM's {@code fteCreateMonitor -ox} does: root
     * {@code monitor:monitor} in {@value MonitorDefinition#NAMESPACE} with
     * {@code xsi:schemaLocation="… ./Monitor.xsd"}, unqualified children, the version the
     * definition was read with (IBM's tools read their own exports back, whatever their level),
     * and the task's request as it was given.
     *
     * @param monitor the monitor
     * @return the XML, with a declaration naming UTF-8
     */
    public String write(MonitorDefinition monitor) {
        StringWriter out = new StringWriter();
        try {
            XMLStreamWriter w = XMLOutputFactory.newDefaultFactory().createXMLStreamWriter(out);
            w.writeStartDocument("UTF-8", "1.0");
            monitor(w, out, monitor);
            w.writeEndDocument();
            w.close();
        } catch (XMLStreamException e) {
            throw new IllegalStateException("cannot write XML", e);
        }
        return out.toString();
    }

    /**
     * Writes a command document as the body of a message.
     *
     * @param document the request, cancel, ping or stop
     * @return the XML encoded in UTF-8
     */
    public byte[] writeBytes(CommandDocument document) {
        return write(document).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Writes a reply.
     *
     * @param reply the reply
     * @return the XML, with a declaration naming UTF-8
     */
    public String write(Reply reply) {
        return render(w -> reply(w, reply));
    }

    /**
     * Writes a reply as the body of a message.
     *
     * @param reply the reply
     * @return the XML encoded in UTF-8
     */
    public byte[] writeBytes(Reply reply) {
        return write(reply).getBytes(StandardCharsets.UTF_8);
    }

    @FunctionalInterface
    interface Body {
        void write(XMLStreamWriter w) throws XMLStreamException;
    }

    static String render(Body body) {
        StringWriter out = new StringWriter();
        try {
            // A fresh writer per document: XMLOutputFactory is not specified as thread-safe.
            XMLStreamWriter w = XMLOutputFactory.newDefaultFactory().createXMLStreamWriter(out);
            w.writeStartDocument("UTF-8", "1.0");
            body.write(w);
            w.writeEndDocument();
            w.close();
        } catch (XMLStreamException e) {
            // Only the StringWriter is written to and the records hold nothing unwritable.
            throw new IllegalStateException("cannot write XML", e);
        }
        return out.toString();
    }

    private static void transferRequest(XMLStreamWriter w, TransferRequest request) throws XMLStreamException {
        startRoot(w, "request", "FileTransfer.xsd");
        w.writeStartElement("managedTransfer");
        originator(w, request.originator());
        if (request.schedule() != null) {
            ScheduleTriggerWriter.schedule(w, request.schedule());
        }
        agent(w, "sourceAgent", request.sourceAgent());
        agent(w, "destinationAgent", request.destinationAgent());
        if (request.trigger() != null) {
            ScheduleTriggerWriter.trigger(w, request.trigger());
        }
        replyTo(w, request.reply());
        transferSet(w, request.transferSet());
        job(w, request.jobName());
        w.writeEndElement();
        w.writeEndElement();
    }

    private static void managedCall(XMLStreamWriter w, ManagedCallRequest request) throws XMLStreamException {
        startRoot(w, "request", "FileTransfer.xsd");
        w.writeStartElement("managedCall");
        originator(w, request.originator());
        agent(w, "agent", request.agent());
        replyTo(w, request.reply());
        w.writeStartElement("transferSet");
        w.writeAttribute("priority", Integer.toString(request.priority()));
        metaDataSet(w, request.metadata());
        call(w, "call", request.call());
        w.writeEndElement();
        job(w, request.jobName());
        w.writeEndElement();
        w.writeEndElement();
    }

    private static void job(XMLStreamWriter w, String jobName) throws XMLStreamException {
        if (jobName != null) {
            w.writeStartElement("job");
            textElement(w, "name", jobName);
            w.writeEndElement();
        }
    }

    private static void transferSet(XMLStreamWriter w, TransferSet set) throws XMLStreamException {
        w.writeStartElement("transferSet");
        w.writeAttribute("priority", Integer.toString(set.priority()));
        if (set.recoveryTimeoutSeconds() != null) {
            w.writeAttribute("recoveryTimeout", Long.toString(set.recoveryTimeoutSeconds()));
        }
        metaDataSet(w, set.metadata());
        call(w, "preSourceCall", set.calls().preSource());
        call(w, "postSourceCall", set.calls().postSource());
        call(w, "preDestinationCall", set.calls().preDestination());
        call(w, "postDestinationCall", set.calls().postDestination());
        for (TransferItem item : set.items()) {
            item(w, item);
        }
        w.writeEndElement();
    }

    /** A {@code <metaDataSet>}, or nothing for no metadata; shared with {@link TemplateWriter}. */
    static void metaDataSet(XMLStreamWriter w, Map<String, String> metadata) throws XMLStreamException {
        if (!metadata.isEmpty()) {
            w.writeStartElement("metaDataSet");
            for (Map.Entry<String, String> entry : metadata.entrySet()) {
                w.writeStartElement("metaData");
                w.writeAttribute("key", entry.getKey());
                text(w, entry.getValue());
                w.writeEndElement();
            }
            w.writeEndElement();
        }
    }

    /** One {@code <item>}, as requests and templates ({@link TemplateWriter}) hold it. */
    static void item(XMLStreamWriter w, TransferItem item) throws XMLStreamException {
        w.writeStartElement("item");
        w.writeAttribute("mode", item.mode().xmlValue());
        w.writeAttribute("checksumMethod", item.checksumMethod().xmlValue());
        ItemSource source = item.source();
        w.writeStartElement("source");
        if (source.queue() != null) {
            w.writeAttribute("type", "queue");
        } else {
            w.writeAttribute("recursive", Boolean.toString(source.recursive()));
        }
        w.writeAttribute("disposition", source.disposition().xmlValue());
        w.writeStartElement(source.queue() == null ? "file" : "queue");
        if (source.queue() != null) {
            for (Map.Entry<String, String> a : source.queue().attributes().entrySet()) {
                w.writeAttribute(a.getKey(), a.getValue());
            }
        }
        if (source.encoding() != null) {
            w.writeAttribute("encoding", source.encoding());
        }
        text(w, source.path());
        w.writeEndElement();
        w.writeEndElement();
        ItemDestination destination = item.destination();
        w.writeStartElement("destination");
        if (destination.queue() == null) {
            w.writeAttribute("type", destination.type().xmlValue());
        }
        w.writeAttribute("exist", destination.exist().xmlValue());
        w.writeStartElement(destination.queue() == null ? "file" : "queue");
        if (destination.queue() != null) {
            for (Map.Entry<String, String> a : destination.queue().attributes().entrySet()) {
                w.writeAttribute(a.getKey(), a.getValue());
            }
        }
        if (destination.encoding() != null) {
            w.writeAttribute("encoding", destination.encoding());
        }
        if (destination.eol() != null) {
            w.writeAttribute("EOL", destination.eol().xmlValue());
        }
        text(w, destination.path());
        w.writeEndElement();
        w.writeEndElement();
        w.writeEndElement();
    }

    /** A call element with its {@code <command>}, as IBM's generators write it; nothing when {@code call} is null. */
    private static void call(XMLStreamWriter w, String element, ProgramCall call) throws XMLStreamException {
        if (call == null) {
            return;
        }
        w.writeStartElement(element);
        w.writeStartElement("command");
        w.writeAttribute("name", call.name());
        w.writeAttribute("type", call.type().xml());
        w.writeAttribute("retryCount", Integer.toString(call.retryCount()));
        w.writeAttribute("retryWait", Integer.toString(call.retryWaitSeconds()));
        w.writeAttribute("successRC", call.successCodes().expression());
        for (String argument : call.arguments()) {
            w.writeStartElement("argument");
            text(w, argument);
            w.writeEndElement();
        }
        w.writeEndElement();
        w.writeEndElement();
    }

    private static void cancel(XMLStreamWriter w, CancelRequest cancel) throws XMLStreamException {
        startRoot(w, "cancel", "FileTransfer.xsd");
        originator(w, cancel.originator());
        w.writeStartElement("transfer");
        textElement(w, "ID", cancel.transferId());
        w.writeEndElement();
        replyTo(w, cancel.reply());
        w.writeEndElement();
    }

    private static void ping(XMLStreamWriter w, PingAgentRequest ping) throws XMLStreamException {
        // Prefixed root and unqualified children: PingAgent.xsd leaves elementFormDefault unqualified.
        w.writeStartElement("ping", "pingAgent", PingAgentRequest.NAMESPACE);
        w.writeNamespace("ping", PingAgentRequest.NAMESPACE);
        w.writeNamespace("xsi", XSI);
        w.writeAttribute("xsi", XSI, "schemaLocation", PingAgentRequest.NAMESPACE + " PingAgent.xsd");
        w.writeAttribute("version", VERSION);
        originator(w, ping.originator());
        w.writeEmptyElement("agent");
        w.writeAttribute("agent", ping.agent());
        if (ping.agentQMgr() != null) {
            w.writeAttribute("QMgr", ping.agentQMgr());
        }
        replyTo(w, ping.reply());
        w.writeEndElement();
    }

    private static void stop(XMLStreamWriter w, StopAgentRequest stop) throws XMLStreamException {
        // Our own document: no schema file to point at.
        w.writeStartElement("stopAgent");
        w.writeAttribute("version", VERSION);
        w.writeAttribute("immediate", Boolean.toString(stop.immediate()));
        originator(w, stop.originator());
        w.writeEmptyElement("agent");
        w.writeAttribute("agent", stop.agent());
        replyTo(w, stop.reply());
        w.writeEndElement();
    }

    private static void monitor(XMLStreamWriter w, StringWriter out, MonitorDefinition m) throws XMLStreamException {
        startMonitorRoot(w, "monitor", m.version());
        if (m.overwrite()) {
            w.writeAttribute("overwrite", "true");
        }
        if (m.clearHistory()) {
            w.writeAttribute("clearHistory", "true");
        }
        textElement(w, "name", m.name());
        if (m.description() != null) {
            textElement(w, "description", m.description());
        }
        pollIntervalAndBatch(w, m);
        textElement(w, "agent", m.agent());
        resourcesAndTrigger(w, m);
        replyTo(w, m.reply());
        tasksOriginatorAndJob(w, out, m);
        w.writeEndElement();
    }

    /**
     * Writes a monitor's retained listing as IBM publishes it on
     * {@code SYSTEM.FTE/monitors/<agent>/<monitor>} (MonitorList.xsd): root
     * {@code monitor:monitorList} with {@code version}, {@code agent} and {@code monitor}, then
     * {@code <status state>}, {@code <configuration>} (description, which the schema requires,
     * resources, triggerMatch, tasks, originator, job), {@code <pollInterval>} and {@code <batch>}.
     *
     * @param monitor the monitor
     * @param started whether it polls
     * @return the XML, with a declaration naming UTF-8
     */
    public String writeMonitorList(MonitorDefinition monitor, boolean started) {
        StringWriter out = new StringWriter();
        try {
            XMLStreamWriter w = XMLOutputFactory.newDefaultFactory().createXMLStreamWriter(out);
            w.writeStartDocument("UTF-8", "1.0");
            w.writeStartElement("monitor", "monitorList", MonitorDefinition.NAMESPACE);
            w.writeNamespace("monitor", MonitorDefinition.NAMESPACE);
            w.writeNamespace("xsi", XSI);
            w.writeAttribute("xsi", XSI, "schemaLocation", MonitorDefinition.NAMESPACE + " MonitorList.xsd");
            w.writeAttribute("version", monitor.version());
            w.writeAttribute("agent", monitor.agent());
            w.writeAttribute("monitor", monitor.name());
            w.writeEmptyElement("status");
            w.writeAttribute("state", started ? MonitorListing.STARTED : MonitorListing.STOPPED);
            w.writeStartElement("configuration");
            textElement(w, "description", monitor.description() == null ? "" : monitor.description());
            resourcesAndTrigger(w, monitor);
            tasksOriginatorAndJob(w, out, monitor);
            w.writeEndElement();
            pollIntervalAndBatch(w, monitor);
            w.writeEndElement();
            w.writeEndDocument();
            w.close();
        } catch (XMLStreamException e) {
            throw new IllegalStateException("cannot write XML", e);
        }
        return out.toString();
    }

    private static void pollIntervalAndBatch(XMLStreamWriter w, MonitorDefinition m) throws XMLStreamException {
        w.writeStartElement("pollInterval");
        w.writeAttribute("units", m.pollInterval().unit().xml());
        w.writeCharacters(Long.toString(m.pollInterval().value()));
        w.writeEndElement();
        w.writeEmptyElement("batch");
        w.writeAttribute("maxSize", Integer.toString(m.batchSize()));
    }

    private static void resourcesAndTrigger(XMLStreamWriter w, MonitorDefinition m) throws XMLStreamException {
        w.writeStartElement("resources");
        if (m.queueMonitor()) {
            textElement(w, "queue", m.queue());
        } else {
            w.writeStartElement("directory");
            w.writeAttribute("recursionLevel", Integer.toString(m.recursionLevel()));
            text(w, m.directory());
            w.writeEndElement();
        }
        w.writeEndElement();
        w.writeStartElement("triggerMatch");
        w.writeStartElement("conditions");
        w.writeStartElement(m.allOf() ? "allOf" : "anyOf");
        for (MonitorCondition condition : m.conditions()) {
            w.writeStartElement("condition");
            condition(w, condition);
            w.writeEndElement();
        }
        w.writeEndElement();
        w.writeEndElement();
        if (m.triggerContent() != null) {
            w.writeStartElement("triggerContent");
            if (m.triggerContent().regex() != null) {
                textElement(w, "regex", m.triggerContent().regex());
                textElement(w, "captureOrder", m.triggerContent().captureOrder());
            }
            w.writeEndElement();
        }
        w.writeEndElement();
    }

    private static void tasksOriginatorAndJob(XMLStreamWriter w, StringWriter out, MonitorDefinition m)
            throws XMLStreamException {
        w.writeStartElement("tasks");
        w.writeStartElement("task");
        textElement(w, "name", m.task().name());
        if (m.task().description() != null) {
            textElement(w, "description", m.task().description());
        }
        w.writeStartElement("transfer");
        // The request is kept as XML text (its variables may stand where the transfer schema
        // allows none), so it goes in as it is: the start tag is closed, then the text follows.
        w.writeCharacters("");
        w.flush();
        out.write(m.task().requestXml());
        w.writeEndElement();
        w.writeEndElement();
        w.writeEndElement();
        originator(w, m.originator());
        if (m.jobName() != null) {
            w.writeStartElement("job");
            textElement(w, "name", m.jobName());
            w.writeEndElement();
        }
        if (!m.defaultVariables().isEmpty()) {
            w.writeStartElement("defaultVariables");
            for (Map.Entry<String, String> e : new java.util.TreeMap<>(m.defaultVariables()).entrySet()) {
                w.writeStartElement("variable");
                w.writeAttribute("key", e.getKey());
                text(w, e.getValue());
                w.writeEndElement();
            }
            w.writeEndElement();
        }
    }

    private static void condition(XMLStreamWriter w, MonitorCondition condition) throws XMLStreamException {
        if (condition.onQueue()) {
            w.writeEmptyElement(condition instanceof MonitorCondition.QueueNotEmpty ? "queueNotEmpty" : "completeGroups");
            return;
        }
        if (condition instanceof MonitorCondition.FileMatch) {
            w.writeStartElement("fileMatch");
        } else if (condition instanceof MonitorCondition.FileNoMatch) {
            w.writeStartElement("fileNoMatch");
        } else if (condition instanceof MonitorCondition.FileSizeSame same) {
            w.writeStartElement("fileSizeSame");
            w.writeAttribute("polls", Integer.toString(same.polls()));
        } else if (condition instanceof MonitorCondition.FileSize size) {
            w.writeStartElement("fileSize");
            w.writeStartElement("compare");
            w.writeAttribute("operator", ">=");
            w.writeAttribute("units", size.units().name());
            w.writeCharacters(Long.toString(size.amount()));
            w.writeEndElement();
        }
        pattern(w, "pattern", condition.pattern());
        if (condition.exclude() != null) {
            pattern(w, "exclude", condition.exclude());
        }
        w.writeEndElement();
    }

    private static void pattern(XMLStreamWriter w, String element, MonitorCondition.FilePattern pattern)
            throws XMLStreamException {
        w.writeStartElement(element);
        if (pattern.regex()) {
            w.writeAttribute("type", "regex");
        }
        text(w, pattern.text());
        w.writeEndElement();
    }

    private static void monitorCommand(XMLStreamWriter w, String root, String version, String name,
            Originator originator, ReplyTo reply) throws XMLStreamException {
        startMonitorRoot(w, root, version);
        textElement(w, "name", name);
        originator(w, originator);
        replyTo(w, reply);
        w.writeEndElement();
    }

    private static void startMonitorRoot(XMLStreamWriter w, String root, String version) throws XMLStreamException {
        w.writeStartElement("monitor", root, MonitorDefinition.NAMESPACE);
        w.writeNamespace("monitor", MonitorDefinition.NAMESPACE);
        w.writeNamespace("xsi", XSI);
        w.writeAttribute("version", version);
        w.writeAttribute("xsi", XSI, "schemaLocation", MonitorDefinition.NAMESPACE + " ./Monitor.xsd");
    }

    private static void reply(XMLStreamWriter w, Reply reply) throws XMLStreamException {
        startRoot(w, "reply", "Reply.xsd");
        w.writeAttribute("ID", reply.requestId());
        if (!reply.items().isEmpty()) {
            w.writeStartElement("transferSet");
            for (ItemResult item : reply.items()) {
                w.writeStartElement("item");
                w.writeStartElement("source");
                textElement(w, "file", item.source());
                w.writeEndElement();
                if (item.destination() != null) {
                    w.writeStartElement("destination");
                    textElement(w, "file", item.destination());
                    w.writeEndElement();
                }
                status(w, item.resultCode(), item.supplement() == null ? List.of() : List.of(item.supplement()));
                w.writeEndElement();
            }
            w.writeEndElement();
        }
        status(w, reply.resultCode(), reply.supplements());
        w.writeEndElement();
    }

    private static void status(XMLStreamWriter w, int resultCode, List<String> supplements)
            throws XMLStreamException {
        w.writeStartElement("status");
        w.writeAttribute("resultCode", Integer.toString(resultCode));
        for (String supplement : supplements) {
            w.writeStartElement("supplement");
            text(w, supplement);
            w.writeEndElement();
        }
        w.writeEndElement();
    }

    private static void startRoot(XMLStreamWriter w, String name, String schema) throws XMLStreamException {
        w.writeStartElement(name);
        w.writeNamespace("xsi", XSI);
        w.writeAttribute("version", VERSION);
        w.writeAttribute("xsi", XSI, "noNamespaceSchemaLocation", schema);
    }

    private static void originator(XMLStreamWriter w, Originator originator) throws XMLStreamException {
        w.writeStartElement("originator");
        textElement(w, "hostName", originator.hostName());
        textElement(w, "userID", originator.userId());
        if (originator.mqmdUserId() != null) {
            textElement(w, "mqmdUserID", originator.mqmdUserId());
        }
        w.writeEndElement();
    }

    private static void agent(XMLStreamWriter w, String element, AgentRef agent) throws XMLStreamException {
        w.writeEmptyElement(element);
        w.writeAttribute("agent", agent.agent());
        if (agent.qmgr() != null) {
            w.writeAttribute("QMgr", agent.qmgr());
        }
    }

    static void replyTo(XMLStreamWriter w, ReplyTo reply) throws XMLStreamException {
        if (reply == null) {
            return;
        }
        w.writeStartElement("reply");
        if (reply.qmgr() != null) {
            w.writeAttribute("QMGR", reply.qmgr());
        }
        if (reply.detailed()) {
            w.writeAttribute("detailed", "true");
        }
        text(w, reply.queue());
        w.writeEndElement();
    }

    static void textElement(XMLStreamWriter w, String element, String value) throws XMLStreamException {
        w.writeStartElement(element);
        text(w, value);
        w.writeEndElement();
    }

    /**
     * Character data with carriage returns as {@code &#13;}: a literal CR is read back as LF
     * (XML end-of-line handling), and the StAX writer leaves it literal.
     */
    private static void text(XMLStreamWriter w, String value) throws XMLStreamException {
        int start = 0;
        for (int cr = value.indexOf('\r'); cr >= 0; cr = value.indexOf('\r', start)) {
            w.writeCharacters(value.substring(start, cr));
            w.writeEntityRef("#13");
            start = cr + 1;
        }
        w.writeCharacters(value.substring(start));
    }
}
