package org.openmft.client;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Flow;

import org.openmft.client.internal.CommandChannel;
import org.openmft.client.internal.DropOldestPublisher;
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
 * <p>Its progress is a {@link Flow.Publisher} ({@link #progress()}) as well as the submit's
 * {@link ProgressListener}.
 *
 * <p>Not thread-safe: one thread awaits; {@link #close} and {@link #progress()} may be called from others.
 */
public final class TransferHandle implements AutoCloseable {
    /**
     * The most progress events kept for one subscriber of {@link #progress()} that has not asked
     * for them (or not yet taken them): {@value}. When a subscriber falls further behind, its
     * oldest waiting event is dropped, so it sees the newest.
     */
    public static final int PROGRESS_BUFFER = 16;

    private final CommandChannel channel;
    private final String transferId;
    private final List<String> messages;
    private final DropOldestPublisher<ProgressEvent> events;
    private volatile ProgressFeed feed;

    TransferHandle(CommandChannel channel, ProgressFeed feed, DropOldestPublisher<ProgressEvent> events,
            String transferId, List<String> messages) {
        this.channel = channel;
        this.feed = feed;
        this.events = events;
        this.transferId = transferId;
        this.messages = List.copyOf(messages);
    }

    /**
     * The transfer's progress as a reactive stream ({@code java.util.concurrent.Flow}): each event is
     * one progress publication of the source agent (bytes and items so far, the current file, the
     * rate: {@link ProgressEvent#bytesPerSecond()}). A subscriber gets the newest event published
     * before it subscribed, if any, then each new one. The stream completes ({@code onComplete})
     * when {@link #await} receives the outcome; it fails ({@code onError}) with an
     * {@link MftClientException} when {@code await} fails, and with a
     * {@link java.util.concurrent.CancellationException} when the handle is closed before the
     * outcome arrived. A timed-out {@code await} does not end it.
     *
     * <p>Buffering is bounded: at most {@link #PROGRESS_BUFFER} events wait for each subscriber,
     * and when more arrive the oldest waiting one is dropped (progress events supersede each other,
     * so a slow subscriber sees the latest state, never a growing backlog). Events are delivered
     * on a thread of the common {@code ForkJoinPool}, one at a time per subscriber, in order;
     * nothing a subscriber does holds up the transfer or the other subscribers. Without a
     * coordination queue manager (or when it cannot be reached) there are no events, and the
     * stream still ends with the outcome.
     *
     * @return the publisher; each call returns the same one
     */
    public Flow.Publisher<ProgressEvent> progress() {
        return events;
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
     * and to {@link #progress()} until the outcome arrives; they go on after a time-out.
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
        Optional<TransferOutcome> outcome;
        try {
            outcome = channel.awaitReply(transferId, timeout).map(TransferHandle::outcome);
        } catch (Exception e) {
            MftClientException failure = MftClient.failure(e);
            stopProgress();
            events.fail(failure);
            throw failure;
        }
        if (outcome.isPresent()) {
            stopProgress();
            events.complete();
        }
        return outcome;
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

    private synchronized void stopProgress() {
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
        events.fail(new CancellationException("transfer " + transferId + ": the handle was closed before the"
                + " outcome arrived"));
        channel.close();
    }

    static TransferOutcome outcome(Reply r) {
        return new TransferOutcome(r.requestId(), r.resultCode(), r.supplements(), r.items().stream()
                .map((ItemResult i) -> new ItemOutcome(i.source(), i.destination(), i.resultCode(), i.supplement()))
                .toList());
    }
}
