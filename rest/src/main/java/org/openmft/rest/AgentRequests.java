package org.openmft.rest;

import java.time.Duration;
import java.util.Objects;

import javax.jms.Connection;
import javax.jms.JMSException;
import javax.jms.Message;
import javax.jms.MessageConsumer;
import javax.jms.MessageProducer;
import javax.jms.Session;
import javax.jms.TemporaryQueue;
import javax.jms.TextMessage;

import org.openmft.agent.config.QueueNames;
import org.openmft.agent.messaging.ProviderErrors;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.messaging.Routing;
import org.openmft.agent.qmgr.QueueManagerException;
import org.openmft.xml.CommandDocument;
import org.openmft.xml.DocumentWriter;
import org.openmft.xml.MalformedRequestException;
import org.openmft.xml.Reply;
import org.openmft.xml.RequestParser;

/**
 * The one place where the REST API talks to agents: it puts IBM's request documents (a
 * {@code <managedTransfer>}, a {@code <cancel>}) on an agent's {@code SYSTEM.FTE.COMMAND.<agent>}
 * queue through the command queue manager, as {@code fteCreateTransfer} and
 * {@code fteCancelTransfer} do, and waits for the agent's acknowledgement on a temporary reply
 * queue. It is deliberately the only seam, so that it can later call the shared client API
 * instead of repeating the CLI's {@code CommandChannel}.
 *
 * <p>Each request opens its own short connection: requests are rare (a person or an application
 * submits them), and a connection per request needs no reconnection logic. A request is put once;
 * when the connection fails while it is put the caller is told that it may or may not have arrived.
 * Thread-safe.
 */
public final class AgentRequests {
    /** How long an agent has to acknowledge a request, as the CLI waits (IBM's result 3 after it). */
    public static final Duration ACKNOWLEDGEMENT_WAIT = Duration.ofSeconds(30);

    private final QueueManagerConnector commandQMgr;
    private final String qmgrName;
    private final Routing routing;
    private final Duration wait;

    /**
     * Requests through a command queue manager.
     *
     * @param commandQMgr a connector to the command queue manager
     * @param wait how long to wait for an acknowledgement
     */
    public AgentRequests(QueueManagerConnector commandQMgr, Duration wait) {
        this.commandQMgr = Objects.requireNonNull(commandQMgr, "commandQMgr");
        this.qmgrName = commandQMgr.endpoint().qmgrName();
        this.routing = new Routing(commandQMgr.endpoint().provider(), qmgrName);
        this.wait = Objects.requireNonNull(wait, "wait");
    }

    /**
     * Puts a request on an agent's command queue and waits for its acknowledgement.
     *
     * @param agent the agent's name
     * @param agentQMgr the agent's queue manager, or null for the command queue manager
     * @param document the request
     * @return the agent's first reply (its acknowledgement); its request id is the transfer id
     * @throws ApiError 503 when the command queue manager cannot be used, 504 when the agent does not
     *     answer in time
     */
    public Reply send(String agent, String agentQMgr, CommandDocument document) throws ApiError {
        String queue = QueueNames.command(agent);
        String target = agentQMgr == null || agentQMgr.isBlank() || agentQMgr.equals(qmgrName) ? null : agentQMgr;
        String sent = null;
        try (Connection c = commandQMgr.connect()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            TemporaryQueue replies = s.createTemporaryQueue();
            c.start();
            TextMessage m = s.createTextMessage(new DocumentWriter().write(document));
            m.setJMSReplyTo(replies);
            if (routing.isRemote(target)) {
                routing.address(m, queue, target);
                m.setStringProperty(Routing.REPLY_TO_QMGR, qmgrName);
            }
            try (MessageProducer p = s.createProducer(routing.destination(s, queue, target))) {
                // A request to an agent that is not running must not act when it starts, long after.
                p.setTimeToLive(wait.toMillis());
                p.send(m);
            }
            sent = m.getJMSMessageID();
            try (MessageConsumer consumer = s.createConsumer(replies, "JMSCorrelationID = '" + sent + "'")) {
                Message reply = consumer.receive(wait.toMillis());
                if (reply == null) {
                    throw new ApiError(504, ApiError.AGENT_REFUSED, "agent " + agent + " did not acknowledge the"
                            + " request within " + wait.toSeconds() + " seconds", "Is the agent running? The request"
                                    + " expires unread if it is not.");
                }
                String text = reply instanceof TextMessage t ? t.getText() : null;
                return new RequestParser().parseReply(text == null ? "" : text);
            }
        } catch (QueueManagerException e) {
            throw unavailable(e.getMessage(), sent);
        } catch (JMSException e) {
            throw unavailable(ProviderErrors.describe(e), sent);
        } catch (MalformedRequestException e) {
            throw new ApiError(502, ApiError.AGENT_REFUSED, "the reply of agent " + agent + " cannot be read: "
                    + e.getMessage(), null);
        }
    }

    private ApiError unavailable(String why, String sent) {
        return new ApiError(503, ApiError.COORDINATION_UNAVAILABLE, "An attempt to connect to the command queue"
                + " manager " + qmgrName + " failed: " + why, sent == null ? "Nothing was sent."
                        : "The request was sent and may still be acted on.");
    }
}
