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
    /**
     * A channel's (core bridge's) producer credits: none ({@code -1}, no flow control by credits).
     * A bridge sends to the remote queue manager's {@code SYSTEM.CHANNEL.INBOUND} address, whose
     * exclusive divert leaves it empty, so credits there never hold anything back; they only cost
     * a round trip of the link for every half window (Artemis's default bridge window, 1 MiB, and
     * ours, 2 MiB, measured 8 MB/s at a 100 ms round trip). What bounds the chunks in flight over a
     * channel is the sources' flow-control windows.
     */
    public static final int CHANNEL_PRODUCER_WINDOW_BYTES = -1;
    /**
     * Socket buffer sizes of TCP connections (client connectors, channels, the listener's
     * acceptor): {@code -1}, left to the operating system. Artemis's default is a fixed 1 MiB,
     * and a fixed {@code SO_RCVBUF}/{@code SO_SNDBUF} turns off Linux's autotuning (which grows a
     * connection's buffers to its bandwidth-delay product, up to {@code net.ipv4.tcp_rmem} and
     * {@code tcp_wmem}); worse, the kernel silently clamps a fixed size to
     * {@code net.core.rmem_max}/{@code wmem_max} (208 KiB on many distributions). TCP moves at
     * most one window per round trip, so 1 MiB caps a connection at about 40 MB/s over 25 ms
     * and 10 MB/s over 100 ms; on a loopback or a LAN the autotuned buffers are as fast.
     */
    public static final int TCP_BUFFER_BYTES = -1;

    private ArtemisTuning() {
    }

    /** The query string every Artemis connection factory of ours carries. */
    public static String clientUrlParameters() {
        return "minLargeMessageSize=" + CLIENT_MIN_LARGE_MESSAGE_BYTES
                + "&consumerWindowSize=" + CONSUMER_WINDOW_BYTES
                + "&producerWindowSize=" + PRODUCER_WINDOW_BYTES
                + "&compressLargeMessages=false";
    }

    /** The query parameters of a {@code tcp://} connector (a client's or a channel's): the socket buffers. */
    public static String tcpUrlParameters() {
        return "tcpSendBufferSize=" + TCP_BUFFER_BYTES + "&tcpReceiveBufferSize=" + TCP_BUFFER_BYTES;
    }
}
