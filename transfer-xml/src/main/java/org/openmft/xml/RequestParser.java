package org.openmft.xml;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import org.openmft.xml.DocumentCursor.DocumentReader;
import org.openmft.xml.DocumentCursor.Frame;

/**
 * Reads command-queue documents ({@link CommandDocument}) and replies ({@link Reply}) from
 * untrusted input. Immutable and thread-safe: build one and share it.
 *
 * <p>Hardening: the JDK's own StAX parser is used (never one found on the class path), with DTDs,
 * external entities and entity replacement switched off, and any DOCTYPE is refused outright
 * ("DOCTYPE is not allowed") before anything in it could be resolved, which stops XXE and
 * entity-expansion ("billion laughs") documents. Limits, all configurable through
 * {@link #builder()}:
 * <ul>
 *   <li>document size, default {@value #DEFAULT_MAX_DOCUMENT_BYTES} bytes (4 MiB, the MAXMSGL of
 *       an agent's COMMAND queue), counted in UTF-8 for string input;</li>
 *   <li>element nesting depth, default {@value #DEFAULT_MAX_DEPTH};</li>
 *   <li>number of elements, default {@value #DEFAULT_MAX_ELEMENTS};</li>
 *   <li>length of any text or attribute value in characters, default {@value #DEFAULT_MAX_TEXT_LENGTH}.</li>
 * </ul>
 *
 * <p>Strictness: the document must match the schema exactly as far as we implement it. Unknown
 * elements and attributes, elements out of order, missing required parts and values out of range
 * raise {@link MalformedRequestException}; parts of IBM's schemas that we do not implement yet
 * (data-set items, transfer
 * definition files, queue monitors) raise {@link UnsupportedRequestException} rather than being ignored.
 * Attributes in the {@code xsi} and {@code xml} namespaces, comments and processing instructions
 * are allowed anywhere. Surrounding whitespace is stripped from names, ids and paths, not from
 * metadata values or supplements. Versions 1.00 to 6.00 are accepted.
 *
 * <p>Byte input is decoded as its XML declaration or byte-order mark says (UTF-8 by default).
 * Nothing but {@link MalformedRequestException} leaves the parse methods.
 */
public final class RequestParser {

    /** Default document size limit in bytes: 4 MiB, the COMMAND queue's MAXMSGL. */
    public static final int DEFAULT_MAX_DOCUMENT_BYTES = 4 * 1024 * 1024;
    /** Default limit on element nesting; real documents need 7. */
    public static final int DEFAULT_MAX_DEPTH = 32;
    /** Default limit on the number of elements in a document. */
    public static final int DEFAULT_MAX_ELEMENTS = 100_000;
    /** Default limit on one text or attribute value, in characters (64 KiB). */
    public static final int DEFAULT_MAX_TEXT_LENGTH = 64 * 1024;

    private static final Set<String> PING_NAMESPACES = Set.of(
            PingAgentRequest.NAMESPACE,
            // IBM's current documentation prints the schema with an https namespace; accept what users copy.
            PingAgentRequest.NAMESPACE.replace("http:", "https:"));

    private static final Map<String, String> UNSUPPORTED_ITEM_TYPES = Map.of(
            "queue", "queue", "dataset", "data set", "pds", "partitioned data set");

    private final int maxDocumentBytes;
    private final int maxDepth;
    private final int maxElements;
    private final int maxTextLength;

    /** A parser with the default limits. */
    public RequestParser() {
        this(builder());
    }

    private RequestParser(Builder builder) {
        this.maxDocumentBytes = builder.maxDocumentBytes;
        this.maxDepth = builder.maxDepth;
        this.maxElements = builder.maxElements;
        this.maxTextLength = builder.maxTextLength;
    }

    /**
     * Starts a parser with non-default limits.
     *
     * @return a builder holding the defaults
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Reads a command document from the bytes of a message.
     *
     * @param xml the document; its encoding comes from its declaration or byte-order mark
     * @return the request, cancel, ping or stop
     * @throws UnsupportedRequestException if it uses a part of IBM's schema not implemented yet
     * @throws MalformedRequestException for anything else that is not a valid document, including null
     */
    public CommandDocument parse(byte[] xml) throws MalformedRequestException {
        return read(xml, null, this::command);
    }

    /**
     * Reads a command document from text. Any encoding named in its declaration is ignored.
     *
     * @param xml the document
     * @return the request, cancel, ping or stop
     * @throws UnsupportedRequestException if it uses a part of IBM's schema not implemented yet
     * @throws MalformedRequestException for anything else that is not a valid document, including null
     */
    public CommandDocument parse(String xml) throws MalformedRequestException {
        return read(null, xml, this::command);
    }

    /**
     * Reads a monitor's retained listing (MonitorList.xsd), as {@code fteListMonitors} receives it.
     *
     * @param xml the publication's body
     * @return the listing
     * @throws MalformedRequestException if it is not a valid listing, including null
     */
    public MonitorListing parseMonitorList(String xml) throws MalformedRequestException {
        return read(null, xml, c -> {
            if (!c.root().equals("monitorList")) {
                throw c.error(c.current(), "unknown root element <" + c.root() + ">; expected <monitorList>");
            }
            return new MonitorParser(this).readList(c);
        });
    }

    /**
     * Reads a reply (Reply.xsd) from the bytes of a message.
     *
     * @param xml the document; its encoding comes from its declaration or byte-order mark
     * @return the reply
     * @throws MalformedRequestException if it is not a valid reply, including null
     */
    public Reply parseReply(byte[] xml) throws MalformedRequestException {
        return read(xml, null, this::reply);
    }

    /**
     * Reads a reply (Reply.xsd) from text.
     *
     * @param xml the document
     * @return the reply
     * @throws MalformedRequestException if it is not a valid reply, including null
     */
    public Reply parseReply(String xml) throws MalformedRequestException {
        return read(null, xml, this::reply);
    }

    /** @return the document size limit in bytes */
    public int maxDocumentBytes() {
        return maxDocumentBytes;
    }

    /** @return the element nesting limit */
    public int maxDepth() {
        return maxDepth;
    }

    /** @return the element count limit */
    public int maxElements() {
        return maxElements;
    }

    /** @return the text and attribute length limit in characters */
    public int maxTextLength() {
        return maxTextLength;
    }

    // ---------------------------------------------------------------- plumbing

    private <T> T read(byte[] bytes, String text, DocumentReader<XmlCursor, T, MalformedRequestException> body)
            throws MalformedRequestException {
        return DocumentCursor.read(bytes, text, maxDocumentBytes, MalformedRequestException::new,
                reader -> new XmlCursor(reader, maxDepth, maxElements, maxTextLength), body);
    }

    // ---------------------------------------------------------------- command documents

    private CommandDocument command(XmlCursor c) throws MalformedRequestException {
        String root = c.root();
        Frame f = c.current();
        String namespace = c.namespace();
        switch (root) {
            case "transferSpecifications":
                throw c.unsupported(f, "<transferSpecifications> (a transfer definition file) is not supported yet");
            case "monitor":
            case "deleteMonitor":
            case "startMonitor":
            case "stopMonitor":
            case "clearMonitorHistory":
                return new MonitorParser(this).read(c, root);
            case "pingAgent":
                if (!namespace.isEmpty() && !PING_NAMESPACES.contains(namespace)) {
                    throw c.error(f, "element <pingAgent> is in namespace " + Checks.quote(namespace)
                            + "; expected " + Checks.quote(PingAgentRequest.NAMESPACE) + " or no namespace");
                }
                c.allowNamespaces(namespace.isEmpty() ? Set.of("") : Set.of("", namespace));
                return pingAgent(c);
            case "request":
            case "cancel":
            case "stopAgent":
                if (!namespace.isEmpty()) {
                    throw c.error(f, "element <" + root + "> is in namespace " + Checks.quote(namespace)
                            + "; expected no namespace");
                }
                return root.equals("request") ? request(c) : root.equals("cancel") ? cancel(c) : stopAgent(c);
            case "reply":
                throw c.error(f, "a <reply> is not a command; expected <request>, <cancel>, <pingAgent> or <stopAgent>");
            default:
                throw c.error(f, "unknown root element <" + root
                        + ">; expected <request>, <cancel>, <pingAgent>, <stopAgent> or a monitor document");
        }
    }

    private CommandDocument request(XmlCursor c) throws MalformedRequestException {
        String version = version(c, c.attributes(Set.of("version")));
        Children children = new Children(c, List.of("managedTransfer", "deleteScheduledTransfer", "managedCall"));
        CommandDocument request = children.optional("deleteScheduledTransfer",
                x -> new ScheduleTriggerParser(this).deleteScheduledTransfer(x, version));
        if (request == null) {
            request = children.optional("managedCall", x -> new ManagedCallParser(this).managedCall(x, version));
        }
        if (request == null) {
            request = children.required("managedTransfer", x -> managedTransfer(x, version));
        }
        children.end();
        return request;
    }

    private TransferRequest managedTransfer(XmlCursor c, String version) throws MalformedRequestException {
        Frame f = c.current();
        c.attributes(Set.of());
        Children children = new Children(c, List.of("originator", "schedule", "sourceAgent", "destinationAgent",
                "trigger", "reply", "transferSet", "job"));
        ScheduleTriggerParser timing = new ScheduleTriggerParser(this);
        Originator originator = children.required("originator", this::originator);
        TransferSchedule schedule = children.optional("schedule", timing::schedule);
        AgentRef source = children.required("sourceAgent", this::agentRef);
        AgentRef destination = children.required("destinationAgent", this::agentRef);
        TransferTrigger trigger = children.optional("trigger", timing::trigger);
        ReplyTo reply = children.optional("reply", this::replyTo);
        TransferSet transferSet = children.required("transferSet", this::transferSet);
        String jobName = children.optional("job", this::job);
        children.end();
        return build(c, f, () -> new TransferRequest(version, originator, source, destination, reply, transferSet, jobName,
                schedule, trigger));
    }

    Originator originator(XmlCursor c) throws MalformedRequestException {
        Frame f = c.current();
        c.attributes(Set.of());
        Children children = new Children(c, List.of("hostName", "userID", "mqmdUserID", "webBrowser", "webUserID"));
        String hostName = children.required("hostName", RequestParser::plainText);
        String userId = children.required("userID", RequestParser::plainText);
        String mqmdUserId = children.optional("mqmdUserID", RequestParser::optionalText);
        // Left by IBM's retired Web Gateway; they say who clicked, and change nothing about the request.
        children.optional("webBrowser", RequestParser::optionalText);
        children.optional("webUserID", RequestParser::optionalText);
        children.end();
        return build(c, f, () -> new Originator(hostName, userId, mqmdUserId));
    }

    AgentRef agentRef(XmlCursor c) throws MalformedRequestException {
        Frame f = c.current();
        Map<String, String> attributes = c.attributes(Set.of("agent", "QMgr"));
        String agent = requiredAttribute(c, f, attributes, "agent").strip();
        String qmgr = attributes.getOrDefault("QMgr", "").strip();
        c.empty();
        return build(c, f, () -> new AgentRef(agent, qmgr));
    }

    ReplyTo replyTo(XmlCursor c) throws MalformedRequestException {
        Frame f = c.current();
        Map<String, String> attributes = c.attributes(Set.of("QMGR", "detailed"));
        boolean detailed = booleanAttribute(c, f, attributes, "detailed", false);
        String qmgr = attributes.getOrDefault("QMGR", "").strip();
        String queue = requiredText(c);
        return build(c, f, () -> new ReplyTo(queue, qmgr, detailed));
    }

    private TransferSet transferSet(XmlCursor c) throws MalformedRequestException {
        Frame f = c.current();
        Map<String, String> attributes = c.attributes(Set.of("priority", "recoveryTimeout"));
        int priority = 0;
        if (attributes.containsKey("priority")) {
            long value = longAttribute(c, f, attributes, "priority");
            if (value < 0 || value > TransferSet.MAX_PRIORITY) {
                throw c.error(f, "attribute priority=" + Checks.quote(attributes.get("priority"))
                        + " is out of range 0-" + TransferSet.MAX_PRIORITY);
            }
            priority = (int) value;
        }
        Long recoveryTimeout = null;
        if (attributes.containsKey("recoveryTimeout")) {
            recoveryTimeout = longAttribute(c, f, attributes, "recoveryTimeout");
            if (recoveryTimeout < -1) {
                throw c.error(f, "attribute recoveryTimeout=" + Checks.quote(attributes.get("recoveryTimeout"))
                        + " is out of range; expected -1 (wait for ever), 0 (no recovery) or a positive number of seconds");
            }
        }
        Children children = new Children(c, List.of("metaDataSet", "preSourceCall", "postSourceCall",
                "preDestinationCall", "postDestinationCall", "item"));
        Map<String, String> metadata = children.optional("metaDataSet", this::metaDataSet);
        ProgramCalls calls = new ProgramCalls(children.optional("preSourceCall", CallParser::call),
                children.optional("postSourceCall", CallParser::call),
                children.optional("preDestinationCall", CallParser::call),
                children.optional("postDestinationCall", CallParser::call));
        List<TransferItem> items = children.repeated("item", 1, this::item);
        children.end();
        int finalPriority = priority;
        Long finalRecoveryTimeout = recoveryTimeout;
        return build(c, f, () -> new TransferSet(finalPriority, finalRecoveryTimeout,
                metadata == null ? Map.of() : metadata, calls, items));
    }

    Map<String, String> metaDataSet(XmlCursor c) throws MalformedRequestException {
        c.attributes(Set.of());
        Map<String, String> metadata = new LinkedHashMap<>();
        Children children = new Children(c, List.of("metaData"));
        children.repeated("metaData", 0, x -> {
            Frame f = x.current();
            String key = requiredAttribute(x, f, x.attributes(Set.of("key")), "key").strip();
            String value = x.text();
            if (metadata.containsKey(key)) {
                throw x.error(f, "metadata key " + Checks.quote(key) + " appears twice");
            }
            // Validated here rather than in TransferSet so that the error points at this element.
            build(x, f, () -> Checks.name(key, "metadata key"));
            metadata.put(key, value);
            return key;
        });
        children.end();
        return metadata;
    }

    TransferItem item(XmlCursor c) throws MalformedRequestException {
        Frame f = c.current();
        Map<String, String> attributes = c.attributes(Set.of("mode", "checksumMethod"));
        Mode mode = enumAttribute(c, f, attributes, "mode", Mode::fromXml, Mode.BINARY);
        ChecksumMethod checksum = enumAttribute(c, f, attributes, "checksumMethod", ChecksumMethod::fromXml,
                ChecksumMethod.MD5);
        Children children = new Children(c, List.of("source", "destination"));
        ItemSource source = children.required("source", this::source);
        ItemDestination destination = children.required("destination", this::destination);
        children.end();
        return build(c, f, () -> new TransferItem(mode, checksum, source, destination));
    }

    private ItemSource source(XmlCursor c) throws MalformedRequestException {
        Frame f = c.current();
        Map<String, String> attributes = c.attributes(Set.of("type", "recursive", "disposition"));
        String type = attributes.getOrDefault("type", "file").strip();
        boolean queue = "queue".equalsIgnoreCase(type);
        if (UNSUPPORTED_ITEM_TYPES.containsKey(type.toLowerCase(Locale.ROOT)) && !queue) {
            throw c.unsupported(f, "source type=" + Checks.quote(type) + " ("
                    + UNSUPPORTED_ITEM_TYPES.get(type.toLowerCase(Locale.ROOT)) + ") is not supported yet");
        }
        if (!type.equalsIgnoreCase("file") && !queue) {
            throw c.error(f, "attribute type=" + Checks.quote(type) + " is not valid; expected file or queue");
        }
        boolean recursive = booleanAttribute(c, f, attributes, "recursive", false);
        Disposition disposition = enumAttribute(c, f, attributes, "disposition", Disposition::fromXml, Disposition.LEAVE);
        Children children = new Children(c, List.of("file", "queue"));
        // A <queue> is a queue source (message to file); IBM writes type="queue" beside it.
        ItemSource fromQueue = children.optional("queue", x -> QueueElements.source(x, disposition));
        if (fromQueue != null) {
            children.end();
            if (!queue && attributes.containsKey("type")) {
                throw c.error(f, "attribute type=" + Checks.quote(type) + " does not go with a <queue>");
            }
            if (recursive) {
                throw c.error(f, "a queue source cannot be recursive");
            }
            return fromQueue;
        }
        if (queue) {
            throw c.error(f, "a <source type=\"queue\"> needs a <queue>");
        }
        FileElement file = children.required("file", x -> fileElement(x, Set.of("encoding")));
        children.end();
        return build(c, f, () -> new ItemSource(recursive, disposition, file.path(), file.encoding()));
    }

    private ItemDestination destination(XmlCursor c) throws MalformedRequestException {
        Frame f = c.current();
        Map<String, String> attributes = c.attributes(Set.of("type", "exist"));
        String type = attributes.getOrDefault("type", "file").strip();
        if (UNSUPPORTED_ITEM_TYPES.containsKey(type.toLowerCase(Locale.ROOT)) && !"queue".equalsIgnoreCase(type)) {
            throw c.unsupported(f, "destination type=" + Checks.quote(type) + " ("
                    + UNSUPPORTED_ITEM_TYPES.get(type.toLowerCase(Locale.ROOT)) + ") is not supported yet");
        }
        ExistAction exist = enumAttribute(c, f, attributes, "exist", ExistAction::fromXml, ExistAction.ERROR);
        Children children = new Children(c, List.of("file", "queue"));
        // IBM writes no type, or type="queue", beside a <queue>.
        ItemDestination queue = children.optional("queue", QueueElements::destination);
        if (queue != null) {
            children.end();
            if (!"queue".equalsIgnoreCase(type) && attributes.containsKey("type")) {
                throw c.error(f, "attribute type=" + Checks.quote(type) + " does not go with a <queue>");
            }
            return queue;
        }
        DestinationType destinationType = enumAttribute(c, f, attributes, "type", DestinationType::fromXml,
                DestinationType.FILE);
        FileElement file = children.required("file", x -> fileElement(x, Set.of("encoding", "EOL")));
        children.end();
        return build(c, f, () -> new ItemDestination(destinationType, exist, file.path(), file.encoding(), file.eol()));
    }

    /** A {@code <file encoding=".." EOL="..">path</file>}; encoding empty when not given. */
    private record FileElement(String path, String encoding, LineEnding eol) {}

    private FileElement fileElement(XmlCursor c, Set<String> allowed) throws MalformedRequestException {
        Frame f = c.current();
        Map<String, String> attributes = c.attributes(allowed);
        LineEnding eol = enumAttribute(c, f, attributes, "EOL", LineEnding::fromXml, null);
        String encoding = attributes.getOrDefault("encoding", "").strip();
        String path = requiredText(c);
        if (path.length() > Checks.MAX_PATH_LENGTH) {
            throw c.error(f, "path is " + path.length() + " characters long; the limit is " + Checks.MAX_PATH_LENGTH);
        }
        build(c, f, () -> Checks.path(path, "path"));
        return new FileElement(path, encoding, eol);
    }

    String job(XmlCursor c) throws MalformedRequestException {
        c.attributes(Set.of());
        Children children = new Children(c, List.of("name"));
        String name = children.required("name", RequestParser::plainText);
        children.end();
        return name;
    }

    private CancelRequest cancel(XmlCursor c) throws MalformedRequestException {
        Frame f = c.current();
        String version = version(c, c.attributes(Set.of("version")));
        Children children = new Children(c, List.of("originator", "transfer", "call", "reply"), Map.of(
                "call", "cancelling a managed call (<call>) is not supported yet"));
        Originator originator = children.required("originator", this::originator);
        String id = children.required("transfer", x -> {
            x.attributes(Set.of());
            Children transfer = new Children(x, List.of("ID"));
            String value = transfer.required("ID", y -> {
                Frame at = y.current();
                String text = plainText(y);
                build(y, at, () -> Checks.transferId(text));
                return text;
            });
            transfer.end();
            return value;
        });
        ReplyTo reply = children.optional("reply", this::replyTo);
        children.end();
        return build(c, f, () -> new CancelRequest(version, originator, id, reply));
    }

    private PingAgentRequest pingAgent(XmlCursor c) throws MalformedRequestException {
        Frame f = c.current();
        String version = version(c, c.attributes(Set.of("version")));
        Children children = new Children(c, List.of("originator", "agent", "reply"));
        Originator originator = children.required("originator", this::originator);
        AgentName agent = children.required("agent", x -> agentElement(x, Set.of("agent", "QMgr")));
        ReplyTo reply = children.optional("reply", this::replyTo);
        children.end();
        return build(c, f, () -> new PingAgentRequest(version, originator, agent.agent(), agent.qmgr(), reply));
    }

    private StopAgentRequest stopAgent(XmlCursor c) throws MalformedRequestException {
        Frame f = c.current();
        Map<String, String> attributes = c.attributes(Set.of("version", "immediate"));
        String version = version(c, attributes);
        boolean immediate = booleanAttribute(c, f, attributes, "immediate", false);
        Children children = new Children(c, List.of("originator", "agent", "reply"));
        Originator originator = children.required("originator", this::originator);
        AgentName agent = children.required("agent", x -> agentElement(x, Set.of("agent")));
        ReplyTo reply = children.optional("reply", this::replyTo);
        children.end();
        return build(c, f, () -> new StopAgentRequest(version, originator, agent.agent(), immediate, reply));
    }

    /** An agent element's name and queue manager (empty when not given). */
    record AgentName(String agent, String qmgr) {}

    /** {@code <agent agent="NAME" QMgr="QM"/>} as in IBM's schema, or {@code <agent>NAME</agent>}. */
    AgentName agentElement(XmlCursor c, Set<String> allowed) throws MalformedRequestException {
        Frame f = c.current();
        Map<String, String> attributes = c.attributes(allowed);
        String byAttribute = attributes.getOrDefault("agent", "").strip();
        String byText = c.text().strip();
        if (byAttribute.isEmpty() && byText.isEmpty()) {
            throw c.error(f, "missing required attribute agent");
        }
        if (!byAttribute.isEmpty() && !byText.isEmpty() && !byAttribute.equals(byText)) {
            throw c.error(f, "attribute agent=" + Checks.quote(byAttribute) + " contradicts the element's text "
                    + Checks.quote(byText));
        }
        return new AgentName(byAttribute.isEmpty() ? byText : byAttribute, attributes.getOrDefault("QMgr", "").strip());
    }

    // ---------------------------------------------------------------- replies

    private Reply reply(XmlCursor c) throws MalformedRequestException {
        String root = c.root();
        Frame f = c.current();
        if (!root.equals("reply") || !c.namespace().isEmpty()) {
            throw c.error(f, "unknown root element <" + root + ">; expected <reply> in no namespace");
        }
        // detailedReplyMessagesDisabled only tells the requester why there are no items.
        Map<String, String> attributes = c.attributes(Set.of("version", "ID", "detailedReplyMessagesDisabled"));
        String version = version(c, attributes);
        String id = requiredAttribute(c, f, attributes, "ID").strip();
        Children children = new Children(c, List.of("transferSet", "status"));
        List<ItemResult> items = children.optional("transferSet", this::replyTransferSet);
        Status status = children.required("status", this::status);
        children.end();
        return build(c, f, () -> new Reply(version, id, status.resultCode(), status.supplements(),
                items == null ? List.of() : items));
    }

    /** IBM puts many statistics attributes on these elements; they are read past, not interpreted. */
    private List<ItemResult> replyTransferSet(XmlCursor c) throws MalformedRequestException {
        c.anyAttributes();
        Children children = new Children(c, List.of("item"));
        List<ItemResult> items = children.repeated("item", 0, x -> {
            Frame f = x.current();
            x.anyAttributes();
            Children parts = new Children(x, List.of("source", "destination", "status"));
            String source = parts.required("source", this::replyFile);
            String destination = parts.optional("destination", this::replyFile);
            Status status = parts.required("status", this::status);
            parts.end();
            List<String> supplements = status.supplements();
            if (supplements.size() > 1) {
                throw x.error(f, "an item's <status> may hold one <supplement>, not " + supplements.size());
            }
            return build(x, f, () -> new ItemResult(source, destination, status.resultCode(),
                    supplements.isEmpty() ? null : supplements.get(0)));
        });
        children.end();
        return items;
    }

    private String replyFile(XmlCursor c) throws MalformedRequestException {
        c.anyAttributes();
        Children children = new Children(c, List.of("file"));
        String path = children.required("file", x -> {
            x.anyAttributes();
            return requiredText(x);
        });
        children.end();
        return path;
    }

    /** {@code <status resultCode="N"><supplement>..</supplement>*</status>}. */
    private record Status(int resultCode, List<String> supplements) {}

    private Status status(XmlCursor c) throws MalformedRequestException {
        Frame f = c.current();
        Map<String, String> attributes = c.attributes(Set.of("resultCode"));
        requiredAttribute(c, f, attributes, "resultCode");
        long code = longAttribute(c, f, attributes, "resultCode");
        if (code < 0 || code > Integer.MAX_VALUE) {
            throw c.error(f, "attribute resultCode=" + Checks.quote(attributes.get("resultCode")) + " is out of range");
        }
        Children children = new Children(c, List.of("supplement"));
        List<String> supplements = children.repeated("supplement", 0, x -> {
            x.attributes(Set.of());
            return x.text();
        });
        children.end();
        return new Status((int) code, supplements);
    }

    // ---------------------------------------------------------------- values

    static String version(XmlCursor c, Map<String, String> attributes) throws MalformedRequestException {
        Frame f = c.current();
        String version = requiredAttribute(c, f, attributes, "version").strip();
        if (!Checks.isSupportedVersion(version)) {
            throw c.error(f, "attribute version=" + Checks.quote(version) + " is not supported; expected 1.00 to 6.00");
        }
        return version;
    }

    /** Required text of an element that takes no attributes. */
    static String plainText(XmlCursor c) throws MalformedRequestException {
        c.attributes(Set.of());
        return requiredText(c);
    }

    /** Required text, stripped; the caller has dealt with the attributes. */
    static String requiredText(XmlCursor c) throws MalformedRequestException {
        Frame f = c.current();
        String text = c.text().strip();
        if (text.isEmpty()) {
            throw c.error(f, "<" + f.name() + "> must not be empty");
        }
        return text;
    }

    static String optionalText(XmlCursor c) throws MalformedRequestException {
        c.attributes(Set.of());
        return c.text().strip();
    }

    static String requiredAttribute(XmlCursor c, Frame f, Map<String, String> attributes, String name)
            throws MalformedRequestException {
        String value = attributes.get(name);
        if (value == null || value.isBlank()) {
            throw c.error(f, "missing required attribute " + name);
        }
        return value;
    }

    static long longAttribute(XmlCursor c, Frame f, Map<String, String> attributes, String name)
            throws MalformedRequestException {
        String value = attributes.get(name);
        try {
            return Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            throw c.error(f, "attribute " + name + "=" + Checks.quote(value) + " is not a whole number");
        }
    }

    static boolean booleanAttribute(XmlCursor c, Frame f, Map<String, String> attributes, String name,
            boolean defaultValue) throws MalformedRequestException {
        String value = attributes.get(name);
        if (value == null) {
            return defaultValue;
        }
        Boolean b = Checks.xsdBoolean(value);
        if (b == null) {
            throw c.error(f, "attribute " + name + "=" + Checks.quote(value) + " is not valid; expected true or false");
        }
        return b;
    }

    private static <E> E enumAttribute(XmlCursor c, Frame f, Map<String, String> attributes, String name,
            Function<String, E> fromXml, E defaultValue) throws MalformedRequestException {
        String value = attributes.get(name);
        return value == null ? defaultValue : parseEnum(c, f, name, value.strip(), fromXml);
    }

    private static <E> E parseEnum(XmlCursor c, Frame f, String name, String value, Function<String, E> fromXml)
            throws MalformedRequestException {
        try {
            return fromXml.apply(value);
        } catch (IllegalArgumentException e) {
            throw c.error(f, "attribute " + name + "=" + e.getMessage());
        }
    }

    /** Runs a record constructor, reporting its validation failure at the element being read. */
    static <T> T build(XmlCursor c, Frame f, Supplier<T> constructor) throws MalformedRequestException {
        try {
            return constructor.get();
        } catch (IllegalArgumentException e) {
            throw c.error(f, e.getMessage());
        }
    }

    /**
     * Limits for a {@link RequestParser}. Not thread-safe; the parser it builds is.
     */
    public static final class Builder {
        private int maxDocumentBytes = DEFAULT_MAX_DOCUMENT_BYTES;
        private int maxDepth = DEFAULT_MAX_DEPTH;
        private int maxElements = DEFAULT_MAX_ELEMENTS;
        private int maxTextLength = DEFAULT_MAX_TEXT_LENGTH;

        private Builder() {}

        /**
         * @param bytes largest document accepted, in bytes (UTF-8 for string input); default 4 MiB
         * @return this builder
         */
        public Builder maxDocumentBytes(int bytes) {
            this.maxDocumentBytes = positive(bytes, "maxDocumentBytes");
            return this;
        }

        /**
         * @param depth deepest element nesting accepted, the root being 1; default 32
         * @return this builder
         */
        public Builder maxDepth(int depth) {
            this.maxDepth = positive(depth, "maxDepth");
            return this;
        }

        /**
         * @param elements most elements accepted in one document; default 100 000
         * @return this builder
         */
        public Builder maxElements(int elements) {
            this.maxElements = positive(elements, "maxElements");
            return this;
        }

        /**
         * @param characters longest text or attribute value accepted; default 64 Ki characters
         * @return this builder
         */
        public Builder maxTextLength(int characters) {
            this.maxTextLength = positive(characters, "maxTextLength");
            return this;
        }

        /** @return a parser with these limits */
        public RequestParser build() {
            return new RequestParser(this);
        }

        private static int positive(int value, String name) {
            if (value <= 0) {
                throw new IllegalArgumentException(name + " must be positive, not " + value);
            }
            return value;
        }
    }
}
