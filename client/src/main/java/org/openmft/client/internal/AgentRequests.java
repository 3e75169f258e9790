package org.openmft.client.internal;

import java.time.Duration;
import java.util.Optional;

import org.openmft.agent.config.QueueNames;
import org.openmft.client.MftClientException;
import org.openmft.xml.DeleteScheduledTransferRequest;
import org.openmft.xml.Originator;
import org.openmft.xml.PingAgentRequest;
import org.openmft.xml.Reply;
import org.openmft.xml.ReplyTo;
import org.openmft.xml.StopAgentRequest;

/**
 * Ping, stop and schedule deletion requests to an agent's COMMAND queue (IBM's ftePingAgent,
 * fteStopAgent and fteDeleteScheduledTransfer), the same way for the command line and the client
 * API. They wait on a temporary reply queue
 * ({@link CommandChannel#open}): they wait seconds, and a request put again after a lost
 * connection would gain nothing.
 *
 * <p>Internal to OpenMFT; not part of the public API.
 */
public final class AgentRequests {
    private AgentRequests() {
    }

    /**
     * Pings {@code agent} and measures the round trip.
     *
     * @param agent the agent's name, upper case
     * @param agentQMgr the agent's queue manager when it is not the channel's, or null
     * @param timeout how long to wait for the answer, more than zero
     * @return the time from sending the ping to reading the answer
     * @throws MftClientException code 2 (BFGCL0214I) when the agent did not answer within
     *     {@code timeout}; 1 with the agent's words when it refused the ping
     */
    public static Duration ping(CommandChannel channel, Originator originator, String agent, String agentQMgr,
            Duration timeout) throws Exception {
        PingAgentRequest request = new PingAgentRequest("6.00", originator, agent, agentQMgr,
                new ReplyTo(channel.replyQueueName(), channel.qmgrName(), false));
        long start = System.nanoTime();
        channel.toQueueManager(agentQMgr);
        Optional<Reply> reply = channel.request(QueueNames.command(agent), request, timeout);
        Duration roundTrip = Duration.ofNanos(System.nanoTime() - start);
        accepted(answered(reply, () -> "BFGCL0214I: agent " + agent + " didn't respond to ping after "
                + seconds(timeout) + " seconds."));
        return roundTrip;
    }

    /**
     * Asks {@code agent} to stop and waits for it to confirm.
     *
     * @param agent the agent's name, upper case
     * @param agentQMgr the agent's queue manager when it is not the channel's, or null
     * @param immediate stop at once, interrupting transfers (they resume at the next start), rather
     *     than after the running ones finish
     * @param timeout how long to wait for the confirmation, more than zero
     * @throws MftClientException code 2 (BFGCL0035W) when the agent did not confirm within
     *     {@code timeout}; 1 with the agent's words when it refused
     */
    public static void stop(CommandChannel channel, Originator originator, String agent, String agentQMgr,
            boolean immediate, Duration timeout) throws Exception {
        StopAgentRequest request = new StopAgentRequest("1.00", originator, agent, immediate,
                new ReplyTo(channel.replyQueueName(), channel.qmgrName(), false));
        channel.toQueueManager(agentQMgr);
        accepted(answered(channel.request(QueueNames.command(agent), request, timeout), () -> "BFGCL0035W: agent "
                + agent + " has not confirmed that it stopped within " + seconds(timeout) + " s; it may still be"
                + " finishing transfers (use -i to interrupt them)"));
    }

    /**
     * Asks {@code agent} to delete its schedule {@code id} (fteDeleteScheduledTransfer).
     *
     * @param agent the source agent's name, upper case
     * @param agentQMgr the agent's queue manager when it is not the channel's, or null
     * @param timeout how long to wait for the answer
     * @return what the agent said
     * @throws MftClientException code 2 (BFGCL0214I) when the agent did not answer within
     *     {@code timeout} (it must be running to delete a schedule); 1 with the agent's words when it
     *     refused, as for a schedule it does not hold
     */
    public static String deleteSchedule(CommandChannel channel, Originator originator, String agent,
            String agentQMgr, long id, Duration timeout) throws Exception {
        channel.toQueueManager(agentQMgr);
        Reply reply = accepted(answered(channel.request(QueueNames.command(agent), new DeleteScheduledTransferRequest(
                "6.00", originator, id, new ReplyTo(channel.replyQueueName(), channel.qmgrName(), false)), timeout),
                () -> "BFGCL0214I: agent " + agent + " did not answer within " + seconds(timeout) + " seconds; the agent"
                        + " must be running to delete a schedule"));
        return String.join("; ", reply.supplements());
    }

    /**
     * The agent's answer.
     *
     * @param silence what to say when there is none
     * @throws MftClientException code 2 ({@link MftClientException#TIMED_OUT}) with {@code silence}
     *     when the agent did not answer in time
     */
    public static Reply answered(Optional<Reply> reply, java.util.function.Supplier<String> silence)
            throws MftClientException {
        return reply.orElseThrow(() -> new MftClientException(MftClientException.TIMED_OUT, silence.get()));
    }

    /** Checks that a wait is more than zero. */
    public static Duration positive(Duration wait, String what) {
        if (wait == null || wait.isNegative() || wait.isZero()) {
            throw new IllegalArgumentException(what + " " + wait + " is not more than zero");
        }
        return wait;
    }

    /** A wait in seconds as people write it: {@code 5}, or {@code 0.5} when not whole. */
    static String seconds(Duration d) {
        return d.toNanos() % 1_000_000_000L == 0 ? String.valueOf(d.toSeconds())
                : java.math.BigDecimal.valueOf(d.toNanos(), 9).stripTrailingZeros().toPlainString();
    }

    private static Reply accepted(Reply reply) throws MftClientException {
        if (reply.resultCode() != 0) {
            throw new MftClientException(MftClientException.FAILED, String.join("; ", reply.supplements()),
                    reply.resultCode());
        }
        return reply;
    }
}
