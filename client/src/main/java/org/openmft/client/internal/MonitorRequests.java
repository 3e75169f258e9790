package org.openmft.client.internal;

import java.time.Duration;
import java.util.function.Function;

import org.openmft.agent.config.QueueNames;
import org.openmft.client.MftClientException;
import org.openmft.xml.CommandDocument;
import org.openmft.xml.Reply;
import org.openmft.xml.ReplyTo;

/**
 * Resource monitor requests to an agent's COMMAND queue (IBM's fteCreateMonitor, fteDeleteMonitor,
 * fteStartMonitor, fteStopMonitor, fteClearMonitorHistory): one Monitor.xsd document, answered by
 * the agent at once, on a temporary reply queue ({@link CommandChannel#open}).
 *
 * <p>Internal to OpenMFT; not part of the public API.
 */
public final class MonitorRequests {
    /** How long the agent has to answer, as IBM's commands wait. */
    public static final Duration ANSWER_WAIT = Duration.ofSeconds(30);

    private MonitorRequests() {
    }

    /**
     * Sends the document {@code document} makes for the channel's reply queue and waits for the answer.
     *
     * @param agent the monitoring agent, upper case
     * @param monitor the monitor's name, for messages
     * @throws MftClientException code 2 (BFGCL0214I) when the agent did not answer within
     *     {@link #ANSWER_WAIT}; 1 (BFGCL0252E, with the agent's result code) when it refused
     */
    public static void send(CommandChannel channel, String agent, String monitor,
            Function<ReplyTo, CommandDocument> document) throws Exception {
        Reply r = AgentRequests.answered(channel.request(QueueNames.command(agent),
                document.apply(new ReplyTo(channel.replyQueueName(), channel.qmgrName(), false)), ANSWER_WAIT),
                () -> "BFGCL0214I: agent " + agent + " did not answer about monitor " + monitor + " within "
                        + ANSWER_WAIT.toSeconds() + " seconds; is it running?");
        if (r.resultCode() != 0) {
            throw new MftClientException(MftClientException.FAILED, "BFGCL0252E: result " + r.resultCode() + ": "
                    + String.join("; ", r.supplements()), r.resultCode());
        }
    }
}
