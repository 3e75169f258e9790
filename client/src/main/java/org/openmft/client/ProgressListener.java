package org.openmft.client;

/**
 * Receives a transfer's live progress from its acknowledgement until {@link TransferHandle#await}
 * receives its outcome or the handle is closed ({@link TransferHandle#progress()} is the same as a
 * {@code Flow.Publisher}, with bounded buffering).
 * Events arrive on the messaging provider's thread, one at a time; a listener must return quickly
 * and must not call back into the client.
 */
@FunctionalInterface
public interface ProgressListener {
    /**
     * One progress publication of the source agent.
     *
     * @param event where the transfer is
     */
    void onProgress(ProgressEvent event);

    /**
     * Progress cannot be followed (no coordination queue manager is configured, or it cannot be
     * reached); the outcome is still waited for. Does nothing unless overridden.
     *
     * @param reason why, for people
     */
    default void onProgressUnavailable(String reason) {
    }
}
