package org.openmft.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDomainDatagramChannel;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.unix.DomainDatagramPacket;
import io.netty.channel.unix.DomainSocketAddress;

/**
 * systemd's side of the readiness protocol, for tests: a unix datagram socket bound where
 * {@code NOTIFY_SOCKET} points, collecting the messages a daemon sends. Netty's native datagram
 * channel stands in for systemd's receiving end because the JDK has no unix datagrams; its event
 * loop hands each message to a queue that {@link #await} blocks on.
 */
public final class NotifySocketReceiver implements AutoCloseable {
    private final EventLoopGroup loop;
    private final Channel channel;
    private final String address;
    private final BlockingQueue<String> arriving;
    private final List<String> received = new ArrayList<>();

    private NotifySocketReceiver(EventLoopGroup loop, Channel channel, String address, BlockingQueue<String> arriving) {
        this.loop = loop;
        this.channel = channel;
        this.address = address;
        this.arriving = arriving;
    }

    /** Why this platform cannot run the receiver (Netty's native transport is missing), if it cannot. */
    public static Optional<String> unavailable() {
        return Epoll.isAvailable() ? Optional.empty()
                : Optional.of("Netty's native unix transport is not available: " + Epoll.unavailabilityCause());
    }

    /** A receiver bound at {@code path} (a file system socket). */
    public static NotifySocketReceiver at(Path path) throws IOException {
        return bind(path.toString(), path.toString());
    }

    /** A receiver bound at an abstract socket name, which NOTIFY_SOCKET writes as {@code @name}. */
    public static NotifySocketReceiver abstractNamed(String name) throws IOException {
        return bind("\0" + name, "@" + name);
    }

    private static NotifySocketReceiver bind(String bindAddress, String address) throws IOException {
        Epoll.ensureAvailability();
        BlockingQueue<String> arriving = new LinkedBlockingQueue<>();
        EventLoopGroup loop = new EpollEventLoopGroup(1);
        try {
            Channel channel = new Bootstrap().group(loop).channel(EpollDomainDatagramChannel.class)
                    .handler(new SimpleChannelInboundHandler<DomainDatagramPacket>() {
                        @Override
                        protected void channelRead0(ChannelHandlerContext ctx, DomainDatagramPacket packet) {
                            arriving.add(packet.content().toString(StandardCharsets.UTF_8));
                        }
                    }).bind(new DomainSocketAddress(bindAddress)).sync().channel();
            return new NotifySocketReceiver(loop, channel, address, arriving);
        } catch (InterruptedException e) {
            loop.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while binding " + address, e);
        } catch (RuntimeException e) {
            loop.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            throw new IOException("cannot bind " + address + ": " + e, e);
        }
    }

    /** The value for NOTIFY_SOCKET. */
    public String address() {
        return address;
    }

    /**
     * Waits until a message containing {@code line} (one of its lines) arrived, at most {@code timeout}.
     *
     * @return every message received so far
     */
    public List<String> await(String line, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (received.stream().noneMatch(m -> m.lines().anyMatch(line::equals))) {
            String next = arriving.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (next == null) {
                throw new AssertionError("no message with the line " + line + " on " + address + " within "
                        + timeout + "; received: " + received);
            }
            received.add(next);
        }
        return List.copyOf(received);
    }

    /** Every message received so far, without waiting. */
    public List<String> received() {
        arriving.drainTo(received);
        return List.copyOf(received);
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
