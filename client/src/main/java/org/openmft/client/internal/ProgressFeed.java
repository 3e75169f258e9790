package org.openmft.client.internal;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

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
 * A source agent's live progress publications ({@code SYSTEM.FTE/Transfers/<agent>/<id>},
 * reference §5.3), read from the coordination queue manager through a non-durable subscription
 * (on Artemis a consumer of the {@value Publications#TOPIC} address selecting on the topic string,
 * see {@link Publications}).
 *
 * <p>The subscription covers all of the agent's transfers and must exist before the request is
 * sent, when the transfer id is not known yet; {@link #follow} names it once the agent has
 * acknowledged. Until then the newest publication of each transfer is kept (a few only), so one
 * that overtook the acknowledgement is not lost. Publications are delivered on the messaging
 * provider's thread.
 *
 * <p>A lost connection (a restart of the coordination queue manager) is reconnected to on a
 * thread of the feed's own ({@code openmft-progress-reconnect}, a daemon ended by {@link #close}),
 * with the same jittered back-off as the command's wait ({@link CommandChannel#RECONNECT}), and the
 * subscription made again. Nothing is said about it: the command's {@link CommandChannel} says
 * when its connection is lost, and progress publications missed meanwhile do not matter, the next
 * one shows where the transfer is.
 *
 * <p>Internal to OpenMFT; not part of the public API.
 */
public final class ProgressFeed implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ProgressFeed.class);

    /** Transfers whose newest publication is kept before the id is known. */
    private static final int MAX_EARLY = 16;

    private final PublicationReader reader = new PublicationReader();
    private final Consumer<TransferProgress> sink;
    private final QueueManagerConnector coordination;
    private final String sourceAgent;
    private final Map<String, TransferProgress> early = new LinkedHashMap<>(MAX_EARLY * 2, 0.75f, false) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, TransferProgress> eldest) {
            return size() > MAX_EARLY;
        }
    };
    private Connection connection;
    private String transferId;
    private boolean closing;
    private Thread reconnecting;

    private ProgressFeed(Consumer<TransferProgress> sink, QueueManagerConnector coordination, String sourceAgent) {
        this.sink = sink;
        this.coordination = coordination;
        this.sourceAgent = sourceAgent;
    }

    /**
     * Subscribes to the progress publications of {@code sourceAgent}'s transfers.
     *
     * @param coordination a connector to the coordination queue manager
     * @param sourceAgent the source agent's name, as it publishes it (upper case)
     * @param sink receives the followed transfer's publications, on the provider's thread
     * @throws QueueManagerException when the coordination queue manager cannot be reached
     */
    public static ProgressFeed open(QueueManagerConnector coordination, String sourceAgent, Consumer<TransferProgress> sink)
            throws QueueManagerException {
        ProgressFeed feed = new ProgressFeed(sink, coordination, sourceAgent);
        feed.subscribe();
        return feed;
    }

    /** Connects and subscribes; the new connection replaces the old one unless the feed is closing. */
    private void subscribe() throws QueueManagerException {
        Connection c = coordination.connect();
        try {
            c.setExceptionListener(this::failed);
            Session session = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            String pattern = Publications.ROOT + "/Transfers/" + sourceAgent + "/#";
            MessageConsumer consumer = Publications.subscribe(session, coordination.endpoint().provider(), pattern);
            consumer.setMessageListener(this::received);
            c.start();
        } catch (JMSException | RuntimeException e) {
            closeQuietly(c);
            throw new QueueManagerException("cannot subscribe to progress publications on " + coordination.description()
                    + ": " + (e instanceof JMSException j ? ProviderErrors.describe(j) : e.toString()),
                    QueueManagerException.UNAVAILABLE, e);
        }
        synchronized (this) {
            if (reconnecting == Thread.currentThread()) {
                // From here a failure of the new connection starts a reconnect of its own.
                reconnecting = null;
            }
            if (!closing) {
                connection = c;
                return;
            }
        }
        closeQuietly(c);
    }

    /** From now on passes on the publications of transfer {@code id}, starting with any kept. */
    public void follow(String id) {
        TransferProgress kept;
        synchronized (this) {
            transferId = id.toLowerCase(Locale.ROOT);
            kept = early.remove(transferId);
            early.clear();
        }
        if (kept != null) {
            sink.accept(kept);
        }
    }

    private void received(Message m) {
        TransferProgress p;
        try {
            p = read(m);
        } catch (JMSException | MalformedPublicationException e) {
            log.debug("Skipped a progress publication: {}", e.getMessage());
            return;
        }
        if (p == null) {
            return;
        }
        String id = p.transferId().toLowerCase(Locale.ROOT);
        synchronized (this) {
            if (transferId == null) {
                early.remove(id);
                early.put(id, p);
                return;
            }
            if (!transferId.equals(id)) {
                return;
            }
        }
        sink.accept(p);
    }

    private TransferProgress read(Message m) throws JMSException, MalformedPublicationException {
        return Publications.readProgress(reader, m);
    }

    private void failed(JMSException e) {
        synchronized (this) {
            if (closing || reconnecting != null) {
                return;
            }
            log.debug("Progress publications: the connection to {} failed ({}); reconnecting",
                    coordination.description(), ProviderErrors.describe(e));
            reconnecting = new Thread(this::reconnect, "openmft-progress-reconnect");
            reconnecting.setDaemon(true);
            reconnecting.start();
        }
    }

    /** Replaces the failed connection, with back-off, until it works or the feed is closed. */
    private void reconnect() {
        Connection old;
        synchronized (this) {
            old = connection;
            connection = null;
        }
        closeQuietly(old);
        Backoff.Retries backoff = CommandChannel.RECONNECT.retries();
        try {
            while (true) {
                Thread.sleep(backoff.next().toMillis());
                synchronized (this) {
                    if (closing) {
                        return;
                    }
                }
                try {
                    subscribe();
                    log.debug("Progress publications: subscribed again on {}", coordination.description());
                    return;
                } catch (QueueManagerException e) {
                    log.debug("Progress publications: {}", e.getMessage());
                }
            }
        } catch (InterruptedException e) {
            // Closed: the command is ending.
        } finally {
            synchronized (this) {
                if (reconnecting == Thread.currentThread()) {
                    reconnecting = null;
                }
            }
        }
    }

    /** Ends the subscription (and any reconnecting); waits for a publication being delivered. */
    @Override
    public void close() {
        Connection c;
        Thread r;
        synchronized (this) {
            closing = true;
            c = connection;
            connection = null;
            r = reconnecting;
        }
        if (r != null) {
            r.interrupt();
        }
        closeQuietly(c);
    }

    private static void closeQuietly(Connection c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (JMSException e) {
            // The command is ending; nothing to do.
        }
    }
}
