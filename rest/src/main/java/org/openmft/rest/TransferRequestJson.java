package org.openmft.rest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.openmft.agent.config.QueueNames;
import org.openmft.client.Schedule;
import org.openmft.xml.AgentRef;
import org.openmft.xml.ChecksumMethod;
import org.openmft.xml.DestinationType;
import org.openmft.xml.Disposition;
import org.openmft.xml.DocumentWriter;
import org.openmft.xml.ExistAction;
import org.openmft.xml.ItemDestination;
import org.openmft.xml.ItemSource;
import org.openmft.xml.Mode;
import org.openmft.xml.Originator;
import org.openmft.xml.TransferItem;
import org.openmft.xml.TransferRequest;
import org.openmft.xml.TransferSet;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The body of IBM's {@code POST admin/mft/transfer}, read into a {@link TransferRequest}: objects
 * {@code sourceAgent} and {@code destinationAgent} ({@code name}, {@code qmgrName}), {@code job}
 * ({@code name}), {@code transferSet} ({@code priority}, {@code recoveryTimeout},
 * {@code userProperties}, {@code item}: each with {@code source} ({@code name}, {@code type}
 * {@code file|directory}, {@code recursive}, {@code disposition} {@code leave|delete}),
 * {@code destination} ({@code name}, {@code type} {@code file|directory}, {@code actionIfExists}
 * {@code error|overwrite}), {@code mode} {@code binary|text} and {@code checksum}
 * {@code md5|none}) and, for a scheduled transfer, {@code scheduleTransfer} ({@code startTime},
 * {@code timeBase}, {@code occurrenceInterval}, {@code occurrenceFrequency}, {@code occurrenceCount},
 * {@code endTime}: fteCreateTransfer's {@code -ss -tb -oi -of -oc -es}). Strict: an unknown attribute, a value of the wrong type or out of range is
 * refused with a message naming it, so that a typing error is not silently a different transfer.
 * Stateless and thread-safe.
 */
final class TransferRequestJson {
    /** The most items one request may hold; more is refused rather than queued. */
    static final int MAX_ITEMS = 1_000;

    private final ObjectMapper mapper;

    TransferRequestJson(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /**
     * Parses and checks a request body.
     *
     * @param body the request body
     * @param originator who asks (the authenticated user)
     * @return the request, without a reply element, and its schedule if it has one
     * @throws ApiError 400 naming what is wrong
     */
    Parsed parse(String body, Originator originator) throws ApiError {
        JsonNode root = root(body, "sourceAgent, destinationAgent and transferSet");
        Schedule schedule = schedule(object(root, "scheduleTransfer", "", false));
        ObjectNode transfer = ((ObjectNode) root).deepCopy();
        transfer.remove("scheduleTransfer");
        return new Parsed(parse(transfer, "", originator), schedule);
    }

    /**
     * A request body read.
     *
     * @param request the transfer, without a reply element or a schedule
     * @param schedule its {@code scheduleTransfer}, or null to run it now
     */
    record Parsed(TransferRequest request, Schedule schedule) {
    }

    /**
     * Reads a request body as a JSON object.
     *
     * @param expected what the object holds, for the message when it is not one
     * @throws ApiError 400 when the body is not a JSON object
     */
    JsonNode root(String body, String expected) throws ApiError {
        JsonNode root;
        try {
            root = mapper.readTree(body);
        } catch (JsonProcessingException e) {
            throw ApiError.badRequest("the request body is not valid JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            throw ApiError.badRequest("the request body must be a JSON object with " + expected);
        }
        return root;
    }

    /** IBM's {@code scheduleTransfer} attributes and the fteCreateTransfer flags they stand for. */
    private static final Map<String, String> SCHEDULE_FLAGS = Map.of("-ss", "startTime", "-tb", "timeBase", "-oi",
            "occurrenceInterval", "-of", "occurrenceFrequency", "-oc", "occurrenceCount", "-es", "endTime");

    /** The {@code scheduleTransfer} object as a schedule, or null without one. */
    private static Schedule schedule(JsonNode o) throws ApiError {
        if (o == null) {
            return null;
        }
        only(o, "scheduleTransfer.", new java.util.HashSet<>(SCHEDULE_FLAGS.values()));
        String where = "scheduleTransfer.";
        String frequency = o.has("occurrenceFrequency") ? String.valueOf(integer(o, "occurrenceFrequency",
                where + "occurrenceFrequency", 1, Integer.MAX_VALUE, 1)) : null;
        String count = o.has("occurrenceCount") ? String.valueOf(integer(o, "occurrenceCount",
                where + "occurrenceCount", 1, Integer.MAX_VALUE, 1)) : null;
        try {
            return Schedule.fromFlags(text(o, "startTime", where + "startTime", true), text(o, "timeBase",
                    where + "timeBase", false), text(o, "occurrenceInterval", where + "occurrenceInterval", false),
                    frequency, count, text(o, "endTime", where + "endTime", false));
        } catch (IllegalArgumentException e) {
            String message = e.getMessage();
            for (Map.Entry<String, String> flag : SCHEDULE_FLAGS.entrySet()) {
                message = message.replaceAll("(?<![\\w-])" + flag.getKey() + "\\b", where + flag.getValue());
            }
            throw ApiError.badRequest(message);
        }
    }

    /**
     * Checks a transfer's attributes: a whole request body, or a monitor's {@code transferDefinition}.
     *
     * @param root the object
     * @param prefix how the object is named in messages, with a trailing dot, or empty for the body
     * @param originator who asks (the authenticated user)
     * @return the request, without a reply element
     * @throws ApiError 400 naming what is wrong
     */
    static TransferRequest parse(JsonNode root, String prefix, Originator originator) throws ApiError {
        only(root, prefix, Set.of("job", "sourceAgent", "destinationAgent", "transferSet"));
        AgentRef source = agent(object(root, "sourceAgent", prefix, true), prefix + "sourceAgent");
        AgentRef destination = agent(object(root, "destinationAgent", prefix, true), prefix + "destinationAgent");
        JsonNode job = object(root, "job", prefix, false);
        String jobName = null;
        if (job != null) {
            only(job, prefix + "job.", Set.of("name"));
            jobName = text(job, "name", prefix + "job.name", false);
        }
        JsonNode set = object(root, "transferSet", prefix, true);
        String setName = prefix + "transferSet";
        only(set, setName + ".", Set.of("item", "priority", "recoveryTimeout", "userProperties"));
        int priority = integer(set, "priority", setName + ".priority", 0, TransferSet.MAX_PRIORITY, 0);
        Long recovery = set.has("recoveryTimeout") ? Long.valueOf(integer(set, "recoveryTimeout",
                setName + ".recoveryTimeout", -1, Integer.MAX_VALUE, -1)) : null;
        Map<String, String> metadata = new LinkedHashMap<>();
        JsonNode props = object(set, "userProperties", setName + ".", false);
        if (props != null) {
            for (Map.Entry<String, JsonNode> e : props.properties()) {
                if (!e.getValue().isTextual()) {
                    throw ApiError.badRequest(setName + ".userProperties." + e.getKey() + " must be a string");
                }
                metadata.put(e.getKey(), e.getValue().asText());
            }
        }
        JsonNode items = set.get("item");
        if (items == null || !items.isArray() || items.isEmpty()) {
            throw ApiError.badRequest(setName + ".item must be an array of at least one item");
        }
        if (items.size() > MAX_ITEMS) {
            throw ApiError.badRequest(setName + ".item has " + items.size() + " items; at most " + MAX_ITEMS
                    + " are accepted in one request");
        }
        List<TransferItem> list = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            list.add(item(items.get(i), setName + ".item[" + i + "]"));
        }
        try {
            return new TransferRequest(DocumentWriter.VERSION, originator, source, destination, null,
                    new TransferSet(priority, recovery, metadata, list), jobName);
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest(prefix + e.getMessage());
        }
    }

    private static TransferItem item(JsonNode item, String where) throws ApiError {
        if (!item.isObject()) {
            throw ApiError.badRequest(where + " must be an object");
        }
        only(item, where + ".", Set.of("source", "destination", "mode", "checksum"));
        JsonNode src = object(item, "source", where + ".", true);
        JsonNode dst = object(item, "destination", where + ".", true);
        only(src, where + ".source.", Set.of("name", "type", "recursive", "disposition"));
        only(dst, where + ".destination.", Set.of("name", "type", "actionIfExists"));
        try {
            Mode mode = Mode.fromXml(choice(item, "mode", where, "binary"));
            ChecksumMethod checksum = ChecksumMethod.fromXml(choice(item, "checksum", where, "md5"));
            String srcType = choice(src, "type", where + ".source", "file");
            if (!srcType.equals("file") && !srcType.equals("directory")) {
                throw ApiError.badRequest(where + ".source.type=" + srcType + ": use file or directory");
            }
            boolean recursive = bool(src, "recursive", where + ".source.recursive") || srcType.equals("directory");
            Disposition disposition = Disposition.fromXml(choice(src, "disposition", where + ".source", "leave"));
            ItemSource source = new ItemSource(recursive, disposition, text(src, "name", where + ".source.name", true),
                    null);
            DestinationType type = DestinationType.fromXml(choice(dst, "type", where + ".destination", "file"));
            ExistAction exist = ExistAction.fromXml(choice(dst, "actionIfExists", where + ".destination", "error"));
            ItemDestination destination = new ItemDestination(type, exist,
                    text(dst, "name", where + ".destination.name", true), null, null);
            return new TransferItem(mode, checksum, source, destination);
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest(where + ": " + e.getMessage());
        }
    }

    private static AgentRef agent(JsonNode o, String where) throws ApiError {
        only(o, where + ".", Set.of("name", "qmgrName"));
        String name = text(o, "name", where + ".name", true);
        try {
            QueueNames.validateAgentName(name);
            return new AgentRef(name.toUpperCase(java.util.Locale.ROOT), text(o, "qmgrName", where + ".qmgrName",
                    false));
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest(where + ".name: " + e.getMessage());
        }
    }

    static void only(JsonNode o, String prefix, Set<String> allowed) throws ApiError {
        for (Map.Entry<String, JsonNode> e : o.properties()) {
            String name = e.getKey();
            if (!allowed.contains(name)) {
                throw ApiError.badRequest("unknown attribute " + prefix + name + ": allowed are "
                        + String.join(", ", new java.util.TreeSet<>(allowed)));
            }
        }
    }

    /** The object {@code name} of {@code parent}, which messages call {@code prefix + name}. */
    static JsonNode object(JsonNode parent, String name, String prefix, boolean required) throws ApiError {
        JsonNode o = parent.get(name);
        if (o == null || o.isNull()) {
            if (required) {
                throw ApiError.badRequest(prefix + name + " is required");
            }
            return null;
        }
        if (!o.isObject()) {
            throw ApiError.badRequest(prefix + name + " must be an object");
        }
        return o;
    }

    static String text(JsonNode o, String name, String where, boolean required) throws ApiError {
        JsonNode v = o.get(name);
        if (v == null || v.isNull()) {
            if (required) {
                throw ApiError.badRequest(where + " is required");
            }
            return null;
        }
        if (!v.isTextual() || v.asText().isBlank()) {
            throw ApiError.badRequest(where + " must be a non-empty string");
        }
        return v.asText();
    }

    private static String choice(JsonNode o, String name, String where, String dflt) throws ApiError {
        String v = text(o, name, where + "." + name, false);
        return v == null ? dflt : v.toLowerCase(java.util.Locale.ROOT);
    }

    private static boolean bool(JsonNode o, String name, String where) throws ApiError {
        JsonNode v = o.get(name);
        if (v == null || v.isNull()) {
            return false;
        }
        if (!v.isBoolean()) {
            throw ApiError.badRequest(where + " must be true or false");
        }
        return v.booleanValue();
    }

    static int integer(JsonNode o, String name, String where, int min, int max, int dflt) throws ApiError {
        JsonNode v = o.get(name);
        if (v == null || v.isNull()) {
            return dflt;
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt() || v.intValue() < min || v.intValue() > max) {
            throw ApiError.badRequest(where + "=" + v + " is not an integer from " + min + " to " + max);
        }
        return v.intValue();
    }
}
