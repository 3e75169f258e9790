package org.openmft.rest;

import java.time.Duration;
import java.util.Locale;
import java.util.Set;

import org.openmft.client.MftClientException;
import org.openmft.client.MonitorSpec;
import org.openmft.xml.DocumentWriter;
import org.openmft.xml.MonitorDefinition;
import org.openmft.xml.Originator;
import org.openmft.xml.TransferRequest;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The body of IBM's {@code POST admin/mft/monitor} (IBM MQ 9.2+), read into a {@link MonitorSpec}
 * of a directory monitor: {@code name}, {@code type} ({@code directory}), {@code agentName} (as
 * IBM's samples send it: the monitoring agent, which must be the transfer's source agent),
 * {@code general} ({@code pollInterval}, default 1; {@code pollIntervalUnit}, default
 * {@code minutes}; {@code matchesPerTask}, default 2), {@code resource} ({@code name}, the
 * directory; {@code recursionLevel}, default 1), {@code triggerCondition} ({@code type}
 * {@code matchAll} (default), {@code matchNone}, {@code noChangeInSize} with
 * {@code noFileSizeChangePollCount}, {@code sizeGreaterOrEqualTo} with {@code fileSize} and
 * {@code fileSizeUnit} ({@code bytes} (default), {@code KB}, {@code MB}, {@code GB});
 * {@code includePattern}, default {@code *}; {@code excludePattern}; wildcards) and
 * {@code transferDefinition} (the attributes of {@code POST admin/mft/transfer}). The defaults
 * are those IBM documents for this API, which differ from fteCreateMonitor's. Refused with a 400
 * naming the attribute: {@code type} {@code queue} and {@code userProperties} (monitor exit
 * metadata), which OpenMFT does not create through this API yet, and any attribute IBM does not
 * document. Stateless and thread-safe.
 */
final class MonitorRequestJson {
    /** IBM's documented default of {@code general.matchesPerTask} for this API. */
    static final int DEFAULT_MATCHES_PER_TASK = 2;
    /** IBM's documented default of {@code resource.recursionLevel} for this API. */
    static final int DEFAULT_RECURSION_LEVEL = 1;

    private final TransferRequestJson transfers;

    MonitorRequestJson(TransferRequestJson transfers) {
        this.transfers = transfers;
    }

    /**
     * A monitor to create, and the queue manager of its agent.
     *
     * @param spec the monitor
     * @param agentQMgr {@code transferDefinition.sourceAgent.qmgrName}, or null
     * @param destinationAgent {@code transferDefinition.destinationAgent.name}, upper case
     */
    record Request(MonitorSpec spec, String agentQMgr, String destinationAgent) {
    }

    /**
     * Parses and checks a request body.
     *
     * @param body the request body
     * @param originator who asks (the authenticated user), for the task's transfers
     * @return the monitor
     * @throws ApiError 400 naming what is wrong
     */
    Request parse(String body, Originator originator) throws ApiError {
        JsonNode root = transfers.root(body, "name, resource and transferDefinition");
        TransferRequestJson.only(root, "", Set.of("name", "type", "agentName", "general", "resource",
                "triggerCondition", "userProperties", "transferDefinition"));
        if (root.has("userProperties")) {
            throw ApiError.badRequest("userProperties (metadata for monitor exits, fteCreateMonitor -mmd) is not"
                    + " supported yet");
        }
        String name = TransferRequestJson.text(root, "name", "name", true);
        String type = TransferRequestJson.text(root, "type", "type", false);
        if (type != null && type.equalsIgnoreCase("queue")) {
            throw ApiError.badRequest("type=queue: queue monitors cannot be created through the REST API yet; use"
                    + " fteCreateMonitor -mq");
        }
        if (type != null && !type.equalsIgnoreCase("directory")) {
            throw ApiError.badRequest("type=" + type + " is not a resource type: use directory");
        }
        MonitorSpec.Builder monitor = MonitorSpec.builder().name(name);
        general(TransferRequestJson.object(root, "general", "", false), monitor);
        JsonNode resource = TransferRequestJson.object(root, "resource", "", true);
        TransferRequestJson.only(resource, "resource.", Set.of("name", "recursionLevel"));
        monitor.directory(TransferRequestJson.text(resource, "name", "resource.name", true))
                .recursionLevel(TransferRequestJson.integer(resource, "recursionLevel", "resource.recursionLevel", 0,
                        MonitorDefinition.MAX_RECURSION_LEVEL, DEFAULT_RECURSION_LEVEL));
        trigger(TransferRequestJson.object(root, "triggerCondition", "", false), monitor);
        TransferRequest transfer = TransferRequestJson.parse(TransferRequestJson.object(root, "transferDefinition", "",
                true), "transferDefinition.", originator);
        String agent = transfer.sourceAgent().agent();
        String agentName = TransferRequestJson.text(root, "agentName", "agentName", false);
        if (agentName != null && !agentName.equalsIgnoreCase(agent)) {
            throw ApiError.badRequest("agentName " + agentName + " is not transferDefinition.sourceAgent.name " + agent
                    + ": the monitoring agent is the source agent of the transfers it starts");
        }
        try {
            return new Request(monitor.agent(agent).task(new DocumentWriter().write(transfer)).build(),
                    transfer.sourceAgent().qmgr(), transfer.destinationAgent().agent());
        } catch (IllegalArgumentException | MftClientException e) {
            throw ApiError.badRequest(e.getMessage());
        }
    }

    private static void general(JsonNode general, MonitorSpec.Builder monitor) throws ApiError {
        int interval = 1;
        MonitorDefinition.TimeUnit unit = MonitorDefinition.TimeUnit.MINUTES;
        int matches = DEFAULT_MATCHES_PER_TASK;
        if (general != null) {
            TransferRequestJson.only(general, "general.", Set.of("pollInterval", "pollIntervalUnit", "matchesPerTask"));
            interval = TransferRequestJson.integer(general, "pollInterval", "general.pollInterval", 1,
                    (int) MonitorDefinition.PollInterval.MAX_VALUE, 1);
            String units = TransferRequestJson.text(general, "pollIntervalUnit", "general.pollIntervalUnit", false);
            if (units != null) {
                try {
                    unit = MonitorDefinition.TimeUnit.fromXml(units);
                } catch (IllegalArgumentException e) {
                    throw ApiError.badRequest("general.pollIntervalUnit " + e.getMessage());
                }
            }
            matches = TransferRequestJson.integer(general, "matchesPerTask", "general.matchesPerTask", 1,
                    MonitorDefinition.MAX_BATCH_SIZE, DEFAULT_MATCHES_PER_TASK);
        }
        monitor.pollInterval(Duration.ofSeconds(new MonitorDefinition.PollInterval(interval, unit).seconds()))
                .batchSize(matches);
    }

    /** IBM's trigger condition, as the {@code -tr} condition the client reads. */
    private static void trigger(JsonNode condition, MonitorSpec.Builder monitor) throws ApiError {
        if (condition == null) {
            monitor.trigger("match,*");
            return;
        }
        String where = "triggerCondition.";
        TransferRequestJson.only(condition, where, Set.of("type", "includePattern", "excludePattern",
                "noFileSizeChangePollCount", "fileSize", "fileSizeUnit"));
        String type = TransferRequestJson.text(condition, "type", where + "type", false);
        type = type == null ? "matchAll" : type;
        String include = condition.path("includePattern").asText("");
        include = include.isEmpty() ? "*" : include;
        String exclude = condition.path("excludePattern").asText("");
        monitor.exclude(exclude.isEmpty() ? null : exclude);
        onlyFor(condition, "noFileSizeChangePollCount", "noChangeInSize", type);
        onlyFor(condition, "fileSize", "sizeGreaterOrEqualTo", type);
        onlyFor(condition, "fileSizeUnit", "sizeGreaterOrEqualTo", type);
        switch (type) {
            case "matchAll" -> monitor.trigger("match," + include);
            case "matchNone" -> monitor.trigger("noMatch," + include);
            case "noChangeInSize" -> {
                required(condition, "noFileSizeChangePollCount", type);
                monitor.trigger("noSizeChange=" + TransferRequestJson.integer(condition, "noFileSizeChangePollCount",
                        where + "noFileSizeChangePollCount", 1, Integer.MAX_VALUE, 1) + "," + include);
            }
            case "sizeGreaterOrEqualTo" -> {
                required(condition, "fileSize", type);
                int size = TransferRequestJson.integer(condition, "fileSize", where + "fileSize", 0, Integer.MAX_VALUE,
                        0);
                String unit = TransferRequestJson.text(condition, "fileSizeUnit", where + "fileSizeUnit", false);
                String units = unit == null ? "B" : switch (unit.toLowerCase(Locale.ROOT)) {
                    case "bytes", "b" -> "B";
                    case "kb" -> "KB";
                    case "mb" -> "MB";
                    case "gb" -> "GB";
                    default -> throw ApiError.badRequest(where + "fileSizeUnit=" + unit + ": use bytes, KB, MB or GB");
                };
                monitor.trigger("fileSize>=" + size + units + "," + include);
            }
            default -> throw ApiError.badRequest(where + "type=" + type + ": use matchAll, matchNone, noChangeInSize or"
                    + " sizeGreaterOrEqualTo");
        }
    }

    private static void onlyFor(JsonNode condition, String attribute, String type, String given) throws ApiError {
        if (condition.has(attribute) && !type.equals(given)) {
            throw ApiError.badRequest("triggerCondition." + attribute + " is only for type " + type + ", not " + given);
        }
    }

    private static void required(JsonNode condition, String attribute, String type) throws ApiError {
        if (!condition.has(attribute)) {
            throw ApiError.badRequest("triggerCondition." + attribute + " is required for type " + type);
        }
    }
}
