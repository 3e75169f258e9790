package org.openmft.agent.messaging;

/**
 * The Artemis settings that decide whether file chunks travel as normal messages. Artemis sends
 * any message bigger than the client's {@code minLargeMessageSize} (100 KiB by default) as a
 * <em>large message</em>: fragmented, and written to a file on the broker even when non-durable.
 * That path measured 12 to 20 times slower for 256 KiB chunks on our machines
 * (peers-and-transport §C.1), so both ends are raised together:
 * <ul>
 *   <li>clients set {@code minLargeMessageSize} to {@link #CLIENT_MIN_LARGE_MESSAGE_BYTES};</li>
 *   <li>the broker's journal buffer, which bounds the largest record it accepts without
 *       converting, is {@link #BROKER_MAX_RECORD_BYTES}.</li>
 * </ul>
 * A chunk of up to {@link #MAX_NORMAL_MESSAGE_BYTES} plus our headers therefore never falls onto
 * the large-message path.
 */
public final class ArtemisTuning {
    /** The largest chunk payload that is guaranteed to travel as a normal message: 4 MiB. */
    public static final int MAX_NORMAL_MESSAGE_BYTES = 4 << 20;
    /** The client-side threshold above which a message becomes a large message: 5 MiB. */
    public static final int CLIENT_MIN_LARGE_MESSAGE_BYTES = 5 << 20;
    /** The broker's journal buffer size, and so the largest record it takes whole: 8 MiB. */
    public static final int BROKER_MAX_RECORD_BYTES = 8 << 20;
    /**
     * Bytes a consumer may have delivered ahead of {@code receive}: 4 MiB, enough for a window of
     * default-sized chunks without starving the other consumers of the same queue.
     */
    public static final int CONSUMER_WINDOW_BYTES = 4 << 20;
    /** Producer credits requested from the broker at a time: 2 MiB. */
    public static final int PRODUCER_WINDOW_BYTES = 2 << 20;

    private ArtemisTuning() {
    }

    /** The query string every Artemis connection factory of ours carries. */
    public static String clientUrlParameters() {
        return "minLargeMessageSize=" + CLIENT_MIN_LARGE_MESSAGE_BYTES
                + "&consumerWindowSize=" + CONSUMER_WINDOW_BYTES
                + "&producerWindowSize=" + PRODUCER_WINDOW_BYTES
                + "&compressLargeMessages=false";
    }
}
