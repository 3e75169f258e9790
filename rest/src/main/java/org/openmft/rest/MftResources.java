package org.openmft.rest;

import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

import org.openmft.agent.qmgr.QueueManagerException;
import org.openmft.client.Acknowledgement;
import org.openmft.client.MftClient;
import org.openmft.client.MftClientException;
import org.openmft.client.TransferSpec;
import org.openmft.coordination.logger.LogStore;
import org.openmft.coordination.logger.LogStoreException;
import org.openmft.coordination.logger.StoredTransfer;
import org.openmft.coordination.logger.TransferQuery;
import org.openmft.coordination.logger.TransferState;
import org.openmft.coordination.query.AgentDirectory;
import org.openmft.coordination.query.AgentNamePattern;
import org.openmft.coordination.query.AgentView;
import org.openmft.coordination.query.MonitorDirectory;
import org.openmft.xml.DocumentWriter;
import org.openmft.xml.Originator;
import org.openmft.xml.TransferRequest;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The resources of the REST API, independent of the HTTP server: IBM's {@code admin/mft/agent},
 * {@code admin/mft/transfer} (list, show, create) and {@code admin/mft/monitor} (list, show, create,
 * delete, clear history: {@link MonitorResources}) under {@value #IBM_BASE}, and OpenMFT's additions
 * (cancel as {@code DELETE} of a transfer, live progress and scheduled transfers
 * ({@link ScheduleResources}) under {@value #OPENMFT_BASE}); a {@code POST admin/mft/transfer} with
 * IBM's {@code scheduleTransfer} creates a schedule.
 * Agents come from the coordination queue manager's retained statuses ({@link AgentDirectory}),
 * transfers from the logger's store, so that history survives restarts of this server. Thread-safe.
 */
public final class MftResources {
    /** IBM's base path of the MFT resources. */
    public static final String IBM_BASE = "/ibmmq/rest/v2/admin/mft";
    /** OpenMFT's own resources. */
    public static final String OPENMFT_BASE = "/openmft/rest/v1";
    /** Transfers listed when the query gives no {@code limit}. */
    public static final int DEFAULT_LIMIT = 100;
    /** The largest {@code limit}. */
    public static final int MAX_LIMIT = 5_000;
    /** How long a reading of the agents' statuses is reused: each reading takes a fraction of a second. */
    static final Duration AGENTS_REUSED = Duration.ofSeconds(2);
    /** IBM's result code: the agent does not know the transfer. */
    static final int NOT_FOUND = 26;

    private static final Pattern TRANSFER_ID = Pattern.compile("[0-9A-Fa-f]{48}");

    private final AgentDirectory agents;
    private final MonitorResources monitors;
    private final History history;
    private final MftClient client;
    private final LiveProgress progress;
    private final Clock clock;
    private final ObjectMapper mapper = new ObjectMapper();
    private final MftJson json = new MftJson(mapper);
    private final TransferRequestJson requestJson = new TransferRequestJson(mapper);
    private final ScheduleResources schedules;
    private final String hostName;
    private List<AgentView> agentsRead;
    private Instant agentsReadAt;

    /**
     * The resources.
     *
     * @param agents the coordination queue manager's agents
     * @param monitors the coordination queue manager's resource monitors
     * @param history opens the logger's store for one request
     * @param client sends transfer and monitor requests to the agents' command queues
     * @param progress live progress, or null when not followed
     * @param clock the time
     */
    public MftResources(AgentDirectory agents, MonitorDirectory monitors, History history, MftClient client,
            LiveProgress progress, Clock clock) {
        this.agents = agents;
        this.history = history;
        this.client = client;
        this.progress = progress;
        this.clock = clock;
        this.schedules = new ScheduleResources(client, mapper, this::knownAgent);
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            host = "localhost";
        }
        this.hostName = host;
        this.monitors = new MonitorResources(monitors, client, mapper, new MonitorRequestJson(requestJson), host, clock,
                this::knownAgent);
    }

    /**
     * Opens the logger's store for reading. A store is opened for each request and closed after it,
     * so that a restarted logger (which alone opens an embedded database's file) or database is
     * simply used again, and this server holds nothing between requests.
     */
    @FunctionalInterface
    public interface History {
        /**
         * Opens the store.
         *
         * @return a store the caller closes
         * @throws LogStoreException when it cannot be opened
         */
        LogStore open() throws LogStoreException;
    }

    /** The JSON mapper the server writes with. */
    ObjectMapper mapper() {
        return mapper;
    }

    /**
     * An authenticated user and the roles the queue manager gives it. Reading needs no role;
     * creating and cancelling transfers, and creating and deleting monitors, needs {@value #REQUESTER}
     * or {@value #ADMIN}, the roles that may put requests on agents' command queues.
     *
     * @param name the user name
     * @param roles its roles
     */
    public record User(String name, java.util.Set<String> roles) {
        /** The role of users who may submit requests ({@code Permissions.REQUESTER}). */
        public static final String REQUESTER = "requester";
        /** The administrators' role. */
        public static final String ADMIN = "admin";

        boolean mayRequest() {
            return roles.contains(REQUESTER) || roles.contains(ADMIN);
        }
    }

    /** What the server answers: a status, a JSON body or none, and a {@code Location} or none. */
    record Answer(int status, ObjectNode body, String location) {
        static Answer ok(ObjectNode body) {
            return new Answer(200, body, null);
        }
    }

    /**
     * Answers one authenticated request for an API path.
     *
     * @param method the HTTP method
     * @param path the path, without the query
     * @param query the query parameters (the first value of each)
     * @param body the request body, read only for POST
     * @param user the authenticated user
     * @return the answer
     * @throws ApiError for every error, with its status and message id
     */
    Answer handle(String method, String path, Map<String, String> query, BodySupplier body, User user)
            throws ApiError {
        String p = path.endsWith("/") && path.length() > 1 ? path.substring(0, path.length() - 1) : path;
        if (p.equals(IBM_BASE + "/agent")) {
            get(method);
            return Answer.ok(agentList(query));
        }
        if (p.startsWith(IBM_BASE + "/agent/")) {
            get(method);
            return Answer.ok(agent(p.substring((IBM_BASE + "/agent/").length()), query));
        }
        if (p.equals(IBM_BASE + "/transfer")) {
            if ("POST".equals(method)) {
                authorize(user, "create a transfer");
                return create(body.read(), user.name());
            }
            get(method);
            return Answer.ok(transferList(query));
        }
        if (p.startsWith(IBM_BASE + "/transfer/")) {
            String id = transferId(p.substring((IBM_BASE + "/transfer/").length()));
            if ("DELETE".equals(method)) {
                authorize(user, "cancel transfer " + id);
                return cancel(id, query.get("agent"), user.name());
            }
            get(method);
            return Answer.ok(transfer(id, query));
        }
        if (p.equals(IBM_BASE + "/monitor")) {
            if ("POST".equals(method)) {
                authorize(user, "create a resource monitor");
                return monitors.create(body.read(), user.name());
            }
            get(method);
            return Answer.ok(monitors.list(query));
        }
        if (p.startsWith(IBM_BASE + "/monitor/")) {
            String rest = p.substring((IBM_BASE + "/monitor/").length());
            boolean history = rest.endsWith("/history");
            String name = decode(history ? rest.substring(0, rest.length() - "/history".length()) : rest);
            if ("DELETE".equals(method)) {
                authorize(user, (history ? "clear the history of" : "delete") + " resource monitor " + name);
                return monitors.delete(name, history, query, user.name());
            }
            if (history) {
                throw new ApiError(405, ApiError.NO_SUCH_RESOURCE, "method " + method + " is not allowed here", null);
            }
            get(method);
            return Answer.ok(monitors.show(name, query));
        }
        if (ScheduleResources.serves(p)) {
            if (ScheduleResources.changes(method)) {
                authorize(user, ("POST".equals(method) ? "create" : "delete") + " a scheduled transfer");
            }
            return schedules.handle(method, p, query, "POST".equals(method)
                    ? requestJson.parse(body.read(), new Originator(hostName, user.name(), null)) : null, user.name());
        }
        if (p.equals(OPENMFT_BASE + "/progress")) {
            get(method);
            return Answer.ok(progress());
        }
        throw new ApiError(404, ApiError.NO_SUCH_RESOURCE, "no resource " + path, "The resources are under "
                + IBM_BASE + "/agent, " + IBM_BASE + "/transfer, " + IBM_BASE + "/monitor, " + OPENMFT_BASE
                + "/progress and " + ScheduleResources.PATH + ".");
    }

    private static void authorize(User user, String what) throws ApiError {
        if (!user.mayRequest()) {
            throw new ApiError(403, ApiError.NOT_AUTHORIZED, "Not authorized to " + what + ".", "User "
                    + user.name() + " needs the role " + User.REQUESTER + " (mft qmgr user grant QMGR " + user.name()
                    + " " + User.REQUESTER + "); nothing was done.");
        }
    }

    /** Reads a request body on demand. */
    @FunctionalInterface
    interface BodySupplier {
        String read() throws ApiError;
    }

    static void get(String method) throws ApiError {
        if (!"GET".equals(method)) {
            throw new ApiError(405, ApiError.NO_SUCH_RESOURCE, "method " + method + " is not allowed here", null);
        }
    }

    private synchronized List<AgentView> readAgents() throws ApiError {
        Instant now = clock.instant();
        if (agentsRead == null || agentsReadAt.plus(AGENTS_REUSED).isBefore(now)) {
            try {
                agentsRead = agents.agents(null);
            } catch (QueueManagerException e) {
                throw coordinationUnavailable(e);
            }
            agentsReadAt = now;
        }
        return agentsRead;
    }

    static ApiError coordinationUnavailable(QueueManagerException e) {
        return new ApiError(503, ApiError.COORDINATION_UNAVAILABLE, "An attempt to connect to the coordination queue"
                + " manager failed: " + e.getMessage(), "Start the coordination queue manager and submit the request"
                        + " again.");
    }

    static AgentNamePattern pattern(Map<String, String> query, String name) throws ApiError {
        try {
            return AgentNamePattern.of(query.get(name));
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest(name + "=" + query.get(name) + ": " + e.getMessage());
        }
    }

    private ObjectNode agentList(Map<String, String> query) throws ApiError {
        AgentNamePattern names = pattern(query, "name");
        String state = query.get("state");
        boolean all = allAttributes(query);
        ObjectNode out = mapper.createObjectNode();
        ArrayNode list = out.putArray("agent");
        for (AgentView v : readAgents()) {
            if (names.matches(v.agentName()) && (state == null || v.shownStatus().equalsIgnoreCase(state))) {
                list.add(json.agent(v, all));
            }
        }
        return out;
    }

    private ObjectNode agent(String name, Map<String, String> query) throws ApiError {
        String wanted = decode(name);
        for (AgentView v : readAgents()) {
            if (v.agentName().equalsIgnoreCase(wanted)) {
                ObjectNode out = mapper.createObjectNode();
                out.putArray("agent").add(json.agent(v, allAttributes(query)));
                return out;
            }
        }
        throw new ApiError(404, ApiError.AGENT_NOT_FOUND, "Agent details cannot be found for "
                + wanted.toUpperCase(Locale.ROOT) + ".", "The agent has published no status on the coordination"
                        + " queue manager: is the name right, and was the agent started once?");
    }

    private ObjectNode transferList(Map<String, String> query) throws ApiError {
        int limit = DEFAULT_LIMIT;
        if (query.containsKey("limit")) {
            try {
                limit = Integer.parseInt(query.get("limit"));
            } catch (NumberFormatException e) {
                limit = -1;
            }
            if (limit < 1 || limit > MAX_LIMIT) {
                throw ApiError.badRequest("limit=" + query.get("limit") + " is not an integer from 1 to " + MAX_LIMIT);
            }
        }
        TransferQuery q = TransferQuery.latest(limit);
        if (query.get("agent") != null && !query.get("agent").isBlank()) {
            q = q.withAgent(query.get("agent"));
        }
        if (query.get("state") != null && !query.get("state").isBlank()) {
            q = q.withState(MftJson.state(query.get("state")));
        }
        Instant from = date(query, "from", false);
        Instant to = date(query, "to", true);
        List<StoredTransfer> found;
        try (LogStore store = history.open()) {
            found = store.transfers(q);
        } catch (LogStoreException e) {
            throw storeUnavailable(e);
        }
        ObjectNode out = mapper.createObjectNode();
        ArrayNode list = out.putArray("transfer");
        boolean all = allAttributes(query);
        for (StoredTransfer t : found) {
            Instant started = t.startTime();
            if ((from != null && (started == null || started.isBefore(from)))
                    || (to != null && (started == null || !started.isBefore(to)))) {
                continue;
            }
            list.add(json.transfer(t, all));
        }
        return out;
    }

    /** {@code from}/{@code to}: a day ({@code 2026-11-26}, UTC; {@code to} takes the whole day) or an instant. */
    private static Instant date(Map<String, String> query, String name, boolean endOfDay) throws ApiError {
        String v = query.get(name);
        if (v == null || v.isBlank()) {
            return null;
        }
        try {
            if (v.length() == 10) {
                LocalDate d = LocalDate.parse(v);
                return (endOfDay ? d.plusDays(1) : d).atStartOfDay(ZoneOffset.UTC).toInstant();
            }
            return Instant.parse(v);
        } catch (DateTimeParseException e) {
            throw ApiError.badRequest(name + "=" + v + " is not a date (2026-11-26) or an instant"
                    + " (2026-11-26T10:15:30Z)");
        }
    }

    private ObjectNode transfer(String id, Map<String, String> query) throws ApiError {
        StoredTransfer t = stored(id).orElseThrow(() -> new ApiError(404, ApiError.TRANSFER_NOT_FOUND,
                "Transfer details cannot be found for transfer ID " + id + ".", "The logger has stored no message"
                        + " about this transfer: is the id right, and was the logger running?"));
        ObjectNode out = mapper.createObjectNode();
        out.putArray("transfer").add(json.transfer(t, allAttributes(query)));
        return out;
    }

    private Optional<StoredTransfer> stored(String id) throws ApiError {
        try (LogStore store = history.open()) {
            return store.transfer(id);
        } catch (LogStoreException e) {
            throw storeUnavailable(e);
        }
    }

    private static ApiError storeUnavailable(LogStoreException e) {
        return new ApiError(503, ApiError.STORE_UNAVAILABLE, "the logger's store cannot be read: " + e.getMessage(),
                "Check the logger's database and submit the request again.");
    }

    private Answer create(String body, String user) throws ApiError {
        TransferRequestJson.Parsed parsed = requestJson.parse(body, new Originator(hostName, user, null));
        if (parsed.schedule() != null) {
            return schedules.create(parsed, user);
        }
        TransferRequest request = parsed.request();
        knownAgent(request.sourceAgent().agent(), "sourceAgent");
        knownAgent(request.destinationAgent().agent(), "destinationAgent");
        Acknowledgement ack;
        try {
            ack = client.onBehalfOf(user).send(TransferSpec.fromXml(new DocumentWriter().write(request)));
        } catch (MftClientException e) {
            throw failed(e, 400, "agent " + request.sourceAgent().agent() + " refused the transfer request");
        }
        String id = ack.transferId().toUpperCase(Locale.ROOT);
        ObjectNode out = mapper.createObjectNode();
        out.putArray("transfer").addObject().put("id", id);
        return new Answer(202, out, IBM_BASE + "/transfer/" + id);
    }

    /** An agent named in a request must have published a status: a typing error is not sent anywhere. */
    void knownAgent(String name, String where) throws ApiError {
        for (AgentView v : readAgents()) {
            if (v.agentName().equalsIgnoreCase(name)) {
                return;
            }
        }
        throw new ApiError(404, ApiError.AGENT_NOT_FOUND, "Agent details cannot be found for " + name + " ("
                + where + ").", "The agent has published no status on the coordination queue manager; nothing was"
                        + " sent.");
    }

    private Answer cancel(String id, String agentParam, String user) throws ApiError {
        String agent = agentParam;
        String qmgr = null;
        if (agent == null || agent.isBlank()) {
            StoredTransfer t = stored(id).orElseThrow(() -> new ApiError(404, ApiError.TRANSFER_NOT_FOUND,
                    "Transfer details cannot be found for transfer ID " + id + ".", "Name the transfer's source or"
                            + " destination agent with ?agent= to cancel a transfer the logger has not seen."));
            if (t.state().ended()) {
                throw new ApiError(409, ApiError.AGENT_REFUSED, "transfer " + id + " has ended ("
                        + t.state().restName() + "); there is nothing to cancel", null);
            }
            agent = t.sourceAgent();
            qmgr = t.sourceQMgr();
        }
        knownAgent(agent, "agent");
        try {
            client.onBehalfOf(user).cancel(agent, qmgr, id, null);
        } catch (MftClientException e) {
            if (e.resultCode().orElse(0) == NOT_FOUND) {
                throw new ApiError(404, ApiError.TRANSFER_NOT_FOUND, "Transfer " + id + " is not known to agent "
                        + agent + ": " + e.getMessage(), "It never ran there, or it has ended.");
            }
            throw failed(e, 409, "agent " + agent + " refused the cancel request");
        }
        ObjectNode out = mapper.createObjectNode();
        out.putArray("transfer").addObject().put("id", id).putObject("status").put("state", "cancelling");
        return new Answer(202, out, IBM_BASE + "/transfer/" + id);
    }

    /**
     * A failed request as the REST API answers it: an agent that refused (its result code), did not
     * answer, or a queue manager that cannot be used.
     */
    static ApiError failed(MftClientException e, int refusedStatus, String refused) {
        if (e.resultCode().isPresent()) {
            return new ApiError(refusedStatus, ApiError.AGENT_REFUSED,
                    refused + " (result code " + e.resultCode().getAsInt() + "): " + e.getMessage(), null);
        }
        return switch (e.code()) {
            case MftClientException.NOT_ACKNOWLEDGED -> new ApiError(504, ApiError.AGENT_REFUSED, e.getMessage(),
                    "Is the agent running? The request expires unread if it is not.");
            case MftClientException.QMGR_UNAVAILABLE, MftClientException.CONFIGURATION -> new ApiError(503,
                    ApiError.COORDINATION_UNAVAILABLE, "An attempt to connect to the command queue manager failed: "
                            + e.getMessage(), "Start the queue manager and submit the request again.");
            default -> new ApiError(502, ApiError.AGENT_REFUSED, e.getMessage(), null);
        };
    }

    private ObjectNode progress() {
        ObjectNode out = mapper.createObjectNode();
        ArrayNode list = out.putArray("progress");
        if (progress != null) {
            for (LiveProgress.Entry e : progress.snapshot()) {
                list.add(json.progress(e.progress(), e.bytesPerSecond()));
            }
        }
        return out;
    }

    private static String transferId(String raw) throws ApiError {
        String id = decode(raw);
        if (!TRANSFER_ID.matcher(id).matches()) {
            throw ApiError.badRequest("'" + id + "' is not a transfer ID: a transfer ID is 48 hexadecimal characters");
        }
        return id.toUpperCase(Locale.ROOT);
    }

    private static String decode(String segment) {
        return java.net.URLDecoder.decode(segment, java.nio.charset.StandardCharsets.UTF_8);
    }

    static boolean allAttributes(Map<String, String> query) {
        return "*".equals(query.get("attributes"));
    }
}
