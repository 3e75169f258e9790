package org.openmft.rest;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;

import org.openmft.agent.lifecycle.Backoff;
import org.openmft.agent.messaging.ProviderErrors;
import org.openmft.agent.messaging.Publications;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.QueueManagerException;
import org.openmft.xml.log.MalformedPublicationException;
import org.openmft.xml.log.PublicationReader;
import org.openmft.xml.log.TransferProgress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The newest live progress publication of every running transfer ({@code SYSTEM.FTE/Transfers/#},
 * reference §5.3), read through a non-durable subscription on the coordination queue manager, as
 * {@code fteCreateTransfer -w} follows one transfer. The dashboard polls {@link #snapshot}; the
 * rate of a transfer is measured between its last two publications.
 *
 * <p>Bounded: at most {@value #MAX_TRANSFERS} transfers are kept (the least recently updated goes
 * first), and a transfer with no publication for {@link #STALE} is dropped: it ended, or its agent
 * is gone. A lost connection is made again by the owned thread {@code openmft-rest-progress}, with
 * the agents' reconnect back-off ({@link Backoff#RECONNECT}); publications missed meanwhile do not
 * matter, the next one shows where a transfer is. Thread-safe.
 */
public final class LiveProgress implements AutoCloseable {
    /** The most transfers kept. */
    public static final int MAX_TRANSFERS = 1_000;
    /** How long a transfer without a new publication is still shown. */
    public static final Duration STALE = Duration.ofMinutes(2);

    private static final Logger log = LoggerFactory.getLogger(LiveProgress.class);

    /** One transfer's newest publication, when it arrived, and the rate measured up to it. */
    record Entry(TransferProgress progress, Instant received, double bytesPerSecond) {
    }

    private final QueueManagerConnector coordination;
    private final Clock clock;
    private final PublicationReader reader = new PublicationReader();
    private final Map<String, Entry> entries = new LinkedHashMap<>(64, 0.75f, true);
    private final AtomicBoolean closing = new AtomicBoolean();
    private final CountDownLatch closed = new CountDownLatch(1);
    private final Thread thread;
    private volatile boolean subscribed;

    /**
     * Starts following; the first subscription is made on the owned thread.
     *
     * @param coordination a connector to the coordination queue manager
     * @param clock the time publications are stamped with on arrival
     */
    public LiveProgress(QueueManagerConnector coordination, Clock clock) {
        this.coordination = coordination;
        this.clock = clock;
        this.thread = new Thread(this::run, "openmft-rest-progress");
        thread.setDaemon(true);
        thread.start();
    }

    /** @return whether the subscription is in place at the moment */
    public boolean subscribed() {
        return subscribed;
    }

    private void run() {
        Backoff.Retries backoff = Backoff.RECONNECT.retries();
        while (!closing.get()) {
            CountDownLatch failed = new CountDownLatch(1);
            Connection c = null;
            try {
                c = coordination.connect();
                c.setExceptionListener(e -> {
                    log.info("Progress publications: the connection to {} failed ({}); reconnecting",
                            coordination.description(), ProviderErrors.describe(e));
                    failed.countDown();
                });
                Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageConsumer consumer = Publications.subscribe(s, coordination.endpoint().provider(),
                        Publications.ROOT + "/Transfers/#");
                consumer.setMessageListener(this::received);
                c.start();
                subscribed = true;
                backoff.reset();
                while (!closing.get() && !failed.await(1, TimeUnit.SECONDS)) {
                    // Following until the connection fails or close() is called.
                }
            } catch (QueueManagerException | JMSException | RuntimeException e) {
                log.info("Progress publications: cannot subscribe on {}: {}", coordination.description(),
                        e instanceof JMSException j ? ProviderErrors.describe(j) : e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } finally {
                subscribed = false;
                closeQuietly(c);
            }
            try {
                if (!closing.get()) {
                    Thread.sleep(backoff.next().toMillis());
                }
            } catch (InterruptedException e) {
                break;
            }
        }
        closed.countDown();
    }

    private void received(Message m) {
        TransferProgress p;
        try {
            p = Publications.readProgress(reader, m);
        } catch (JMSException | MalformedPublicationException e) {
            log.debug("Skipped a progress publication: {}", e.getMessage());
            return;
        }
        if (p != null) {
            record(p, clock.instant());
        }
    }

    /** Keeps a publication; package-private for tests. */
    void record(TransferProgress p, Instant now) {
        String id = p.transferId().toLowerCase(Locale.ROOT);
        synchronized (entries) {
            Entry before = entries.get(id);
            double rate = before == null ? 0 : before.bytesPerSecond();
            if (before != null && p.bytes() > before.progress().bytes() && before.progress().bytes() >= 0) {
                double seconds = Duration.between(before.received(), now).toMillis() / 1000.0;
                if (seconds > 0) {
                    double measured = (p.bytes() - before.progress().bytes()) / seconds;
                    // Smoothed, so that one quick publication does not make the ETA jump about.
                    rate = rate == 0 ? measured : 0.5 * rate + 0.5 * measured;
                }
            } else if (before == null && p.seconds() > 0 && p.bytes() > 0) {
                rate = (double) p.bytes() / p.seconds();
            }
            entries.put(id, new Entry(p, now, rate));
            if (entries.size() > MAX_TRANSFERS) {
                String eldest = entries.keySet().iterator().next();
                entries.remove(eldest);
            }
        }
    }

    /**
     * The transfers with a recent publication, most recently updated last.
     *
     * @return a copy
     */
    public List<Entry> snapshot() {
        Instant oldest = clock.instant().minus(STALE);
        synchronized (entries) {
            entries.values().removeIf(e -> e.received().isBefore(oldest));
            return new ArrayList<>(entries.values());
        }
    }


    /** Ends the subscription; waits up to 5 seconds for the thread. */
    @Override
    public void close() {
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        thread.interrupt();
        try {
            if (!closed.await(5, TimeUnit.SECONDS)) {
                log.warn("Thread {} did not end within 5 s of the close", thread.getName());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (JMSException e) {
                // Closing a failed connection; nothing to do.
            }
        }
    }
}
