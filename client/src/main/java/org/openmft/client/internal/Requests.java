package org.openmft.client.internal;

import java.time.Duration;
import java.util.Optional;

import org.openmft.agent.config.QueueNames;
import org.openmft.client.MftClientException;
import org.openmft.xml.CommandDocument;
import org.openmft.xml.Reply;

/**
 * Putting a request on an agent's COMMAND queue and reading its acknowledgement, the same way for
 * the command line and the client API.
 *
 * <p>Internal to OpenMFT; not part of the public API.
 */
public final class Requests {
    /** How long the agent has to acknowledge a request, as IBM's commands wait. */
    public static final Duration ACK_WAIT = Duration.ofSeconds(30);

    private Requests() {
    }

    /**
     * Sends {@code document} to {@code agent}'s COMMAND queue and waits for the agent to accept it.
     *
     * @param agent the agent's name, upper case
     * @return the acknowledgement, result code 0; its request id is the transfer id
     * @throws MftClientException code 3 (BFGCL0213E) when the agent did not answer in {@link #ACK_WAIT},
     *     the agent's result code (with its messages) when it refused the request
     */
    public static Reply acknowledged(CommandChannel channel, String agent, CommandDocument document) throws Exception {
        Optional<Reply> ack = channel.request(QueueNames.command(agent), document, ACK_WAIT);
        if (ack.isEmpty()) {
            throw new MftClientException(MftClientException.NOT_ACKNOWLEDGED, "BFGCL0213E: agent " + agent
                    + " did not acknowledge the request within " + ACK_WAIT.toSeconds() + " seconds"
                    + channel.lostConnection().map(why -> " (" + why + "); the request may still be acted on")
                            .orElse("; is it running?"));
        }
        Reply a = ack.get();
        if (a.resultCode() != 0) {
            throw new MftClientException(a.resultCode(), String.join("; ", a.supplements()), a.resultCode());
        }
        return a;
    }
}
