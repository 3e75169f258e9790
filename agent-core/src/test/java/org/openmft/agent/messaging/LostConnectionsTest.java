package org.openmft.agent.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.jms.Connection;

import org.junit.jupiter.api.Test;
import org.openmft.agent.Poll;

class LostConnectionsTest {
    /** A connection whose close waits for {@code release}, as a provider's does for an answer that never comes. */
    private static Connection closingSlowly(CountDownLatch release, List<String> closedBy) {
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "close" -> {
                        release.await(30, TimeUnit.SECONDS);
                        closedBy.add(Thread.currentThread().getName());
                        yield null;
                    }
                    case "setExceptionListener" -> null;
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    @Test
    void aLostConnectionIsClosedBesideTheCallerWhichDoesNotWaitForIt() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        List<String> closedBy = new CopyOnWriteArrayList<>();
        LostConnections.close(closingSlowly(release, closedBy));
        // Back here while the close still waits: the reconnect would go on now.
        assertThat(closedBy).isEmpty();
        release.countDown();
        Poll.until("the lost connection closed", Duration.ofSeconds(10), () -> !closedBy.isEmpty());
        assertThat(closedBy).containsExactly("openmft-lost-connection-closer");
        LostConnections.close(null);
    }

    @Test
    void aSharedConnectionFoundLostIsLentToNoOneNew() throws Exception {
        SharedConnections shared = new SharedConnections();
        AtomicInteger opened = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        List<String> closedBy = new CopyOnWriteArrayList<>();
        SharedConnections.Opener opener = () -> {
            opened.incrementAndGet();
            return closingSlowly(release, closedBy);
        };
        Connection first = shared.lease("vm://1", "SRC", "pw", opener);
        Connection sameLogin = shared.lease("vm://1", "SRC", "pw", opener);
        assertThat(opened).as("one physical connection for both").hasValue(1);

        LostConnections.close(first);
        Connection next = shared.lease("vm://1", "SRC", "pw", opener);
        assertThat(opened).as("the next lease gets a new connection").hasValue(2);
        assertThat(shared.open()).isEqualTo(1);

        // The other lease still holds the old connection: it closes with its last lease. The closer
        // handles closes in order, so once a later one is done, the lost lease's is too.
        release.countDown();
        List<String> marker = new CopyOnWriteArrayList<>();
        LostConnections.close(closingSlowly(release, marker));
        Poll.until("the closer's queue handled", Duration.ofSeconds(10), () -> !marker.isEmpty());
        assertThat(closedBy).as("the old connection, still lent").isEmpty();
        sameLogin.close();
        assertThat(closedBy).hasSize(1);
        next.close();
        assertThat(closedBy).hasSize(2);
        assertThat(SharedConnections.lost(closingSlowly(release, closedBy))).as("not a lease").isFalse();
    }
}
