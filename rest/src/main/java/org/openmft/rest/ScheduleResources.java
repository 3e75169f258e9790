package org.openmft.rest;

import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.openmft.client.MftClient;
import org.openmft.client.MftClientException;
import org.openmft.client.ScheduledTransfer;
import org.openmft.client.TransferSpec;
import org.openmft.xml.DocumentWriter;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Scheduled transfers, OpenMFT's own resource under {@value MftResources#OPENMFT_BASE}: IBM's REST
 * API creates them ({@code scheduleTransfer} in the body of {@code POST admin/mft/transfer}) but
 * neither lists nor deletes them.
 * <ul>
 *   <li>{@code GET /schedule[?agent=PATTERN]}: the schedules the source agents publish
 *       (fteListScheduledTransfers); {@code GET /schedule/AGENT/ID}: one of them.</li>
 *   <li>{@code POST /schedule}: the body of IBM's {@code POST admin/mft/transfer}, with
 *       {@code scheduleTransfer} required; 202 with the schedule's id.</li>
 *   <li>{@code DELETE /schedule/AGENT/ID}: fteDeleteScheduledTransfer; the agent must be running.</li>
 * </ul>
 * Thread-safe: it keeps no state.
 */
final class ScheduleResources {
    /** The path of the resource. */
    static final String PATH = MftResources.OPENMFT_BASE + "/schedule";
    /** No schedule of that id on that agent (OpenMFT's). */
    static final String SCHEDULE_NOT_FOUND = "BFGRE0017E";

    /** Checks that an agent has published a status, else a 404 naming {@code where}. */
    @FunctionalInterface
    interface KnownAgents {
        void check(String agent, String where) throws ApiError;
    }

    private final MftClient client;
    private final ObjectMapper mapper;
    private final KnownAgents known;

    ScheduleResources(MftClient client, ObjectMapper mapper, KnownAgents known) {
        this.client = client;
        this.mapper = mapper;
        this.known = known;
    }

    /** Whether {@code path} (without a trailing slash) is this resource's. */
    static boolean serves(String path) {
        return path.equals(PATH) || path.startsWith(PATH + "/");
    }

    /**
     * Answers a request for the resource; POST bodies come parsed, with the authorization checked
     * by the caller for POST and DELETE.
     */
    MftResources.Answer handle(String method, String path, Map<String, String> query, TransferRequestJson.Parsed body,
            String user) throws ApiError {
        if (path.equals(PATH)) {
            if ("POST".equals(method)) {
                return create(body, user);
            }
            MftResources.get(method);
            return MftResources.Answer.ok(list(schedules(query.get("agent"))));
        }
        String[] parts = path.substring(PATH.length() + 1).split("/", -1);
        if (parts.length != 2) {
            throw new ApiError(404, ApiError.NO_SUCH_RESOURCE, "no resource " + path, "A schedule is "
                    + PATH + "/AGENT/ID.");
        }
        String agent = parts[0].toUpperCase(Locale.ROOT);
        long id = id(parts[1]);
        if ("DELETE".equals(method)) {
            return delete(agent, id, user);
        }
        MftResources.get(method);
        List<ScheduledTransfer> one = schedules(agent).stream().filter(s -> s.id() == id).toList();
        if (one.isEmpty()) {
            throw notFound(agent, id, "agent " + agent + " publishes no such schedule");
        }
        return MftResources.Answer.ok(list(one));
    }

    /** The request methods that change something. */
    static boolean changes(String method) {
        return "POST".equals(method) || "DELETE".equals(method);
    }

    /** Sends a parsed transfer with a schedule to its source agent. */
    MftResources.Answer create(TransferRequestJson.Parsed body, String user) throws ApiError {
        if (body.schedule() == null) {
            throw ApiError.badRequest("scheduleTransfer is required: a schedule needs at least its startTime");
        }
        String source = body.request().sourceAgent().agent();
        known.check(source, "sourceAgent");
        known.check(body.request().destinationAgent().agent(), "destinationAgent");
        long id;
        try {
            id = client.onBehalfOf(user).createSchedule(TransferSpec.fromXml(new DocumentWriter().write(body.request()))
                    .withSchedule(body.schedule()));
        } catch (MftClientException e) {
            throw MftResources.failed(e, 400, "agent " + source + " refused the schedule");
        }
        ObjectNode out = mapper.createObjectNode();
        out.putArray("schedule").addObject().put("id", id).put("sourceAgent", source);
        return new MftResources.Answer(202, out, PATH + "/" + source + "/" + id);
    }

    private MftResources.Answer delete(String agent, long id, String user) throws ApiError {
        known.check(agent, "agent");
        String said;
        try {
            said = client.onBehalfOf(user).deleteSchedule(agent, null, id);
        } catch (MftClientException e) {
            if (e.resultCode().isPresent()) {
                throw notFound(agent, id, e.getMessage());
            }
            throw MftResources.failed(e, 409, "agent " + agent + " refused to delete schedule " + id);
        }
        ObjectNode out = mapper.createObjectNode();
        out.putArray("schedule").addObject().put("id", id).put("sourceAgent", agent).put("message", said);
        return MftResources.Answer.ok(out);
    }

    private List<ScheduledTransfer> schedules(String pattern) throws ApiError {
        try {
            return client.schedules(pattern);
        } catch (MftClientException e) {
            throw MftResources.failed(e, 502, "the schedules cannot be read");
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest("agent=" + pattern + ": " + e.getMessage());
        }
    }

    private ObjectNode list(List<ScheduledTransfer> schedules) {
        ObjectNode out = mapper.createObjectNode();
        ArrayNode list = out.putArray("schedule");
        for (ScheduledTransfer s : schedules) {
            ObjectNode o = list.addObject();
            o.put("id", s.id());
            o.putObject("sourceAgent").put("name", s.sourceAgent());
            o.putObject("destinationAgent").put("name", s.destinationAgent());
            if (s.jobName() != null) {
                o.putObject("job").put("name", s.jobName());
            }
            ObjectNode when = o.putObject("scheduleTransfer");
            when.put("timeBase", s.timeBase());
            when.put("startTime", s.start());
            when.put("nextTransfer", s.next());
            if (s.interval() != null) {
                when.put("occurrenceInterval", s.interval());
                when.put("occurrenceFrequency", s.frequency());
            }
            if (s.occurrences() > 0) {
                when.put("occurrenceCount", s.occurrences());
            }
            if (s.end() != null) {
                when.put("endTime", s.end());
            }
            ArrayNode items = o.putObject("transferSet").putArray("item");
            for (ScheduledTransfer.Item i : s.items()) {
                ObjectNode item = items.addObject();
                item.putObject("source").put("name", i.source());
                item.putObject("destination").put("name", i.destination());
                item.put("mode", i.mode());
            }
        }
        return out;
    }

    private static long id(String raw) throws ApiError {
        try {
            long id = Long.parseLong(raw);
            if (id >= 1) {
                return id;
            }
        } catch (NumberFormatException e) {
            // Said below.
        }
        throw ApiError.badRequest("'" + raw + "' is not a schedule ID: a schedule ID is a positive whole number");
    }

    private static ApiError notFound(String agent, long id, String why) {
        return new ApiError(404, SCHEDULE_NOT_FOUND, "Schedule " + id + " cannot be found on agent " + agent + ": "
                + why, "List the schedules with GET " + PATH + ".");
    }
}
