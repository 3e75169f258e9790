package org.openmft.rest;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

import org.openmft.coordination.logger.StoredItem;
import org.openmft.coordination.logger.StoredTransfer;
import org.openmft.coordination.logger.TransferState;
import org.openmft.coordination.query.AgentView;
import org.openmft.xml.MonitorDefinition;
import org.openmft.xml.MonitorListing;
import org.openmft.xml.log.AgentStatus;
import org.openmft.xml.log.TransferProgress;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The JSON of IBM MQ's REST API for MFT (v2 {@code admin/mft/agent} and {@code admin/mft/transfer}
 * response bodies), built from what the coordination queue manager and the logger's store know.
 * Attribute names are IBM's; what OpenMFT adds is named in the architecture document
 * ({@code statistics.bytesSent}, {@code status.resultCode}, the {@code progress} object). Stateless.
 */
final class MftJson {
    private final ObjectMapper mapper;

    MftJson(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /** IBM's transfer states. */
    /**
     * The state a query's {@code state=} names.
     *
     * @throws ApiError 400 naming the allowed values
     */
    static TransferState state(String ibmState) throws ApiError {
        return TransferState.ofRestName(ibmState).orElseThrow(() -> ApiError.badRequest("state=" + ibmState
                + " is not a transfer state: use started, inProgress, successful, partiallySuccessful, failed or"
                + " cancelled"));
    }

    /** An agent, as {@code GET admin/mft/agent} lists it; with {@code all} the general and connection details. */
    ObjectNode agent(AgentView view, boolean all) {
        AgentStatus s = view.status();
        ObjectNode a = mapper.createObjectNode();
        a.put("name", s.agentName().toUpperCase(Locale.ROOT));
        a.put("type", s.agentType() == null ? "standard" : s.agentType().toLowerCase(Locale.ROOT));
        a.put("state", view.shownStatus().toLowerCase(Locale.ROOT));
        if (!all) {
            return a;
        }
        ObjectNode g = a.putObject("general");
        putIfPresent(g, "description", s.description());
        g.put("statusAge", age(view.age()));
        putIfPresent(g, "statusPublishTime", s.publishTime() == null ? null : s.publishTime().toString());
        g.put("statusPublicationRate", s.publishRateMinSeconds());
        putIfPresent(g, "version", s.version());
        putIfPresent(g, "operatingSystem", s.osName());
        putIfPresent(g, "timeZone", s.timeZone());
        putIfPresent(g, "hostName", s.hostName());
        putIfPresent(g, "startTime", s.startTime() == null ? null : s.startTime().toString());
        g.put("maximumSourceTransfers", s.maxSourceTransfers());
        g.put("maximumDestinationTransfers", s.maxDestinationTransfers());
        g.put("maximumQueuedTransfers", s.maxQueuedTransfers());
        g.put("queuedTransfers", s.queuedTransfers());
        g.put("sourceTransfers", s.sourceTransferStates().size());
        g.put("destinationTransfers", s.destinationTransferStates().size());
        ObjectNode q = a.putObject("qmgrConnection");
        putIfPresent(q, "qmgrName", s.queueManager());
        putIfPresent(q, "qmgrHost", s.queueManagerHost());
        if (s.queueManagerPort() > 0) {
            q.put("qmgrPort", s.queueManagerPort());
        }
        putIfPresent(q, "qmgrChannel", s.queueManagerChannel());
        return a;
    }

    /**
     * A resource monitor, as {@code GET admin/mft/monitor} lists it (IBM's "response body attributes
     * for list resource monitor"): {@code name}, {@code type}, {@code agentName}, {@code state}; with
     * {@code all} also {@code general} (poll interval, matches per task) and {@code resource}.
     */
    ObjectNode monitor(MonitorListing l, boolean all) {
        MonitorDefinition m = l.definition();
        ObjectNode o = mapper.createObjectNode();
        o.put("name", m.name());
        o.put("type", m.queueMonitor() ? "queue" : "directory");
        o.put("agentName", l.agent().toUpperCase(Locale.ROOT));
        o.put("state", l.started() ? MonitorListing.STARTED : MonitorListing.STOPPED);
        if (all) {
            ObjectNode g = o.putObject("general");
            g.put("pollInterval", m.pollInterval().value());
            g.put("pollIntervalUnit", m.pollInterval().unit().xml());
            g.put("matchesPerTask", m.batchSize());
            ObjectNode r = o.putObject("resource");
            r.put("name", m.queueMonitor() ? m.queue() : m.directory());
            if (!m.queueMonitor()) {
                r.put("recursionLevel", m.recursionLevel());
            }
        }
        return o;
    }

    /** {@code H:MM:SS}, as fteListAgents shows the age of a status; empty when unknown. */
    static String age(Duration age) {
        if (age == null) {
            return "";
        }
        long s = Math.max(0, age.toSeconds());
        return String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
    }

    /**
     * A transfer, as {@code GET admin/mft/transfer} returns it: the default attributes, and with
     * {@code all} its items ({@code transferSet}) when the store returned them.
     */
    ObjectNode transfer(StoredTransfer t, boolean all) {
        ObjectNode o = mapper.createObjectNode();
        o.put("id", t.id().toUpperCase(Locale.ROOT));
        agentRef(o.putObject("sourceAgent"), t.sourceAgent(), t.sourceQMgr(), all);
        agentRef(o.putObject("destinationAgent"), t.destinationAgent(), t.destinationQMgr(), all);
        ObjectNode originator = o.putObject("originator");
        putIfPresent(originator, "host", t.originatorHost());
        putIfPresent(originator, "userId", t.originatorUser());
        if (t.jobName() != null) {
            o.putObject("job").put("name", t.jobName());
        }
        ObjectNode status = o.putObject("status");
        status.put("state", t.state().restName());
        if (t.resultCode() != null) {
            status.put("resultCode", t.resultCode());
        }
        if (!t.supplements().isEmpty()) {
            status.put("description", String.join("; ", t.supplements()));
        }
        ObjectNode st = o.putObject("statistics");
        putIfPresent(st, "startTime", time(t.startTime()));
        putIfPresent(st, "endTime", time(t.endTime()));
        if (t.totalItems() >= 0) {
            st.put("numberOfFiles", t.totalItems());
        }
        if (t.bytesSent() >= 0) {
            st.put("bytesSent", t.bytesSent());
        }
        if (!t.items().isEmpty()) {
            int ok = 0;
            int failed = 0;
            int warned = 0;
            for (StoredItem i : t.items()) {
                switch (i.resultCode()) {
                    case 0 -> ok++;
                    case 1 -> failed++;
                    default -> warned++;
                }
            }
            st.put("numberOfFileSuccesses", ok);
            st.put("numberOfFileFailures", failed);
            st.put("numberOfFileWarnings", warned);
        }
        if (all && !t.items().isEmpty()) {
            ArrayNode items = o.putObject("transferSet").putArray("item");
            for (StoredItem i : t.items()) {
                items.add(item(i));
            }
        }
        return o;
    }

    private ObjectNode item(StoredItem i) {
        ObjectNode o = mapper.createObjectNode();
        putIfPresent(o, "mode", i.mode());
        ObjectNode src = o.putObject("source");
        src.put("name", i.source());
        if (i.sourceSize() >= 0) {
            src.put("size", i.sourceSize());
        }
        ObjectNode dst = o.putObject("destination");
        putIfPresent(dst, "name", i.destination());
        if (i.destinationSize() >= 0) {
            dst.put("size", i.destinationSize());
        }
        if (i.checksum() != null) {
            ObjectNode cs = o.putObject("checksum");
            putIfPresent(cs, "method", i.checksumMethod());
            cs.put("value", i.checksum());
        }
        ObjectNode status = o.putObject("status");
        status.put("state", switch (i.resultCode()) {
            case 0 -> "successful";
            case 1 -> "failed";
            default -> "warning";
        });
        putIfPresent(status, "description", i.supplement());
        return o;
    }

    /** A live progress publication of a running transfer (OpenMFT's own object). */
    ObjectNode progress(TransferProgress p, double bytesPerSecond) {
        ObjectNode o = mapper.createObjectNode();
        o.put("id", p.transferId().toUpperCase(Locale.ROOT));
        putIfPresent(o, "sourceAgent", p.sourceAgent() == null ? null : p.sourceAgent().agent());
        putIfPresent(o, "destinationAgent", p.destinationAgent() == null ? null : p.destinationAgent().agent());
        putIfPresent(o, "time", time(p.time()));
        o.put("bytesSent", p.bytes());
        o.put("seconds", p.seconds());
        o.put("currentItem", p.currentItem());
        o.put("totalItems", p.totalItems());
        o.put("currentTransferred", p.currentTransferred());
        o.put("currentSize", p.currentSize());
        putIfPresent(o, "currentSource", p.currentSource());
        putIfPresent(o, "currentDestination", p.currentDestination());
        if (bytesPerSecond > 0) {
            o.put("bytesPerSecond", Math.round(bytesPerSecond));
        }
        return o;
    }

    private static void agentRef(ObjectNode o, String name, String qmgr, boolean all) {
        putIfPresent(o, "name", name);
        if (all) {
            putIfPresent(o, "qmgrName", qmgr);
        }
    }

    private static String time(Instant t) {
        return t == null ? null : t.toString();
    }

    private static void putIfPresent(ObjectNode o, String name, String value) {
        if (value != null) {
            o.put(name, value);
        }
    }
}
