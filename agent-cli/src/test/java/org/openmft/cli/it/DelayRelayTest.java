package org.openmft.cli.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.openmft.agent.net.DelayRelay;

/**
 * The relay in this JVM, on loopback: no root needed. {@code NetworkHostsIT} runs it inside a host.
 * Only lower bounds of time, from the delay inserted.
 */
class DelayRelayTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    @Test
    void aRoundTripTakesTwiceTheDelayAndBulkDataArrivesIntact() throws Exception {
        try (EchoServer echo = EchoServer.start(LOOPBACK, 0);
                DelayRelay relay = DelayRelay.start(new InetSocketAddress(LOOPBACK, 0),
                        new InetSocketAddress(LOOPBACK, echo.port()), Duration.ofMillis(20), 0)) {
            assertThat(NetProbe.roundTrip(relay.address(), 3)).isGreaterThanOrEqualTo(Duration.ofMillis(40).toNanos());

            long size = 8L << 20;
            String[] bulk = NetProbe.bulk(relay.address(), size).split(" ");
            assertThat(bulk[1]).as("CRC-32C back").isEqualTo(bulk[0]);
            assertThat(Long.parseLong(bulk[2])).isEqualTo(size);
            Distribution.await("the relay to count every byte", Duration.ofSeconds(30),
                    () -> relay.bytesToTarget() == size + 3 && relay.bytesFromTarget() == size + 3);

            relay.setDelay(Duration.ZERO);
            relay.setBandwidth(1 << 20);
            assertThat(Long.parseLong(NetProbe.bulk(relay.address(), 1 << 20).split(" ")[3])).as("1 MiB at 1 MiB/s")
                    .isGreaterThanOrEqualTo(Duration.ofSeconds(1).toNanos());
        }
    }
}
