package org.openmft.client;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import org.openmft.client.internal.CommandChannel;
import org.openmft.client.internal.ProgressFeed;
import org.openmft.xml.ItemResult;
import org.openmft.xml.Reply;

/**
 * A transfer the source agent has accepted, whose outcome can be awaited: it owns the reply queue
 * the agent sends the outcome to. On Artemis that queue is durable ({@code WMQFTE.<random>}) and the
 * wait survives a lost connection and a restart of the queue manager (the {@link ConnectionListener}
 * is told); it is deleted by {@link #close}, or by a shutdown hook when the JVM ends first. On IBM MQ
 * it is a temporary queue and a lost connection ends the wait with code 75.
 *
 * <p>Not thread-safe: one thread awaits; {@link #close} may be called from another.
 */
public final class TransferHandle implements AutoCloseable {
    private final CommandChannel channel;
    private final String transferId;
    private final List<String> messages;
    private ProgressFeed feed;

    TransferHandle(CommandChannel channel, ProgressFeed feed, String transferId, List<String> messages) {
        this.channel = channel;
        this.feed = feed;
        this.transferId = transferId;
        this.messages = List.copyOf(messages);
    }

    /**
     * The transfer id the agent gave the request.
     *
     * @return 48 hexadecimal characters
     */
    public String transferId() {
        return transferId;
    }

    /**
     * What the agent said when it accepted the request besides the id, maybe nothing.
     *
     * @return the agent's messages
     */
    public List<String> messages() {
        return messages;
    }

    /**
     * Waits for the transfer's outcome. Progress events go to the submit's {@link ProgressListener}
     * while this waits (starting with the newest one published before), and stop when it returns.
     *
     * @param timeout the longest to wait, more than zero
     * @return the outcome, or empty when none arrived in time (the transfer may still be running)
     * @throws MftClientException code 75 when the connection was lost and the reply queue went with it
     */
    public Optional<TransferOutcome> await(Duration timeout) throws MftClientException {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout " + timeout + " is not more than zero");
        }
        try {
            if (feed != null) {
                feed.follow(transferId);
            }
            return channel.awaitReply(transferId, timeout).map(TransferHandle::outcome);
        } catch (Exception e) {
            throw MftClient.failure(e);
        } finally {
            stopProgress();
        }
    }

    /**
     * When the last {@link #await} ended while the connection to the queue manager was lost: since
     * when and why.
     *
     * @return the explanation, or empty while connected
     */
    public Optional<String> lostConnection() {
        return channel.lostConnection();
    }

    private void stopProgress() {
        ProgressFeed f = feed;
        feed = null;
        if (f != null) {
            f.close();
        }
    }

    /** Stops following progress and deletes the reply queue, with any outcome not yet awaited. */
    @Override
    public void close() {
        stopProgress();
        channel.close();
    }

    static TransferOutcome outcome(Reply r) {
        return new TransferOutcome(r.requestId(), r.resultCode(), r.supplements(), r.items().stream()
                .map((ItemResult i) -> new ItemOutcome(i.source(), i.destination(), i.resultCode(), i.supplement()))
                .toList());
    }
}
