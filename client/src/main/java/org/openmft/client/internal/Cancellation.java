package org.openmft.client.internal;

import java.time.Duration;
import java.util.Optional;

import org.openmft.agent.config.QueueNames;
import org.openmft.client.MftClientException;
import org.openmft.xml.CancelRequest;
import org.openmft.xml.Originator;
import org.openmft.xml.Reply;
import org.openmft.xml.ReplyTo;

/**
 * Cancelling a transfer (IBM's {@code <cancel>} document) through an agent's COMMAND queue, and
 * waiting for the transfer to end, the same way for {@code mft transfer cancel} and the client API.
 * A cancel may arrive twice harmlessly, so each one is put again after a reconnect when need be.
 *
 * <p>Internal to OpenMFT; not part of the public API.
 */
public final class Cancellation {
    /** How long the agent has to answer, as for every request (IBM's result 3 after it). */
    public static final Duration ACKNOWLEDGEMENT_WAIT = Duration.ofSeconds(30);
    /** IBM's result code: the transfer id is not known to the agent. */
    public static final int NOT_FOUND = 26;
    /** IBM's result code: a cancel of this transfer is already in progress. */
    public static final int ALREADY_CANCELLING = 27;
    private static final Duration POLL = Duration.ofMillis(500);

    private Cancellation() {
    }

    /**
     * A transfer id, checked: 48 hexadecimal characters.
     *
     * @return the id as a cancel request carries it
     * @throws MftClientException code 1, BFGCL0400E, when it is not a transfer id
     */
    public static String transferId(String transferId) throws MftClientException {
        try {
            return new CancelRequest("6.00", CommandChannel.originator(), transferId).transferId();
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new MftClientException(MftClientException.FAILED, "BFGCL0400E: '" + transferId + "' is not a"
                    + " transfer ID: a transfer ID is 48 hexadecimal characters; nothing was sent");
        }
    }

    /**
     * Sends the first cancel and returns the agent's answer when it accepted (result 0, or 27: a
     * cancel is in progress already).
     *
     * @param originator who asks
     * @param name the agent's name, upper case
     * @throws MftClientException code 3 when the agent did not answer, 1 when it does not know the
     *     transfer (BFGCL0039E) or refused the cancel (BFGCL0403E), with the agent's result code
     */
    public static Reply ask(CommandChannel channel, Originator originator, String name, String id) throws Exception {
        Optional<Reply> reply = channel.requestIdempotent(QueueNames.command(name), request(channel, originator, id),
                ACKNOWLEDGEMENT_WAIT);
        if (reply.isEmpty()) {
            throw new MftClientException(MftClientException.NOT_ACKNOWLEDGED, "BFGCL0213E: agent " + name + " did not"
                    + " answer the cancel request within " + ACKNOWLEDGEMENT_WAIT.toSeconds() + " seconds; is it"
                    + " running?");
        }
        Reply r = reply.get();
        int code = r.resultCode();
        if (code != 0 && code != ALREADY_CANCELLING) {
            String text = String.join("; ", r.supplements());
            if (code == NOT_FOUND) {
                throw new MftClientException(MftClientException.FAILED, text.isEmpty() ? "BFGCL0039E: Transfer " + id
                        + " is not known to agent " + name + "." : text, code);
            }
            throw new MftClientException(MftClientException.FAILED, "BFGCL0403E: agent " + name + " refused the"
                    + " cancel request (result code " + code + ")" + (text.isEmpty() ? "" : ": " + text), code);
        }
        return r;
    }

    /** What the agent said when it accepted the cancel, as one line. */
    public static String accepted(Reply first, String name, String id) {
        return first.supplements().isEmpty() ? "BFGCL0404I: Agent " + name + " accepted the cancel request for"
                + " transfer " + id + "." : String.join("; ", first.supplements());
    }

    /**
     * Waits until the agent no longer knows the transfer: it forgets a transfer once it has ended,
     * so asking again until it answers "not known" is the wait. A repeated cancel of a transfer
     * being cancelled is harmless.
     *
     * @return true when the transfer ended within {@code wait}
     */
    public static boolean awaitEnd(CommandChannel channel, Originator originator, String name, String id,
            Duration wait) throws Exception {
        long deadline = System.nanoTime() + wait.toNanos();
        while (deadline - System.nanoTime() > POLL.toNanos()) {
            Thread.sleep(POLL.toMillis());
            Duration left = Duration.ofNanos(Math.max(deadline - System.nanoTime(), POLL.toNanos()));
            Optional<Reply> again = channel.requestIdempotent(QueueNames.command(name), request(channel, originator, id),
                    left.compareTo(ACKNOWLEDGEMENT_WAIT) < 0 ? left : ACKNOWLEDGEMENT_WAIT);
            if (again.isPresent() && again.get().resultCode() == NOT_FOUND) {
                return true;
            }
        }
        return false;
    }

    private static CancelRequest request(CommandChannel channel, Originator originator, String id) throws Exception {
        return new CancelRequest("6.00", originator, id,
                new ReplyTo(channel.replyQueueName(), channel.qmgrName(), false));
    }
}
