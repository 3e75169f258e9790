package org.openmft.xml.log;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import javax.xml.XMLConstants;

import org.openmft.xml.AgentRef;
import org.openmft.xml.Checks;
import org.openmft.xml.DocumentCursor;
import org.openmft.xml.DocumentCursor.DocumentReader;
import org.openmft.xml.DocumentCursor.Frame;
import org.openmft.xml.Originator;

/**
 * Reads the documents agents publish on {@code SYSTEM.FTE}, ours ({@link PublicationWriter}) and
 * IBM's, from untrusted input: transfer logs and authority refusals ({@code <transaction>} and
 * {@code <notAuthorized>}, TransferLog.xsd), live progress (TransferStatus.xsd) and agent status
 * ({@code Properties} XML). Immutable and thread-safe: make one and share it.
 *
 * <p>Hardening, as for the request parser: the JDK's own StAX parser is used with DTDs, external
 * entities and entity replacement switched off, and no resolver that could fetch anything. A
 * DOCTYPE is refused before anything in it could be used, with one exception: an agent status
 * document may carry the {@code <!DOCTYPE properties SYSTEM "http://java.sun.com/dtd/properties.dtd">}
 * that {@code Properties.storeToXML} writes. That DTD is never fetched, and a DOCTYPE with an
 * internal subset (where entities are declared) is refused there too. Entity references other than
 * the five predefined ones and character references are refused. Limits: documents of at most
 * {@value #MAX_DOCUMENT_BYTES} bytes (UTF-8 for string input), nesting at most
 * {@value #MAX_DEPTH} deep, at most {@value #MAX_ELEMENTS} elements, and text or attribute values of
 * at most {@value #MAX_TEXT_LENGTH} characters.
 *
 * <p>Tolerance: IBM's publications carry more than the records model, so elements and attributes
 * that are not read are skipped whatever they hold ({@code systemInfo},
 * {@code scheduleLog}, {@code last-modified}, Connect:Direct attributes ...), as are elements in
 * any namespace. A {@code <queue>} in place of an item's {@code <file>} gives the queue name as the
 * path. Agent status keys may carry IBM's {@code com.ibm.wmqfte.} prefix. Absent numbers are read as
 * -1 and absent values as {@code null}, as the records document. Names (agents, queue managers,
 * originator fields), numbers and times are stripped of surrounding whitespace; everything else
 * (ids, paths, supplements, metadata, status values) is kept exactly as written. What is read must still make sense: the
 * root element, a transfer id, an action and its time, result codes where a status is given, and
 * numbers and times that parse; an element the records model may appear only once.
 *
 * <p>Byte input is decoded as its XML declaration or byte-order mark says (UTF-8 by default).
 * Nothing but {@link MalformedPublicationException} leaves the read methods.
 */
public final class PublicationReader {

    /** Largest document accepted, in bytes: 4 MiB, the default MAXMSGL of a queue manager. */
    public static final int MAX_DOCUMENT_BYTES = 4 * 1024 * 1024;
    /** Deepest element nesting accepted, the root being 1; real documents need 6. */
    public static final int MAX_DEPTH = 32;
    /** Most elements accepted in one document. */
    public static final int MAX_ELEMENTS = 100_000;
    /** Longest text or attribute value accepted, in characters (64 KiB). */
    public static final int MAX_TEXT_LENGTH = 64 * 1024;

    /** The prefix older IBM agents put on their status keys. */
    static final String IBM_KEY_PREFIX = "com.ibm.wmqfte.";

    /** IBM's documentation prints the XML Schema instance namespace with https; documents copied from it carry that. */
    private static final Set<String> XSI = Set.of(XMLConstants.W3C_XML_SCHEMA_INSTANCE_NS_URI,
            XMLConstants.W3C_XML_SCHEMA_INSTANCE_NS_URI.replace("http:", "https:"));

    /** Creates a reader with the limits above. */
    public PublicationReader() {}

    /**
     * Reads a transfer log message (TransferLog.xsd) from text.
     *
     * @param xml the document
     * @return the log message
     * @throws MalformedPublicationException if it is not a transfer log message that can be read, including null
     */
    public TransferLog readLog(String xml) throws MalformedPublicationException {
        return read(null, xml, false, this::log);
    }

    /**
     * Reads a transfer log message (TransferLog.xsd) from the bytes of a message.
     *
     * @param xml the document; its encoding comes from its declaration or byte-order mark
     * @return the log message
     * @throws MalformedPublicationException if it is not a transfer log message that can be read, including null
     */
    public TransferLog readLog(byte[] xml) throws MalformedPublicationException {
        return read(xml, null, false, this::log);
    }

    /**
     * Reads a live progress message (TransferStatus.xsd) from text.
     *
     * @param xml the document
     * @return the progress message
     * @throws MalformedPublicationException if it is not a progress message that can be read, including null
     */
    public TransferProgress readProgress(String xml) throws MalformedPublicationException {
        return read(null, xml, false, this::progress);
    }

    /**
     * Reads a live progress message (TransferStatus.xsd) from the bytes of a message.
     *
     * @param xml the document; its encoding comes from its declaration or byte-order mark
     * @return the progress message
     * @throws MalformedPublicationException if it is not a progress message that can be read, including null
     */
    public TransferProgress readProgress(byte[] xml) throws MalformedPublicationException {
        return read(xml, null, false, this::progress);
    }

    /**
     * Reads an agent status ({@code Properties} XML) from text.
     *
     * @param xml the document
     * @return the status
     * @throws MalformedPublicationException if it is not an agent status that can be read, including null
     */
    public AgentStatus readAgentStatus(String xml) throws MalformedPublicationException {
        return read(null, xml, true, this::agentStatus);
    }

    /**
     * Reads an agent status ({@code Properties} XML) from the bytes of a message.
     *
     * @param xml the document; its encoding comes from its declaration or byte-order mark
     * @return the status
     * @throws MalformedPublicationException if it is not an agent status that can be read, including null
     */
    public AgentStatus readAgentStatus(byte[] xml) throws MalformedPublicationException {
        return read(xml, null, true, this::agentStatus);
    }

    /**
     * Reads a NotAuthorized log message (root {@code <notAuthorized>}, TransferLog.xsd) from text.
     *
     * @param xml the document
     * @return the refusal
     * @throws MalformedPublicationException if it is not a NotAuthorized message that can be read, including null
     */
    public NotAuthorizedLog readNotAuthorized(String xml) throws MalformedPublicationException {
        return read(null, xml, false, this::notAuthorized);
    }

    /**
     * Reads a NotAuthorized log message (root {@code <notAuthorized>}, TransferLog.xsd) from the bytes of a message.
     *
     * @param xml the document; its encoding comes from its declaration or byte-order mark
     * @return the refusal
     * @throws MalformedPublicationException if it is not a NotAuthorized message that can be read, including null
     */
    public NotAuthorizedLog readNotAuthorized(byte[] xml) throws MalformedPublicationException {
        return read(xml, null, false, this::notAuthorized);
    }

    /**
     * Reads a schedule log message (root {@code <schedulelog>}, ScheduleLog.xsd) from text.
     *
     * @param xml the document
     * @return the schedule log
     * @throws MalformedPublicationException if it is not a schedule log message that can be read, including null
     */
    public ScheduleLog readScheduleLog(String xml) throws MalformedPublicationException {
        return read(null, xml, false, AutomationLogReader::scheduleLog);
    }

    /**
     * Reads a monitor log message (root {@code <monitorLog>}, MonitorLog.xsd) from text.
     *
     * @param xml the document
     * @return the monitor log
     * @throws MalformedPublicationException if it is not a monitor log message that can be read, including null
     */
    public MonitorLog readMonitorLog(String xml) throws MalformedPublicationException {
        return read(null, xml, false, AutomationLogReader::monitorLog);
    }

    // ---------------------------------------------------------------- plumbing

    private static <T> T read(byte[] bytes, String text, boolean propertiesDoctype,
            DocumentReader<PublicationCursor, T, MalformedPublicationException> body) throws MalformedPublicationException {
        return DocumentCursor.read(bytes, text, MAX_DOCUMENT_BYTES, MalformedPublicationException::new,
                reader -> new PublicationCursor(reader, propertiesDoctype, MAX_DEPTH, MAX_ELEMENTS, MAX_TEXT_LENGTH),
                body);
    }

    // ---------------------------------------------------------------- transfer log

    /** The {@code <transaction>} root, with a check that it is not the other kind of transaction. */
    private static Frame transactionRoot(PublicationCursor c, String schema, String otherSchema, String what)
            throws MalformedPublicationException {
        String root = c.root();
        Frame f = c.current();
        if (!root.equals("transaction") || !c.namespace().isEmpty()) {
            throw c.error(f, "unknown root element <" + root + ">" + (c.namespace().isEmpty() ? ""
                    : " in namespace " + Checks.quote(c.namespace())) + "; expected <transaction> ("
                    + schema + ") in no namespace");
        }
        for (String xsi : XSI) {
            String location = c.attribute(xsi, "noNamespaceSchemaLocation");
            if (location != null && location.strip().endsWith(otherSchema)) {
                throw c.error(f, "xsi:noNamespaceSchemaLocation=" + Checks.quote(location) + " says this is not "
                        + what + " but a " + otherSchema + " document");
            }
        }
        return f;
    }

    private TransferLog log(PublicationCursor c) throws MalformedPublicationException {
        Frame f = transactionRoot(c, PublicationWriter.TRANSFER_LOG_SCHEMA, PublicationWriter.TRANSFER_STATUS_SCHEMA,
                "a transfer log");
        String version = requiredAttribute(c, f, "version");
        String id = requiredAttribute(c, f, "ID");
        String agentRole = requiredAttribute(c, f, "agentRole");
        LogAction action = null;
        Instant time = null;
        AgentRef source = null;
        AgentRef destination = null;
        // A managed call's log names its agent so (LogAction.managedCall); elsewhere <agent> is skipped.
        AgentRef callAgent = null;
        Originator originator = null;
        Status status = null;
        LogTransferSet set = new LogTransferSet(null, -1, -1, -1, List.of(), Map.of(), List.of());
        String jobName = null;
        Statistics statistics = null;
        org.openmft.xml.TransferTrigger trigger = null;
        Set<String> seen = new HashSet<>();
        for (String child = c.nextChild(); child != null; child = c.nextChild()) {
            switch (child) {
                case "action" -> {
                    time = actionTime(c, seen, f);
                    action = action(c, c.current(), c.text().strip());
                }
                case "trigger" -> trigger = readOnce(c, seen, f, AutomationLogReader::trigger);
                case "sourceAgent" -> source = readOnce(c, seen, f, PublicationReader::agent);
                case "agent" -> callAgent = readOnce(c, seen, f, PublicationReader::agent);
                case "destinationAgent" -> destination = readOnce(c, seen, f, PublicationReader::agent);
                case "originator" -> originator = readOnce(c, seen, f, PublicationReader::originator);
                case "status" -> status = readOnce(c, seen, f, PublicationReader::status);
                case "transferSet" -> set = readOnce(c, seen, f, PublicationReader::logTransferSet);
                case "job" -> jobName = readOnce(c, seen, f, PublicationReader::job);
                case "statistics" -> statistics = readOnce(c, seen, f, PublicationReader::statistics);
                default -> c.skip();
            }
        }
        if (action == null) {
            throw c.error(f, "missing required element <action>");
        }
        if (action.managedCall() && source == null) {
            source = callAgent;
        }
        try {
            return new TransferLog(version, id, agentRole, action, time, source, destination, originator, jobName,
                    set.startTime(), set.total(), set.bytesSent(), set.index(), set.items(),
                    status == null ? null : status.resultCode(), status == null ? List.of() : status.supplements(),
                    statistics, set.metadata(), set.calls(), trigger);
        } catch (IllegalArgumentException e) {
            throw c.error(f, e.getMessage());
        }
    }

    /** The required time of an {@code <action time="..">}, once in {@code parent}; its text is left to read. */
    static Instant actionTime(PublicationCursor c, Set<String> seen, Frame parent)
            throws MalformedPublicationException {
        once(c, seen, parent);
        Frame at = c.current();
        return instant(c, at, "attribute time", requiredAttribute(c, at, "time"));
    }

    private static LogAction action(PublicationCursor c, Frame f, String text) throws MalformedPublicationException {
        try {
            return LogAction.fromXml(text);
        } catch (IllegalArgumentException e) {
            StringBuilder expected = new StringBuilder();
            for (LogAction a : LogAction.values()) {
                expected.append(expected.length() == 0 ? "" : ", ").append(a.xml());
            }
            throw c.error(f, "unknown action " + Checks.quote(text) + "; expected one of " + expected);
        }
    }

    /** {@code <sourceAgent agent=".." QMgr=".."/>}; its children ({@code systemInfo}) are skipped. */
    static AgentRef agent(PublicationCursor c) throws MalformedPublicationException {
        Frame f = c.current();
        String agent = requiredAttribute(c, f, "agent").strip();
        String qmgr = c.attribute("QMgr");
        c.skip();
        return build(c, f, () -> new AgentRef(agent, qmgr == null ? null : qmgr.strip()));
    }

    /**
     * {@code <originator>}: IBM pads {@code mqmdUserID} with blanks, so the names are stripped. One
     * without host and user is read as no originator at all.
     */
    static Originator originator(PublicationCursor c) throws MalformedPublicationException {
        Frame f = c.current();
        Map<String, String> fields = new HashMap<>();
        Set<String> seen = new HashSet<>();
        for (String child = c.nextChild(); child != null; child = c.nextChild()) {
            switch (child) {
                case "hostName", "userID", "mqmdUserID" -> {
                    once(c, seen, f);
                    fields.put(child, c.text().strip());
                }
                default -> c.skip();
            }
        }
        String hostName = fields.getOrDefault("hostName", "");
        String userId = fields.getOrDefault("userID", "");
        if (hostName.isEmpty() && userId.isEmpty()) {
            return null;
        }
        if (hostName.isEmpty() || userId.isEmpty()) {
            throw c.error(f, "missing required element <" + (hostName.isEmpty() ? "hostName" : "userID") + ">");
        }
        return build(c, f, () -> new Originator(hostName, userId, fields.get("mqmdUserID")));
    }

    /** {@code <status resultCode="N"><supplement>..</supplement>*</status>}. */
    record Status(int resultCode, List<String> supplements) {}

    static Status status(PublicationCursor c) throws MalformedPublicationException {
        Frame f = c.current();
        int resultCode = intValue(c, f, "attribute resultCode", requiredAttribute(c, f, "resultCode"));
        if (resultCode < 0) {
            throw c.error(f, "attribute resultCode=\"" + resultCode + "\" is negative");
        }
        List<String> supplements = new ArrayList<>();
        for (String child = c.nextChild(); child != null; child = c.nextChild()) {
            if (child.equals("supplement")) {
                supplements.add(c.text());
            } else {
                c.skip();
            }
        }
        return new Status(resultCode, supplements);
    }

    /** What a transfer log's {@code <transferSet>} carries. */
    private record LogTransferSet(Instant startTime, int total, long bytesSent, int index, List<LogItem> items,
            Map<String, String> metadata, List<LogCall> calls) {}

    /** Its {@code size} attribute is left unread: it is the number of items, which the list has. */
    private static LogTransferSet logTransferSet(PublicationCursor c) throws MalformedPublicationException {
        Frame f = c.current();
        Instant startTime = instant(c, f, "attribute startTime", c.attribute("startTime"));
        int total = intValue(c, f, "attribute total", c.attribute("total"));
        long bytesSent = longValue(c, f, "attribute bytesSent", c.attribute("bytesSent"));
        int index = intValue(c, f, "attribute index", c.attribute("index"));
        List<LogItem> items = new ArrayList<>();
        Map<String, String> metadata = new LinkedHashMap<>();
        List<LogCall> calls = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (String child = c.nextChild(); child != null; child = c.nextChild()) {
            switch (child) {
                case "metaDataSet" -> {
                    once(c, seen, f);
                    metaDataSet(c, metadata);
                }
                case "item" -> items.add(item(c));
                // "call": a managed call's (callStarted, callCompleted), IBM's <transferSet><call>.
                case "preSourceCall", "postSourceCall", "preDestinationCall", "postDestinationCall", "call" -> {
                    LogCall call = AutomationLogReader.call(c, child);
                    if (call != null) {
                        calls.add(call);
                    }
                }
                default -> c.skip();
            }
        }
        return new LogTransferSet(startTime, total, bytesSent, index, items, metadata, calls);
    }

    private static void metaDataSet(PublicationCursor c, Map<String, String> metadata)
            throws MalformedPublicationException {
        for (String child = c.nextChild(); child != null; child = c.nextChild()) {
            if (child.equals("metaData")) {
                String key = c.attribute("key");
                if (key == null) {
                    throw c.error(c.current(), "missing required attribute key");
                }
                metadata.put(key, c.text());
            } else {
                c.skip();
            }
        }
    }

    /** An item's {@code <source>} or {@code <destination>}. */
    private record Side(String path, long size, String action, String checksumMethod, String checksum,
            boolean queue, String groupId, long messageCount) {}

    private static LogItem item(PublicationCursor c) throws MalformedPublicationException {
        Frame f = c.current();
        String mode = c.attribute("mode");
        Side source = null;
        Side destination = null;
        Status status = null;
        Set<String> seen = new HashSet<>();
        for (String child = c.nextChild(); child != null; child = c.nextChild()) {
            switch (child) {
                case "source" -> source = readOnce(c, seen, f, x -> side(x, "disposition"));
                case "destination" -> destination = readOnce(c, seen, f, x -> side(x, "exist"));
                case "status" -> status = readOnce(c, seen, f, PublicationReader::status);
                default -> c.skip();
            }
        }
        if (source == null || source.path() == null) {
            throw c.error(f, source == null ? "missing required element <source>"
                    : "<source> names no <file> or <queue>");
        }
        if (status == null) {
            throw c.error(f, "missing required element <status>");
        }
        Side s = source;
        Side d = destination == null ? new Side(null, -1, null, null, null, false, null, -1) : destination;
        // The checksum is the same on both sides of a successful item; the source's is the one computed first.
        String method = s.checksumMethod() != null ? s.checksumMethod() : d.checksumMethod();
        String checksum = s.checksum() != null ? s.checksum() : d.checksum();
        // IBM writes one supplement per item; should there be more, none is lost.
        String supplement = status.supplements().isEmpty() ? null : String.join("\n", status.supplements());
        int resultCode = status.resultCode();
        return build(c, f, () -> new LogItem(mode, s.path(), s.action(), s.size(), d.path(), d.action(), d.size(),
                method, checksum, resultCode, supplement, s.queue(), s.groupId(), s.messageCount()));
    }

    private static Side side(PublicationCursor c, String actionAttribute) throws MalformedPublicationException {
        Frame f = c.current();
        String action = c.attribute(actionAttribute);
        String path = null;
        long size = -1;
        String method = null;
        String checksum = null;
        boolean queue = false;
        String groupId = null;
        long messageCount = -1;
        Set<String> seen = new HashSet<>();
        for (String child = c.nextChild(); child != null; child = c.nextChild()) {
            switch (child) {
                case "file", "queue" -> {
                    queue = child.equals("queue");
                    if (path != null) {
                        throw c.error(c.current(), "<" + f.name() + "> names more than one <file> or <queue>");
                    }
                    size = longValue(c, c.current(), "attribute size", c.attribute("size"));
                    if (queue) {
                        groupId = c.attribute("groupId");
                        messageCount = longValue(c, c.current(), "attribute messageCount", c.attribute("messageCount"));
                    }
                    path = c.text();
                }
                case "checksum" -> {
                    once(c, seen, f);
                    method = c.attribute("method");
                    checksum = c.text();
                }
                default -> c.skip();
            }
        }
        return new Side(path, size, action, method, checksum, queue, groupId, messageCount);
    }

    static String job(PublicationCursor c) throws MalformedPublicationException {
        Frame f = c.current();
        String name = null;
        for (String child = c.nextChild(); child != null; child = c.nextChild()) {
            if (child.equals("name")) {
                if (name != null) {
                    throw c.error(c.current(), "element <name> appears more than once in <" + f.name() + ">");
                }
                name = c.text();
            } else {
                c.skip();
            }
        }
        return name;
    }

    private static Statistics statistics(PublicationCursor c) throws MalformedPublicationException {
        Frame f = c.current();
        Instant actualStartTime = null;
        Map<String, Integer> counts = new HashMap<>();
        Set<String> seen = new HashSet<>();
        for (String child = c.nextChild(); child != null; child = c.nextChild()) {
            switch (child) {
                case "actualStartTime" -> {
                    once(c, seen, f);
                    Frame at = c.current();
                    actualStartTime = instant(c, at, "text", c.text());
                }
                case "retryCount", "numFileFailures", "numFileWarnings" -> {
                    once(c, seen, f);
                    Frame at = c.current();
                    counts.put(child, intValue(c, at, "text", c.text()));
                }
                default -> c.skip();
            }
        }
        Instant start = actualStartTime;
        return build(c, f, () -> new Statistics(start, counts.getOrDefault("retryCount", -1),
                counts.getOrDefault("numFileFailures", -1), counts.getOrDefault("numFileWarnings", -1)));
    }

    // ---------------------------------------------------------------- not authorized

    /** The text of a NotAuthorized message's {@code <action>}. */
    private static final String NOT_AUTHORIZED_ACTION = "not_authorized";

    /**
     * {@code <notAuthorized version ID agentRole>}: IBM's example has no agent element, ours names
     * the refusing agent by its role; the originator carries only {@code mqmdUserID}. {@code ID} may
     * be empty (a refused message without an id), but not absent.
     */
    private NotAuthorizedLog notAuthorized(PublicationCursor c) throws MalformedPublicationException {
        String root = c.root();
        Frame f = c.current();
        if (!root.equals("notAuthorized") || !c.namespace().isEmpty()) {
            throw c.error(f, "unknown root element <" + root + ">; expected <notAuthorized> in no namespace");
        }
        String version = requiredAttribute(c, f, "version");
        String id = c.attribute("ID");
        if (id == null) {
            throw c.error(f, "missing required attribute ID");
        }
        String agentRole = requiredAttribute(c, f, "agentRole");
        Instant time = null;
        Map<String, AgentRef> agents = new HashMap<>();
        String mqmdUserId = null;
        String authority = null;
        Status status = null;
        Set<String> seen = new HashSet<>();
        for (String child = c.nextChild(); child != null; child = c.nextChild()) {
            switch (child) {
                case "action" -> {
                    time = actionTime(c, seen, f);
                    Frame at = c.current();
                    String text = c.text().strip();
                    if (!text.equals(NOT_AUTHORIZED_ACTION)) {
                        throw c.error(at, "unknown action " + Checks.quote(text) + "; expected " + NOT_AUTHORIZED_ACTION);
                    }
                }
                case "sourceAgent", "destinationAgent" -> agents.put(child, readOnce(c, seen, f, PublicationReader::agent));
                case "originator" -> mqmdUserId = readOnce(c, seen, f, PublicationReader::mqmdUserId);
                case "authority" -> {
                    once(c, seen, f);
                    authority = c.text().strip();
                }
                case "status" -> status = readOnce(c, seen, f, PublicationReader::status);
                default -> c.skip();
            }
        }
        for (String required : List.of("action", "authority", "status")) {
            if (!seen.contains(required)) {
                throw c.error(f, "missing required element <" + required + ">");
            }
        }
        if (authority.isEmpty()) {
            throw c.error(f, "element <authority> is empty");
        }
        // The agent in the refusing role; IBM's documents may name it in the other element or not at all.
        AgentRef agent = agents.containsKey(agentRole) ? agents.get(agentRole)
                : agents.values().stream().findFirst().orElse(null);
        Instant at = time;
        String user = mqmdUserId;
        String missing = authority;
        Status result = status;
        return build(c, f, () -> new NotAuthorizedLog(version, id, agentRole, at, agent, user, missing,
                result.resultCode(), result.supplements()));
    }

    /** {@code <originator><mqmdUserID>}, stripped of IBM's blank padding; null when absent or blank. */
    private static String mqmdUserId(PublicationCursor c) throws MalformedPublicationException {
        Frame f = c.current();
        String user = null;
        Set<String> seen = new HashSet<>();
        for (String child = c.nextChild(); child != null; child = c.nextChild()) {
            if (child.equals("mqmdUserID")) {
                once(c, seen, f);
                user = c.text().strip();
            } else {
                c.skip();
            }
        }
        return user == null || user.isEmpty() ? null : user;
    }

    // ---------------------------------------------------------------- transfer progress

    private TransferProgress progress(PublicationCursor c) throws MalformedPublicationException {
        Frame f = transactionRoot(c, PublicationWriter.TRANSFER_STATUS_SCHEMA, PublicationWriter.TRANSFER_LOG_SCHEMA,
                "a transfer progress message");
        String version = requiredAttribute(c, f, "version");
        String id = requiredAttribute(c, f, "ID");
        AgentRef source = null;
        AgentRef destination = null;
        ProgressTransferSet set = null;
        Set<String> seen = new HashSet<>();
        for (String child = c.nextChild(); child != null; child = c.nextChild()) {
            switch (child) {
                case "sourceAgent" -> source = readOnce(c, seen, f, PublicationReader::agent);
                case "destinationAgent" -> destination = readOnce(c, seen, f, PublicationReader::agent);
                case "transferSet" -> set = readOnce(c, seen, f, PublicationReader::progressTransferSet);
                default -> c.skip();
            }
        }
        for (String required : List.of("sourceAgent", "destinationAgent", "transferSet")) {
            if (!seen.contains(required)) {
                throw c.error(f, "missing required element <" + required + ">");
            }
        }
        try {
            return new TransferProgress(version, id, source, destination, set.time(), set.bytes(), set.seconds(),
                    set.currentItem(), set.totalItems(), set.transferred(), set.size(), set.source(), set.destination());
        } catch (IllegalArgumentException e) {
            throw c.error(f, e.getMessage());
        }
    }

    /** What a progress message's {@code <transferSet>} carries: its stats and current item. */
    private record ProgressTransferSet(Instant time, long bytes, double seconds, int currentItem, int totalItems,
            long transferred, long size, String source, String destination) {}

    private static ProgressTransferSet progressTransferSet(PublicationCursor c) throws MalformedPublicationException {
        Frame f = c.current();
        Instant time = instant(c, f, "attribute time", requiredAttribute(c, f, "time"));
        long bytes = -1;
        double seconds = -1;
        int currentItem = -1;
        int totalItems = -1;
        long transferred = -1;
        long size = -1;
        String source = null;
        String destination = null;
        Set<String> seen = new HashSet<>();
        for (String child = c.nextChild(); child != null; child = c.nextChild()) {
            Frame at = c.current();
            switch (child) {
                case "stats" -> {
                    once(c, seen, f);
                    bytes = longValue(c, at, "attribute bytes", c.attribute("bytes"));
                    seconds = decimal(c, at, "attribute seconds", c.attribute("seconds"));
                    currentItem = intValue(c, at, "attribute currentItem", c.attribute("currentItem"));
                    totalItems = intValue(c, at, "attribute totalItems", c.attribute("totalItems"));
                    c.skip();
                }
                case "current" -> {
                    once(c, seen, f);
                    transferred = longValue(c, at, "attribute transferred", c.attribute("transferred"));
                    size = longValue(c, at, "attribute size", c.attribute("size"));
                    Set<String> sides = new HashSet<>();
                    for (String side = c.nextChild(); side != null; side = c.nextChild()) {
                        switch (side) {
                            case "source" -> source = readOnce(c, sides, at, x -> side(x, "disposition")).path();
                            case "destination" -> destination = readOnce(c, sides, at, x -> side(x, "exist")).path();
                            default -> c.skip();
                        }
                    }
                }
                default -> c.skip();
            }
        }
        return new ProgressTransferSet(time, bytes, seconds, currentItem, totalItems, transferred, size, source,
                destination);
    }

    // ---------------------------------------------------------------- agent status

    /** One {@code <entry>}: its text and where it was, for messages. */
    private record Entry(String value, Frame at) {}

    private AgentStatus agentStatus(PublicationCursor c) throws MalformedPublicationException {
        String root = c.root();
        Frame f = c.current();
        if (!root.equals("properties") || !c.namespace().isEmpty()) {
            throw c.error(f, "unknown root element <" + root + ">; expected <properties> in no namespace");
        }
        // As Properties.loadFromXML does, a key given twice keeps its last value.
        Map<String, Entry> entries = new HashMap<>();
        for (String child = c.nextChild(); child != null; child = c.nextChild()) {
            if (child.equals("entry")) {
                Frame at = c.current();
                String key = c.attribute("key");
                if (key == null) {
                    throw c.error(at, "missing required attribute key");
                }
                if (key.startsWith(IBM_KEY_PREFIX)) {
                    key = key.substring(IBM_KEY_PREFIX.length());
                }
                entries.put(key, new Entry(c.text(), at));
            } else {
                c.skip(); // <comment>, and anything else
            }
        }
        String agentName = string(entries, "agentName");
        if (agentName == null || agentName.isBlank()) {
            throw c.error(f, "missing required entry agentName");
        }
        int port = intEntry(c, entries, "queueManagerPort");
        Instant publishTime = timeEntry(c, entries, entries.containsKey("AgentStatusPublishTime")
                ? "AgentStatusPublishTime" : "PublishTimeUTC"); // the latter is what newer IBM agents write
        Instant startTime = timeEntry(c, entries, "AgentStartTime");
        int publishRateMin = intEntry(c, entries, "agentStatusPublishRateMin");
        int maxSource = intEntry(c, entries, "maxSourceTransfers");
        int maxDestination = intEntry(c, entries, "maxDestinationTransfers");
        int maxQueued = intEntry(c, entries, "maxQueuedTransfers");
        int queued = intEntry(c, entries, "QueuedTransfers");
        Map<String, String> sourceStates = states(c, entries, "SourceTransferStates");
        Map<String, String> destinationStates = states(c, entries, "DestinationTransferStates");
        return build(c, f, () -> new AgentStatus(agentName, string(entries, "agentDescription"),
                string(entries, "agentVersion"), string(entries, "agentType"), string(entries, "agentOsName"),
                string(entries, "agentTimeZone"), string(entries, "agentDeclaredHostName"),
                string(entries, "queueManager"), string(entries, "queueManagerHost"), port,
                string(entries, "queueManagerChannel"), string(entries, "AgentStatus"), publishTime, startTime,
                publishRateMin, maxSource, maxDestination, maxQueued, queued, sourceStates, destinationStates));
    }

    private static String string(Map<String, Entry> entries, String key) {
        Entry entry = entries.get(key);
        return entry == null ? null : entry.value();
    }

    private static int intEntry(PublicationCursor c, Map<String, Entry> entries, String key)
            throws MalformedPublicationException {
        Entry entry = entries.get(key);
        return entry == null ? -1 : intValue(c, entry.at(), "entry " + key, entry.value());
    }

    private static Instant timeEntry(PublicationCursor c, Map<String, Entry> entries, String key)
            throws MalformedPublicationException {
        Entry entry = entries.get(key);
        return entry == null ? null : instant(c, entry.at(), "entry " + key, entry.value());
    }

    /** {@code id=State} lines; IBM indents continuation lines, so each is stripped and blank ones skipped. */
    private static Map<String, String> states(PublicationCursor c, Map<String, Entry> entries, String key)
            throws MalformedPublicationException {
        Map<String, String> states = new LinkedHashMap<>();
        Entry entry = entries.get(key);
        if (entry == null) {
            return states;
        }
        for (String line : entry.value().split("[\r\n]+")) {
            String state = line.strip();
            if (state.isEmpty()) {
                continue;
            }
            int equals = state.indexOf('=');
            if (equals <= 0) {
                throw c.error(entry.at(), "entry " + key + ": line " + Checks.quote(state)
                        + " is not of the form transferId=State");
            }
            states.put(state.substring(0, equals).strip(), state.substring(equals + 1).strip());
        }
        return states;
    }

    // ---------------------------------------------------------------- values

    /** Refuses the current element if one of its name has been seen in {@code parent} already. */
    static void once(PublicationCursor c, Set<String> seen, Frame parent) throws MalformedPublicationException {
        Frame at = c.current();
        if (!seen.add(at.name())) {
            throw c.error(at, "element <" + at.name() + "> appears more than once in <" + parent.name() + ">");
        }
    }

    /** Reads the current element with {@code reader}, after refusing it if it is the second of its name. */
    static <T> T readOnce(PublicationCursor c, Set<String> seen, Frame parent,
            DocumentReader<PublicationCursor, T, MalformedPublicationException> reader) throws MalformedPublicationException {
        once(c, seen, parent);
        return reader.read(c);
    }

    static String requiredAttribute(PublicationCursor c, Frame f, String name)
            throws MalformedPublicationException {
        String value = c.attribute(name);
        if (value == null || value.isBlank()) {
            throw c.error(f, "missing required attribute " + name);
        }
        return value;
    }

    /** A whole number, or -1 when absent or blank. */
    static long longValue(PublicationCursor c, Frame f, String what, String value)
            throws MalformedPublicationException {
        if (value == null || value.isBlank()) {
            return -1;
        }
        try {
            return Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            throw c.error(f, what + "=" + Checks.quote(value) + " is not a whole number");
        }
    }

    static int intValue(PublicationCursor c, Frame f, String what, String value)
            throws MalformedPublicationException {
        long number = longValue(c, f, what, value);
        if (number < Integer.MIN_VALUE || number > Integer.MAX_VALUE) {
            throw c.error(f, what + "=" + Checks.quote(value) + " is out of range");
        }
        return (int) number;
    }

    /** A decimal number such as {@code 0.018}, or -1 when absent or blank. */
    private static double decimal(PublicationCursor c, Frame f, String what, String value)
            throws MalformedPublicationException {
        if (value == null || value.isBlank()) {
            return -1;
        }
        try {
            double number = new BigDecimal(value.strip()).doubleValue();
            if (Double.isFinite(number)) {
                return number;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw c.error(f, what + "=" + Checks.quote(value) + " is not a decimal number");
    }

    /**
     * An ISO-8601 time such as {@code 2011-01-26T13:03:26.484Z} (an offset instead of Z is fine),
     * or milliseconds since 1970, as some older agents wrote; {@code null} when absent or blank.
     */
    static Instant instant(PublicationCursor c, Frame f, String what, String value)
            throws MalformedPublicationException {
        if (value == null || value.isBlank()) {
            return null;
        }
        String text = value.strip();
        try {
            if (text.chars().allMatch(ch -> ch >= '0' && ch <= '9') && text.length() <= 18) {
                return Instant.ofEpochMilli(Long.parseLong(text));
            }
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw c.error(f, what + "=" + Checks.quote(value) + " is not an ISO-8601 time");
        }
    }

    /** Runs a record constructor or lookup, reporting its validation failure at the element being read. */
    static <T> T build(PublicationCursor c, Frame f, Supplier<T> constructor)
            throws MalformedPublicationException {
        try {
            return constructor.get();
        } catch (IllegalArgumentException | NullPointerException e) {
            throw c.error(f, String.valueOf(e.getMessage()));
        }
    }
}
