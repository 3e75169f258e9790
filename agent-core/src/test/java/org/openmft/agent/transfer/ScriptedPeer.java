package org.openmft.agent.transfer;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

import org.openmft.agent.config.QueueNames;
import org.openmft.agent.messaging.ArtemisQueueAdmin;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.protection.PeerKeys;
import org.openmft.agent.protection.ProtectionException;
import org.openmft.agent.protection.ProtectionLevel;
import org.openmft.agent.transfer.protocol.ItemHeader;
import org.openmft.agent.transfer.protocol.ProtocolCodec;
import org.openmft.agent.transfer.protocol.Start;
import org.openmft.agent.transfer.protocol.TransferIds;
import org.openmft.agent.transfer.protocol.Wire;

/**
 * A fake agent that speaks the agent-to-agent protocol from a script, for the faults a real peer
 * does not produce on demand: it plays a source toward a real destination agent, or a destination
 * toward a real source agent, on a real queue manager. A script is a sequence of calls: send this
 * ({@link #send}, {@link #start}, {@link #chunk}, or any message built with {@link #codec()}),
 * expect that ({@link #expect}, {@link #expectMatching}), drop (receive and ignore:
 * {@link #expect} skips what it does not look for), duplicate ({@link #duplicateLast}), delay
 * ({@link #delay}), die ({@link #die}: nothing more is sent or answered).
 *
 * <p>Messages are built with the agents' own {@link ProtocolCodec}, so a fake and a real agent
 * cannot disagree about the protocol's names.
 */
final class ScriptedPeer implements AutoCloseable {
    private static final Duration EXPECT_WITHIN = Duration.ofSeconds(20);

    /** The transfer id the peer uses when it plays the source. */
    final String id = TransferIds.newId("QMT");
    final String name;
    private final String other;
    private final Connection connection;
    private final Session session;
    private final MessageProducer producer;
    private final MessageConsumer consumer;
    private final ProtocolCodec codec;
    private Message last;
    private boolean dead;
    /** The checksum method the first chunks it sends as a source name. */
    private String checksumMethod = "MD5";
    /** Its own key as a source; the real source's, from the START it received, as a destination. */
    private volatile byte[] key = new byte[32];
    /** The protection of what it sends as a source, with the keys that open and make protected STARTs. */
    private volatile ProtectionLevel level = ProtectionLevel.NONE;
    private volatile PeerKeys peerKeys = PeerKeys.NONE;

    private ScriptedPeer(QueueManagerConnector connector, String name, String other, String sendTo, String readFrom)
            throws Exception {
        this.name = name;
        this.other = other;
        new ArtemisQueueAdmin(connector).createQueues(QueueNames.agentQueues(name));
        this.connection = connector.connect();
        this.session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        this.producer = session.createProducer(session.createQueue(sendTo));
        this.consumer = session.createConsumer(session.createQueue(readFrom));
        new java.security.SecureRandom().nextBytes(key);
        this.codec = new ProtocolCodec(session, new ProtocolCodec.Keys() {
            @Override
            public byte[] key(String transferId) {
                return key;
            }

            @Override
            public ProtectionLevel level(String transferId) {
                return level;
            }
        });
        connection.start();
    }

    /** A fake source agent {@code name} whose transfers go to the real agent {@code destination}. */
    static ScriptedPeer source(QueueManagerConnector connector, String name, String destination) throws Exception {
        return new ScriptedPeer(connector, name, destination, QueueNames.data(destination), QueueNames.reply(name));
    }

    /** A fake destination agent {@code name} that answers the real agent {@code source}. */
    static ScriptedPeer destination(QueueManagerConnector connector, String name, String source) throws Exception {
        return new ScriptedPeer(connector, name, source, QueueNames.reply(source), QueueNames.data(name));
    }

    /** Builds messages on the peer's session. */
    ProtocolCodec codec() {
        return codec;
    }

    /**
     * Builds messages tagged with another key than the transfer's: what a third party that did not
     * see the START can make at best.
     */
    ProtocolCodec forger() {
        byte[] other = new byte[32];
        new java.security.SecureRandom().nextBytes(other);
        return new ProtocolCodec(session, transferId -> other);
    }

    /** Tags from now on with {@code key}: a peer that learned the transfer's key some other way. */
    ScriptedPeer withKey(byte[] key) {
        this.key = key.clone();
        return this;
    }

    /**
     * Protects what it sends as a source at {@code level}, and opens protected STARTs as a
     * destination, with {@code keys}: the keys an agent of its name would have.
     */
    ScriptedPeer protectedWith(ProtectionLevel level, PeerKeys keys) {
        this.level = level;
        this.peerKeys = keys;
        return this;
    }

    /** The transfer key the peer tags with. */
    byte[] key() {
        return key.clone();
    }

    /** The peer's session, for messages outside the protocol. */
    Session session() {
        return session;
    }

    /** Sends a message to the other agent. */
    ScriptedPeer send(Message m) throws JMSException {
        if (dead) {
            throw new IllegalStateException("the scripted peer " + name + " is dead");
        }
        producer.send(m);
        last = m;
        return this;
    }

    /** Sends the last message again (a duplicate). */
    ScriptedPeer duplicateLast() throws JMSException {
        if (last instanceof BytesMessage b) {
            b.reset();
        }
        return send(last);
    }

    /** Waits before the next step. */
    ScriptedPeer delay(Duration d) throws InterruptedException {
        TimeUnit.MILLISECONDS.sleep(d.toMillis());
        return this;
    }

    /** The peer dies: its connection closes, and it sends and answers nothing more. */
    void die() throws JMSException {
        dead = true;
        connection.close();
    }

    // ------------------------------------------------------------------------------------------
    // Playing a source

    /** A START of {@code items} items with a window of 2 and a checkpoint every 4 chunks. */
    ScriptedPeer start(int items, int incarnation) throws JMSException {
        try {
            return send(codec.start(new Start(id, incarnation, name, "QMT", other, items, 2, 4, "tester", null, null, -1,
                    false), level, peerKeys));
        } catch (ProtectionException e) {
            throw new AssertionError("the scripted source cannot protect its START: " + e.getMessage(), e);
        }
    }

    /** Names {@code method} ("MD5" unless told) as the checksum method of the items it sends from now on. */
    ScriptedPeer checksumMethod(String method) {
        this.checksumMethod = method;
        return this;
    }

    /**
     * A chunk of item 0, to be written to {@code destination} (a file); {@code checksum} is the hex digest
     * a last chunk carries, by the method {@link #checksumMethod} names.
     */
    ScriptedPeer chunk(long seq, int incarnation, long offset, byte[] data, boolean first, boolean last,
            String checksum, long itemBytes, String destination) throws JMSException {
        ItemHeader header = new ItemHeader(destination, "file", "file.bin", "error", checksumMethod, "binary",
                "/fake/file.bin", itemBytes);
        return send(codec.data(id, incarnation, seq, 0, offset, first, last, first ? header : null, itemBytes,
                checksum, data, data.length));
    }

    /** Asks the destination where it is, as an older source does; everything below {@code nextSeq} was sent. */
    ScriptedPeer ackRequest(int incarnation, long nextSeq) throws JMSException {
        return ackRequest(incarnation, nextSeq, -1);
    }

    /** Asks the destination where it is, and for the results of items from {@code firstOpenItem} on. */
    ScriptedPeer ackRequest(int incarnation, long nextSeq, int firstOpenItem) throws JMSException {
        return send(codec.ackRequest(id, incarnation, nextSeq, firstOpenItem));
    }

    // ------------------------------------------------------------------------------------------
    // Expecting

    /** Playing a destination: the real source's START, answered with START_OK from chunk 0. */
    Message acceptStart() throws JMSException {
        Message start = expect(Wire.START);
        send(codec.startOk(start.getStringProperty(Wire.TRANSFER_ID), start.getIntProperty(Wire.INCARNATION), 0));
        return start;
    }

    /**
     * Playing a destination of one item: the real source's START accepted, then the
     * item's last DATA, which names the transfer and incarnation an answer needs; nothing answered.
     */
    Message acceptStartAndTakeLastChunk() throws JMSException {
        acceptStart();
        return expectMatching(Wire.DATA, where(Wire.LAST, true));
    }

    /** The next message of this type within 20 s; others before it are dropped. */
    Message expect(String type) throws JMSException {
        return expectMatching(type, m -> true);
    }

    /** The next message of this type that matches, within 20 s; others before it are dropped. */
    Message expectMatching(String type, Predicate<Message> matching) throws JMSException {
        long deadline = System.nanoTime() + EXPECT_WITHIN.toNanos();
        while (System.nanoTime() < deadline) {
            Message m = consumer.receive(500);
            if (m != null && type.equals(m.getStringProperty(Wire.TYPE)) && matching.test(m)) {
                if (Wire.START.equals(type)) {
                    try {
                        byte[] offered = ProtocolCodec.startKey(m, peerKeys);
                        if (offered != null) {
                            key = offered;
                        }
                    } catch (ProtectionException e) {
                        throw new AssertionError("the scripted destination cannot open the START: " + e.getMessage(), e);
                    }
                }
                return m;
            }
        }
        throw new AssertionError("no matching " + type + " from agent " + other + " within "
                + EXPECT_WITHIN.toSeconds() + " s");
    }

    /** A predicate on a property, for {@link #expectMatching}. */
    static Predicate<Message> where(String property, Object value) {
        return m -> {
            try {
                return value.equals(m.getObjectProperty(property));
            } catch (JMSException e) {
                return false;
            }
        };
    }

    @Override
    public void close() throws JMSException {
        if (!dead) {
            dead = true;
            connection.close();
        }
    }
}
