package org.openmft.xml;

import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;
import org.openmft.xml.DocumentCursor.Frame;
import org.openmft.xml.MonitorCondition.FilePattern;

/**
 * Reads Monitor.xsd documents for {@link RequestParser}: {@code <monitor:monitor>},
 * {@code <monitor:deleteMonitor>} and OpenMFT's {@code <monitor:startMonitor>} /
 * {@code <monitor:stopMonitor>}. The root is in {@value MonitorDefinition#NAMESPACE} (or its
 * https spelling, which IBM's newer pages print), the children in no namespace. The task's
 * {@code <request>} is copied as XML text, not interpreted here: it may hold variables where the
 * transfer schema allows none; the agent checks it when the monitor is created. Same hardening and
 * limits as every other document: the cursor enforces them on the copy as well.
 */
final class MonitorParser {

    private static final Set<String> NAMESPACES = Set.of(MonitorDefinition.NAMESPACE,
            MonitorDefinition.NAMESPACE.replace("http:", "https:"));

    private final RequestParser parser;

    MonitorParser(RequestParser parser) {
        this.parser = parser;
    }

    CommandDocument read(XmlCursor c, String root) throws MalformedRequestException {
        Frame f = c.current();
        if (!NAMESPACES.contains(c.namespace())) {
            throw c.error(f, "element <" + root + "> is in namespace " + Checks.quote(c.namespace()) + "; expected "
                    + Checks.quote(MonitorDefinition.NAMESPACE));
        }
        c.allowNamespaces(Set.of(""));
        return root.equals("monitor") ? monitor(c) : byName(c, root);
    }

    private MonitorDefinition monitor(XmlCursor c) throws MalformedRequestException {
        Frame f = c.current();
        // "overwrite" (-f) is written by public generators though IBM's schema does not list it;
        // "clearHistory" (-c) is OpenMFT's, as IBM does not publish how -c travels.
        Map<String, String> attributes = c.attributes(Set.of("version", "overwrite", "clearHistory"));
        String version = RequestParser.version(c, attributes);
        boolean overwrite = RequestParser.booleanAttribute(c, f, attributes, "overwrite", false);
        boolean clearHistory = RequestParser.booleanAttribute(c, f, attributes, "clearHistory", false);
        Children children = new Children(c, List.of("name", "description", "pollInterval", "batch", "agent",
                "resources", "triggerMatch", "reply", "tasks", "originator", "job", "defaultVariables"));
        String name = children.required("name", RequestParser::plainText);
        String description = children.optional("description", RequestParser::optionalText);
        MonitorDefinition.PollInterval interval = children.required("pollInterval", this::pollInterval);
        Integer batch = children.optional("batch", this::batch);
        String agent = children.required("agent", x -> parser.agentElement(x, Set.of("agent", "QMgr")).agent());
        Directory directory = children.required("resources", this::resources);
        Trigger trigger = children.required("triggerMatch", this::triggerMatch);
        ReplyTo reply = children.optional("reply", parser::replyTo);
        MonitorDefinition.MonitorTask task = children.required("tasks", this::tasks);
        Originator originator = children.required("originator", parser::originator);
        String job = children.optional("job", this::job);
        Map<String, String> defaults = children.optional("defaultVariables", this::defaultVariables);
        children.end();
        return RequestParser.build(c, f, () -> new MonitorDefinition(version, name, description, interval,
                batch == null ? 1 : batch, agent, directory.path(), directory.recursionLevel(), trigger.allOf(),
                trigger.conditions(), reply, task, originator, job, overwrite, clearHistory, directory.queue(),
                defaults, trigger.content()));
    }

    /**
     * {@code <monitorList version agent monitor>}: status, configuration, pollInterval, batch
     * (MonitorList.xsd), read into the definition the listing describes.
     */
    MonitorListing readList(XmlCursor c) throws MalformedRequestException {
        Frame f = c.current();
        if (!NAMESPACES.contains(c.namespace())) {
            throw c.error(f, "element <monitorList> is in namespace " + Checks.quote(c.namespace()) + "; expected "
                    + Checks.quote(MonitorDefinition.NAMESPACE));
        }
        c.allowNamespaces(Set.of(""));
        Map<String, String> attributes = c.attributes(Set.of("version", "agent", "monitor"));
        String version = RequestParser.version(c, attributes);
        String agent = RequestParser.requiredAttribute(c, f, attributes, "agent");
        String name = RequestParser.requiredAttribute(c, f, attributes, "monitor");
        Children children = new Children(c, List.of("status", "configuration", "pollInterval", "batch"));
        String state = children.required("status", x -> {
            Frame at = x.current();
            String value = RequestParser.requiredAttribute(x, at, x.attributes(Set.of("state")), "state").strip();
            x.empty();
            if (!value.equals(MonitorListing.STARTED) && !value.equals(MonitorListing.STOPPED)) {
                throw x.error(at, "attribute state=" + Checks.quote(value) + " is not valid; expected "
                        + MonitorListing.STARTED + " or " + MonitorListing.STOPPED);
            }
            return value;
        });
        Configuration configuration = children.required("configuration", this::configuration);
        MonitorDefinition.PollInterval interval = children.required("pollInterval", this::pollInterval);
        Integer batch = children.required("batch", this::batch);
        children.end();
        return RequestParser.build(c, f, () -> new MonitorListing(Checks.name(agent, "agent"),
                state.equals(MonitorListing.STARTED), new MonitorDefinition(version, name, configuration.description(),
                        interval, batch, agent, configuration.directory().path(),
                        configuration.directory().recursionLevel(), configuration.trigger().allOf(),
                        configuration.trigger().conditions(), null, configuration.task(), configuration.originator(),
                        configuration.job(), false, false, configuration.directory().queue(),
                        configuration.defaults(), configuration.trigger().content())));
    }

    private record Configuration(String description, Directory directory, Trigger trigger,
            MonitorDefinition.MonitorTask task, Originator originator, String job, Map<String, String> defaults) {}

    private Configuration configuration(XmlCursor c) throws MalformedRequestException {
        c.attributes(Set.of());
        Children children = new Children(c, List.of("description", "resources", "triggerMatch", "tasks",
                "originator", "job", "defaultVariables"));
        String description = children.optional("description", RequestParser::optionalText);
        Directory directory = children.required("resources", this::resources);
        Trigger trigger = children.required("triggerMatch", this::triggerMatch);
        MonitorDefinition.MonitorTask task = children.required("tasks", this::tasks);
        Originator originator = children.required("originator", parser::originator);
        String job = children.optional("job", this::job);
        Map<String, String> defaults = children.optional("defaultVariables", this::defaultVariables);
        children.end();
        return new Configuration(description, directory, trigger, task, originator, job, defaults);
    }

    private String job(XmlCursor x) throws MalformedRequestException {
        x.attributes(Set.of());
        Children parts = new Children(x, List.of("name"));
        String value = parts.required("name", RequestParser::plainText);
        parts.end();
        return value;
    }

    private MonitorDefinition.PollInterval pollInterval(XmlCursor c) throws MalformedRequestException {
        Frame f = c.current();
        Map<String, String> attributes = c.attributes(Set.of("units"));
        MonitorDefinition.TimeUnit unit = MonitorDefinition.TimeUnit.MINUTES;
        if (attributes.containsKey("units")) {
            unit = RequestParser.build(c, f, () -> MonitorDefinition.TimeUnit.fromXml(attributes.get("units")));
        }
        String text = RequestParser.requiredText(c);
        long value = number(c, f, text, "<pollInterval>");
        MonitorDefinition.TimeUnit finalUnit = unit;
        return RequestParser.build(c, f, () -> new MonitorDefinition.PollInterval(value, finalUnit));
    }

    private Integer batch(XmlCursor c) throws MalformedRequestException {
        Frame f = c.current();
        Map<String, String> attributes = c.attributes(Set.of("maxSize"));
        String value = RequestParser.requiredAttribute(c, f, attributes, "maxSize");
        long size = RequestParser.longAttribute(c, f, attributes, "maxSize");
        c.empty();
        if (size < 1 || size > MonitorDefinition.MAX_BATCH_SIZE) {
            throw c.error(f, "attribute maxSize=" + Checks.quote(value) + " is out of range 1-"
                    + MonitorDefinition.MAX_BATCH_SIZE);
        }
        return (int) size;
    }

    /** A monitor's resource: a directory (with its recursion level) or a queue. */
    private record Directory(String path, int recursionLevel, String queue) {}

    private Directory resources(XmlCursor c) throws MalformedRequestException {
        Frame f = c.current();
        c.attributes(Set.of());
        String kind = c.nextChild();
        if (kind == null) {
            throw c.error(f, "missing required element <directory> or <queue>");
        }
        Frame at = c.current();
        Directory resource;
        if (kind.equals("directory")) {
            Map<String, String> attributes = c.attributes(Set.of("recursionLevel"));
            long level = attributes.containsKey("recursionLevel")
                    ? RequestParser.longAttribute(c, at, attributes, "recursionLevel") : 0;
            if (level < 0 || level > MonitorDefinition.MAX_RECURSION_LEVEL) {
                throw c.error(at, "attribute recursionLevel=" + Checks.quote(attributes.get("recursionLevel"))
                        + " is out of range 0-" + MonitorDefinition.MAX_RECURSION_LEVEL);
            }
            String path = RequestParser.requiredText(c);
            RequestParser.build(c, at, () -> Checks.path(path, "directory"));
            resource = new Directory(path, (int) level, null);
        } else if (kind.equals("queue")) {
            c.attributes(Set.of());
            String queue = RequestParser.requiredText(c).strip();
            RequestParser.build(c, at, () -> Checks.name(queue, "queue"));
            resource = new Directory(null, 0, queue);
        } else {
            throw c.error(at, "unexpected element <" + kind + "> in <resources>; expected <directory> or <queue>");
        }
        Children rest = new Children(c, List.of());
        rest.end();
        return resource;
    }

    private Map<String, String> defaultVariables(XmlCursor c) throws MalformedRequestException {
        c.attributes(Set.of());
        Children children = new Children(c, List.of("variable"));
        Map<String, String> values = new java.util.LinkedHashMap<>();
        for (Map.Entry<String, String> e : children.repeated("variable", 1, x -> {
            Frame at = x.current();
            String key = RequestParser.requiredAttribute(x, at, x.attributes(Set.of("key")), "key");
            return Map.entry(key, x.text());
        })) {
            values.put(e.getKey(), e.getValue());
        }
        children.end();
        return values;
    }

    private record Trigger(boolean allOf, List<MonitorCondition> conditions, TriggerContent content) {}

    private Trigger triggerMatch(XmlCursor c) throws MalformedRequestException {
        c.attributes(Set.of());
        Children children = new Children(c, List.of("conditions", "triggerContent"));
        Trigger trigger = children.required("conditions", x -> {
            x.attributes(Set.of());
            String kind = x.nextChild();
            if (kind == null) {
                throw x.error(x.current(), "missing required element <allOf> or <anyOf>");
            }
            if (!kind.equals("allOf") && !kind.equals("anyOf")) {
                throw x.error(x.current(), "unexpected element <" + kind + "> in <conditions>; expected <allOf> or <anyOf>");
            }
            x.attributes(Set.of());
            Children group = new Children(x, List.of("condition"));
            List<MonitorCondition> conditions = group.repeated("condition", 1, this::condition);
            group.end();
            Children rest = new Children(x, List.of());
            rest.end();
            return new Trigger(kind.equals("allOf"), conditions, null);
        });
        TriggerContent content = children.optional("triggerContent", this::triggerContent);
        children.end();
        return new Trigger(trigger.allOf(), trigger.conditions(), content);
    }

    /** {@code <triggerContent>[<regex>…</regex>][<captureOrder>srcDest|destSrc</captureOrder>]} ({@code -tc}). */
    private TriggerContent triggerContent(XmlCursor c) throws MalformedRequestException {
        Frame f = c.current();
        c.attributes(Set.of());
        Children children = new Children(c, List.of("regex", "captureOrder"));
        String regex = children.optional("regex", RequestParser::plainText);
        String order = children.optional("captureOrder", RequestParser::plainText);
        children.end();
        return RequestParser.build(c, f, () -> new TriggerContent(regex,
                order != null && TriggerContent.destinationFirst(order)));
    }

    private MonitorCondition condition(XmlCursor c) throws MalformedRequestException {
        c.attributes(Set.of());
        String kind = c.nextChild();
        if (kind == null) {
            throw c.error(c.current(), "missing required element in <condition>; expected <fileMatch>, <fileNoMatch>, "
                    + "<fileSize>, <fileSizeSame>, <queueNotEmpty> or <completeGroups>");
        }
        Frame f = c.current();
        MonitorCondition condition;
        switch (kind) {
            case "fileMatch": {
                c.attributes(Set.of());
                Patterns p = patterns(c, f, false);
                condition = new MonitorCondition.FileMatch(p.pattern(), p.exclude());
                break;
            }
            case "fileNoMatch": {
                c.attributes(Set.of());
                Patterns p = patterns(c, f, false);
                condition = new MonitorCondition.FileNoMatch(p.pattern(), p.exclude());
                break;
            }
            case "fileSizeSame": {
                Map<String, String> attributes = c.attributes(Set.of("polls"));
                RequestParser.requiredAttribute(c, f, attributes, "polls");
                long polls = RequestParser.longAttribute(c, f, attributes, "polls");
                if (polls < 1 || polls > MonitorCondition.FileSizeSame.MAX_POLLS) {
                    throw c.error(f, "attribute polls=" + Checks.quote(attributes.get("polls")) + " is out of range 1-"
                            + MonitorCondition.FileSizeSame.MAX_POLLS);
                }
                Patterns p = patterns(c, f, false);
                condition = RequestParser.build(c, f, () -> new MonitorCondition.FileSizeSame((int) polls, p.pattern(),
                        p.exclude()));
                break;
            }
            case "fileSize": {
                c.attributes(Set.of());
                Patterns p = patterns(c, f, true);
                condition = RequestParser.build(c, f, () -> new MonitorCondition.FileSize(p.size().amount(),
                        p.size().units(), p.pattern(), p.exclude()));
                break;
            }
            case "queueNotEmpty":
            case "completeGroups":
                c.attributes(Set.of());
                c.empty();
                condition = kind.equals("queueNotEmpty") ? new MonitorCondition.QueueNotEmpty()
                        : new MonitorCondition.CompleteGroups();
                break;
            default:
                throw c.error(f, "unexpected element <" + kind + "> in <condition>; expected <fileMatch>, "
                        + "<fileNoMatch>, <fileSize> or <fileSizeSame>");
        }
        Children rest = new Children(c, List.of());
        rest.end();
        return condition;
    }

    private record Size(long amount, MonitorCondition.SizeUnit units) {}

    private record Patterns(Size size, FilePattern pattern, FilePattern exclude) {}

    /** The children of a file condition: [compare] pattern [exclude]; consumes the end tag. */
    private Patterns patterns(XmlCursor c, Frame f, boolean withCompare) throws MalformedRequestException {
        Children children = new Children(c, withCompare ? List.of("compare", "pattern", "exclude")
                : List.of("pattern", "exclude"));
        Size size = withCompare ? children.required("compare", this::compare) : null;
        FilePattern pattern = children.required("pattern", this::pattern);
        FilePattern exclude = children.optional("exclude", this::pattern);
        children.end();
        return new Patterns(size, pattern, exclude);
    }

    private Size compare(XmlCursor c) throws MalformedRequestException {
        Frame f = c.current();
        Map<String, String> attributes = c.attributes(Set.of("operator", "units"));
        String operator = RequestParser.requiredAttribute(c, f, attributes, "operator").strip();
        if (!operator.equals(">=")) {
            throw c.error(f, "attribute operator=" + Checks.quote(operator) + " is not valid; expected >=");
        }
        MonitorCondition.SizeUnit units = attributes.containsKey("units")
                ? RequestParser.build(c, f, () -> MonitorCondition.SizeUnit.fromXml(attributes.get("units")))
                : MonitorCondition.SizeUnit.B;
        long amount = number(c, f, RequestParser.requiredText(c), "<compare>");
        return new Size(amount, units);
    }

    private FilePattern pattern(XmlCursor c) throws MalformedRequestException {
        Frame f = c.current();
        Map<String, String> attributes = c.attributes(Set.of("type"));
        String type = attributes.getOrDefault("type", "wildcard").strip();
        if (!type.equals("wildcard") && !type.equals("regex")) {
            throw c.error(f, "attribute type=" + Checks.quote(type) + " is not valid; expected wildcard or regex");
        }
        String text = RequestParser.requiredText(c);
        return RequestParser.build(c, f, () -> new FilePattern(text, type.equals("regex")));
    }

    private MonitorDefinition.MonitorTask tasks(XmlCursor c) throws MalformedRequestException {
        c.attributes(Set.of());
        Children children = new Children(c, List.of("task"));
        List<MonitorDefinition.MonitorTask> tasks = children.repeated("task", 1, this::task);
        children.end();
        if (tasks.size() > 1) {
            // IBM's result 103: wrong number of task definitions.
            throw c.error(c.current(), "a monitor has one <task>, not " + tasks.size());
        }
        return tasks.get(0);
    }

    private MonitorDefinition.MonitorTask task(XmlCursor c) throws MalformedRequestException {
        Frame f = c.current();
        c.attributes(Set.of());
        Children children = new Children(c, List.of("name", "description", "transfer", "managedCall"), Map.of(
                "managedCall", "a <managedCall> element as the task is not read: put the"
                + " <request><managedCall> inside <transfer>, as fteCreateMonitor -mt writes it"));
        String name = children.required("name", RequestParser::optionalText);
        String description = children.optional("description", RequestParser::optionalText);
        String request = children.required("transfer", x -> {
            x.attributes(Set.of());
            String child = x.nextChild();
            if (!"request".equals(child)) {
                throw x.error(x.current(), child == null ? "missing required element <request>"
                        : "unexpected element <" + child + "> in <transfer>; expected <request>");
            }
            String xml = copy(x);
            Children rest = new Children(x, List.of());
            rest.end();
            return xml;
        });
        children.end();
        return RequestParser.build(c, f, () -> new MonitorDefinition.MonitorTask(name, description, request));
    }

    /** The element at the cursor as a standalone fragment, namespaces declared where used. */
    private static String copy(XmlCursor c) throws MalformedRequestException {
        StringWriter out = new StringWriter();
        try {
            XMLOutputFactory factory = XMLOutputFactory.newDefaultFactory();
            factory.setProperty(XMLOutputFactory.IS_REPAIRING_NAMESPACES, true);
            XMLStreamWriter w = factory.createXMLStreamWriter(out);
            c.copy(w);
            w.close();
        } catch (XMLStreamException e) {
            throw c.error(c.current(), "cannot copy the task's <request>: " + e.getMessage());
        }
        return out.toString();
    }

    private CommandDocument byName(XmlCursor c, String root) throws MalformedRequestException {
        Frame f = c.current();
        String version = RequestParser.version(c, c.attributes(Set.of("version")));
        Children children = new Children(c, List.of("name", "originator", "reply"));
        String name = children.required("name", RequestParser::plainText);
        Originator originator = children.required("originator", parser::originator);
        ReplyTo reply = children.optional("reply", parser::replyTo);
        children.end();
        return RequestParser.build(c, f, () -> switch (root) {
            case "deleteMonitor" -> new DeleteMonitorRequest(version, name, originator, reply);
            case "clearMonitorHistory" -> new ClearMonitorHistoryRequest(version, name, originator, reply);
            case "startMonitor" -> new MonitorControlRequest(version, true, name, originator, reply);
            default -> new MonitorControlRequest(version, false, name, originator, reply);
        });
    }

    private static long number(XmlCursor c, Frame f, String text, String what) throws MalformedRequestException {
        try {
            return Long.parseLong(text.strip());
        } catch (NumberFormatException e) {
            throw c.error(f, what + " " + Checks.quote(text) + " is not a whole number");
        }
    }
}
