package org.openmft.cli.it;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;

import org.openmft.agent.net.DelayRelay;

/**
 * A {@link DelayRelay} listening inside a host of {@link NetworkHosts}: its own JVM there, steered
 * through its standard input. Clients in any host connect to {@link #address} instead of the
 * target.
 */
final class DelayRelayProcess implements AutoCloseable {
    private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(30);

    private final HostProcess process;
    private final InetSocketAddress address;

    private DelayRelayProcess(HostProcess process, InetSocketAddress address) {
        this.process = process;
        this.address = address;
    }

    /**
     * Starts a relay in {@code host}, listening at that host's address on {@code port} ({@code 0}:
     * any free one) and forwarding to {@code target}, {@code oneWayDelay} each way, at most
     * {@code bytesPerSecond} each way ({@code 0}: no cap).
     */
    static DelayRelayProcess start(NetworkHosts hosts, String host, int port, InetSocketAddress target,
            Duration oneWayDelay, long bytesPerSecond) {
        String listen = hosts.address(host).getHostAddress();
        HostProcess p = HostProcess.start(hosts, host, DelayRelayProcess.class, listen, String.valueOf(port),
                target.getAddress().getHostAddress(), String.valueOf(target.getPort()),
                String.valueOf(oneWayDelay.toMillis()), String.valueOf(bytesPerSecond));
        String[] first = p.firstLine().split(" ");
        if (!first[0].equals("listening")) {
            p.close();
            throw new AssertionError("the relay in " + host + " did not start: " + p.firstLine());
        }
        return new DelayRelayProcess(p, new InetSocketAddress(hosts.address(host), Integer.parseInt(first[1])));
    }

    /** Where it listens. */
    InetSocketAddress address() {
        return address;
    }

    /** The one-way delay of the segments read from now on (whole milliseconds). */
    void setDelay(Duration oneWayDelay) {
        ask("delay " + oneWayDelay.toMillis());
    }

    /** The rate cap of each direction from now on, in bytes per second; {@code 0}: none. */
    void setBandwidth(long bytesPerSecond) {
        ask("bandwidth " + bytesPerSecond);
    }

    /** Bytes delivered to the target so far. */
    long bytesToTarget() {
        return Long.parseLong(ask("counters").split(" ")[1]);
    }

    /** Bytes delivered back to the clients so far. */
    long bytesFromTarget() {
        return Long.parseLong(ask("counters").split(" ")[2]);
    }

    private String ask(String command) {
        String answer = process.request(command, ANSWER_TIMEOUT);
        if (!answer.startsWith("ok")) {
            throw new AssertionError("the relay answered '" + command + "' with: " + answer);
        }
        return answer;
    }

    /** Stops the relay (its connections drop). */
    @Override
    public void close() {
        process.close();
    }

    /**
     * The process in the host: {@code DelayRelayProcess <listen address> <listen port> <target
     * address> <target port> <one-way delay ms> [bytes per second]}: prints {@code listening <port>},
     * then answers {@code delay <ms>}, {@code bandwidth <bytes per second>} and {@code counters}
     * ({@code ok <to target> <from target>}) until its standard input closes.
     */
    public static void main(String[] args) throws IOException {
        try (DelayRelay relay = DelayRelay.start(
                new InetSocketAddress(InetAddress.getByName(args[0]), Integer.parseInt(args[1])),
                new InetSocketAddress(InetAddress.getByName(args[2]), Integer.parseInt(args[3])),
                Duration.ofMillis(Long.parseLong(args[4])), args.length > 5 ? Long.parseLong(args[5]) : 0)) {
            System.out.println("listening " + relay.address().getPort());
            System.out.flush();
            HostProcess.answer(w -> switch (w[0]) {
                case "delay" -> {
                    relay.setDelay(Duration.ofMillis(Long.parseLong(w[1])));
                    yield "ok";
                }
                case "bandwidth" -> {
                    relay.setBandwidth(Long.parseLong(w[1]));
                    yield "ok";
                }
                case "counters" -> "ok " + relay.bytesToTarget() + " " + relay.bytesFromTarget();
                default -> "fail unknown command " + String.join(" ", w);
            });
        }
    }
}
