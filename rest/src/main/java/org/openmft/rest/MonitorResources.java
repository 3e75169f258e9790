package org.openmft.rest;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.openmft.agent.qmgr.QueueManagerException;
import org.openmft.client.MftClient;
import org.openmft.client.MftClientException;
import org.openmft.client.MonitorSpec;
import org.openmft.coordination.query.AgentNamePattern;
import org.openmft.coordination.query.MonitorDirectory;
import org.openmft.xml.MonitorDefinition;
import org.openmft.xml.MonitorListing;
import org.openmft.xml.Originator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * IBM's {@code admin/mft/monitor} for {@link MftResources}: list and show from the agents' retained
 * listings (read at most every {@link MftResources#AGENTS_REUSED}), create ({@code POST}, a
 * {@link MonitorRequestJson} body), delete and clear history ({@code DELETE}), the writes through
 * {@link MftClient} acting for the caller. Authorisation is the caller's ({@link MftResources}). Thread-safe.
 */
final class MonitorResources {
    /** IBM's result code: the agent has no monitor of that name. */
    static final int MONITOR_MISSING = 104;
    /** IBM's result code: the agent has a monitor of that name already. */
    static final int MONITOR_EXISTS = 105;

    /** Checks that an agent named in a request has published a status. */
    @FunctionalInterface
    interface KnownAgents {
        /**
         * @param agent the agent's name
         * @param where the attribute or parameter that names it, for the message
         * @throws ApiError 404 when no agent of that name has published a status
         */
        void check(String agent, String where) throws ApiError;
    }

    private final MonitorDirectory directory;
    private final MftClient client;
    private final MftJson json;
    private final MonitorRequestJson requests;
    private final String hostName;
    private final Clock clock;
    private final KnownAgents agents;
    private final ObjectMapper mapper;
    private List<MonitorListing> monitorsRead;
    private Instant monitorsReadAt;

    MonitorResources(MonitorDirectory directory, MftClient client, ObjectMapper mapper, MonitorRequestJson requests,
            String hostName, Clock clock, KnownAgents agents) {
        this.directory = directory;
        this.mapper = mapper;
        this.client = client;
        this.json = new MftJson(mapper);
        this.requests = requests;
        this.hostName = hostName;
        this.clock = clock;
        this.agents = agents;
    }

    /** The monitors' listings, read at most every {@link MftResources#AGENTS_REUSED}, as the agents are. */
    private synchronized List<MonitorListing> readMonitors() throws ApiError {
        Instant now = clock.instant();
        if (monitorsRead == null || monitorsReadAt.plus(MftResources.AGENTS_REUSED).isBefore(now)) {
            try {
                monitorsRead = directory.read();
            } catch (QueueManagerException e) {
                throw MftResources.coordinationUnavailable(e);
            }
            monitorsReadAt = now;
        }
        return monitorsRead;
    }

    /** {@code GET admin/mft/monitor}: filtered by {@code name} and {@code agentName} patterns, {@code state}, {@code type}. */
    ObjectNode list(Map<String, String> query) throws ApiError {
        AgentNamePattern names = MftResources.pattern(query, "name");
        AgentNamePattern agentNames = MftResources.pattern(query, "agentName");
        String state = query.get("state");
        String type = query.get("type");
        boolean all = MftResources.allAttributes(query);
        ObjectNode out = mapper.createObjectNode();
        ArrayNode list = out.putArray("monitor");
        for (MonitorListing l : readMonitors()) {
            ObjectNode m = json.monitor(l, all);
            if (names.matches(l.name()) && agentNames.matches(l.agent())
                    && (state == null || m.get("state").asText().equalsIgnoreCase(state))
                    && (type == null || m.get("type").asText().equalsIgnoreCase(type))) {
                list.add(m);
            }
        }
        return out;
    }

    /** {@code GET admin/mft/monitor/{name}}: every agent's monitor of that name (names are unique per agent). */
    ObjectNode show(String name, Map<String, String> query) throws ApiError {
        ObjectNode out = mapper.createObjectNode();
        ArrayNode list = out.putArray("monitor");
        for (MonitorListing l : readMonitors()) {
            if (l.name().equalsIgnoreCase(name) && (query.get("agentName") == null
                    || l.agent().equalsIgnoreCase(query.get("agentName")))) {
                list.add(json.monitor(l, MftResources.allAttributes(query)));
            }
        }
        if (list.isEmpty()) {
            throw monitorNotFound(name);
        }
        return out;
    }

    /** {@code POST admin/mft/monitor}: creates and starts a directory monitor; 201 with its name and agent. */
    MftResources.Answer create(String body, String user) throws ApiError {
        MonitorRequestJson.Request request = requests.parse(body, new Originator(hostName, user, null));
        MonitorSpec spec = request.spec();
        agents.check(spec.agent(), "transferDefinition.sourceAgent");
        agents.check(request.destinationAgent(), "transferDefinition.destinationAgent");
        try {
            client.onBehalfOf(user).createMonitor(spec, request.agentQMgr());
        } catch (MftClientException e) {
            if (e.resultCode().orElse(0) == MONITOR_EXISTS) {
                throw new ApiError(409, ApiError.AGENT_REFUSED, "Monitor " + spec.name() + " already exists on agent "
                        + spec.agent() + ": " + e.getMessage(), "Delete it first (DELETE " + MftResources.IBM_BASE + "/monitor/"
                                + spec.name() + "?agent=" + spec.agent() + "); nothing was changed.");
            }
            throw MftResources.failed(e, 400, "agent " + spec.agent() + " refused resource monitor " + spec.name());
        }
        forgetMonitors();
        ObjectNode out = mapper.createObjectNode();
        out.putArray("monitor").addObject().put("name", spec.name()).put("type", "directory")
                .put("agentName", spec.agent()).put("state", MonitorListing.STARTED);
        return new MftResources.Answer(201, out, MftResources.IBM_BASE + "/monitor/" + spec.name());
    }

    /**
     * {@code DELETE admin/mft/monitor/{name}[/history]?agent=&agentQmgr=}: deletes a monitor, or
     * clears its history; 204. Without {@code agent}, the agent whose listing has a monitor of that name.
     */
    MftResources.Answer delete(String rawName, boolean history, Map<String, String> query, String user)
            throws ApiError {
        String name;
        try {
            name = MonitorDefinition.monitorName(rawName);
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest(e.getMessage());
        }
        String agent = query.get("agent") != null ? query.get("agent") : query.get("agentName");
        if (agent == null || agent.isBlank()) {
            List<String> owners = readMonitors().stream().filter(l -> l.name().equalsIgnoreCase(name))
                    .map(l -> l.agent().toUpperCase(Locale.ROOT)).distinct().toList();
            if (owners.isEmpty()) {
                throw monitorNotFound(name);
            }
            if (owners.size() > 1) {
                throw ApiError.badRequest("monitor " + name + " exists on agents " + String.join(", ", owners)
                        + ": name one with ?agent=");
            }
            agent = owners.get(0);
        }
        agents.check(agent, "agent");
        try {
            MftClient asUser = client.onBehalfOf(user);
            if (history) {
                asUser.clearMonitorHistory(agent, query.get("agentQmgr"), name);
            } else {
                asUser.deleteMonitor(agent, query.get("agentQmgr"), name);
            }
        } catch (MftClientException e) {
            if (e.resultCode().orElse(0) == MONITOR_MISSING) {
                throw new ApiError(404, ApiError.MONITOR_NOT_FOUND, "Monitor " + name + " does not exist on agent "
                        + agent.toUpperCase(Locale.ROOT) + ": " + e.getMessage(), null);
            }
            throw MftResources.failed(e, 409, "agent " + agent + " refused to " + (history ? "clear the history of" : "delete")
                    + " monitor " + name);
        }
        forgetMonitors();
        return new MftResources.Answer(204, null, null);
    }

    /** The next reading of the monitors' listings asks the queue manager again. */
    private synchronized void forgetMonitors() {
        monitorsRead = null;
    }

    private static ApiError monitorNotFound(String name) {
        return new ApiError(404, ApiError.MONITOR_NOT_FOUND, "Monitor details cannot be found for "
                + name.toUpperCase(Locale.ROOT) + ".", "No agent has published a monitor of this name on the"
                        + " coordination queue manager: is the name right (mft monitor list)?");
    }
}
