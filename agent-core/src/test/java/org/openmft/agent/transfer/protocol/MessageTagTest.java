package org.openmft.agent.transfer.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Session;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.apache.activemq.artemis.api.core.client.ClientMessage;
import org.apache.activemq.artemis.core.client.impl.ClientMessageImpl;
import org.apache.activemq.artemis.jms.client.ActiveMQMessage;
import org.junit.jupiter.api.Test;
import org.openmft.agent.Checksum;
import org.openmft.agent.ItemOutcome;
import org.openmft.agent.compression.CompressionMethod;
import org.openmft.agent.protection.PeerKeys;
import org.openmft.agent.protection.ProtectionLevel;
import org.openmft.xml.ChecksumMethod;

/**
 * The tag's canonical bytes are those of the algorithm of protocol version 2 as first written (one
 * {@code getObjectProperty} per name of {@link MessageTag#SIGNED}, kept here as the reference):
 * for every message the codec builds, with each combination of its optional properties, as built
 * and as a receiver decodes it, through Artemis and through the JMS interface alone.
 */
class MessageTagTest {
    private static final String ID = "0123456789abcdef0123456789abcdef0123456789abcdef";
    private static final byte[] KEY = new byte[32];

    /** The canonical form as protocol version 2 defined it: the reference, never to change. */
    private static byte[] reference(Message m) throws JMSException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        ByteBuffer length = ByteBuffer.allocate(Integer.BYTES);
        for (String name : MessageTag.SIGNED) {
            Object value = m.getObjectProperty(name);
            if (value == null) {
                continue;
            }
            for (byte[] bytes : List.of(name.getBytes(StandardCharsets.US_ASCII),
                    value.getClass().getSimpleName().getBytes(StandardCharsets.US_ASCII),
                    value.toString().getBytes(StandardCharsets.UTF_8))) {
                out.write(length.clear().putInt(bytes.length).array(), 0, Integer.BYTES);
                out.write(bytes, 0, bytes.length);
            }
        }
        return out.toByteArray();
    }

    @Test
    void everyMessageOfTheCodecGivesTheBytesOfTheReference() throws Exception {
        List<Message> messages = codecMessages();
        assertThat(messages).hasSizeGreaterThan(30);
        for (Message built : messages) {
            for (Message m : List.of(built, received(built), jmsOnly(built), jmsOnly(received(built)))) {
                byte[] expected = reference(m);
                assertThat(expected).isNotEmpty();
                assertThat(MessageTag.canonical(m)).as("%s", m).isEqualTo(expected);
            }
            // The tag the codec sealed it with still verifies, as received.
            assertThat(MessageTag.verify(received(built), KEY)).isTrue();
        }
    }

    @Test
    void everySignedNameOfEveryValueTypeWithForeignAndNullPropertiesBeside() throws Exception {
        Object[][] kinds = {{1, 2L, true, "x"}, {Integer.MIN_VALUE, Long.MAX_VALUE, false, ""},
            {-7, -7L, true, "é ü \u4e2d 'quoted' \n line"}};
        for (Object[] kind : kinds) {
            for (int type = 0; type < kind.length; type++) {
                Message m = artemisMessage();
                m.setStringProperty("aForeignOne", "not signed");
                m.setStringProperty("mftNull", null);
                m.setIntProperty(Wire.CALL_RETRIES, 3); // a protocol property the tag does not cover
                for (int i = 0; i < MessageTag.SIGNED.size(); i++) {
                    String name = MessageTag.SIGNED.get(i);
                    if (i % 5 == 4) {
                        m.setStringProperty(name, null); // set to nothing: as absent
                    } else {
                        m.setObjectProperty(name, kind[(type + i) % kind.length]);
                    }
                }
                for (Message each : List.of(m, received(m), jmsOnly(m), jmsOnly(received(m)))) {
                    assertThat(MessageTag.canonical(each)).isEqualTo(reference(each));
                }
            }
        }
        Message none = artemisMessage();
        assertThat(MessageTag.canonical(none)).isEqualTo(reference(none)).isEmpty();
    }

    @Test
    void aMessageSealedUnderOneKeyDoesNotVerifyUnderAnother() throws Exception {
        Message m = artemisMessage();
        m.setStringProperty(Wire.TRANSFER_ID, ID);
        MessageTag.seal(m, KEY);
        byte[] other = KEY.clone();
        other[0] = 1;
        assertThat(MessageTag.verify(m, other)).isFalse();
        assertThat(MessageTag.verify(m, KEY)).isTrue();
        assertThat(MessageTag.verify(m, other)).isFalse();
        m.setLongProperty(Wire.SEQ, 1);
        assertThat(MessageTag.verify(m, KEY)).as("a property added after sealing").isFalse();
    }

    @Test
    void aDataMessageIsRefilledForTheNextChunkWithNothingOfTheLastOneLeft() throws Exception {
        ProtocolCodec codec = new ProtocolCodec(session(), ((ProtocolCodec.Keys) id -> KEY).at(ProtectionLevel.NONE));
        codec.compressWith(CompressionMethod.LZ4);
        byte[] text = "chunk ".repeat(200).getBytes(StandardCharsets.US_ASCII);
        BytesMessage last = codec.data(ID, 2, 7, 1, 0, true, true, header(true), text.length,
                "d41d8cd98f00b204e9800998ecf8427e", text, text.length);
        assertThat(last.getStringProperty(Wire.COMPRESSION)).isEqualTo("lz4");
        assertThat(last.getStringProperty(Wire.CHECKSUM)).isNotNull();
        Message lastAsSent = received(last);

        byte[] random = new byte[512];
        new java.util.Random(3).nextBytes(random);
        BytesMessage next = codec.data(ID, 2, 8, 2, 0, false, false, null, 0, null, random, random.length);
        assertThat(next).as("the same message, refilled").isSameAs(last);
        // Nothing of the first chunk is left: not its properties, not its body.
        for (String name : List.of(Wire.COMPRESSION, Wire.CHUNK_LENGTH, Wire.CHECKSUM, Wire.ITEM_BYTES,
                Wire.DEST_PATH)) {
            assertThat(next.propertyExists(name)).as(name).isFalse();
        }
        assertThat(next.getLongProperty(Wire.SEQ)).isEqualTo(8);
        assertThat(next.getIntProperty(Wire.ITEM)).isEqualTo(2);
        assertThat(next.getBooleanProperty(Wire.FIRST)).isFalse();
        next.reset();
        byte[] body = new byte[(int) next.getBodyLength()];
        next.readBytes(body);
        assertThat(body).isEqualTo(random);
        assertThat(MessageTag.verify(received(next), KEY)).isTrue();
        // The first chunk, as it was sent, is unchanged by the refill.
        assertThat(lastAsSent.getLongProperty(Wire.SEQ)).isEqualTo(7);
        assertThat(MessageTag.verify(lastAsSent, KEY)).isTrue();
    }

    private static List<Message> codecMessages() throws Exception {
        List<Message> out = new ArrayList<>();
        for (ProtectionLevel level : ProtectionLevel.values()) {
            ProtocolCodec codec = new ProtocolCodec(session(), ((ProtocolCodec.Keys) id -> KEY).at(level));
            for (CompressionMethod compression : List.of(CompressionMethod.NONE, CompressionMethod.LZ4)) {
                for (int channels : new int[] {1, 3}) {
                    codec.compressWith(compression);
                    codec.spreadOver(channels);
                    byte[] data = "chunk chunk chunk chunk chunk chunk chunk".getBytes(StandardCharsets.US_ASCII);
                    for (boolean first : new boolean[] {true, false}) {
                        for (boolean last : new boolean[] {true, false}) {
                            // A codec refills one DATA message for each chunk: each is kept as sent.
                            out.add(received(codec.data(ID, 2, 7, 1, first ? 0 : 8192, first, last,
                                    header(first && last), last ? 9000 : 0,
                                    last && !first ? "d41d8cd98f00b204e9800998ecf8427e" : null, data, data.length)));
                        }
                    }
                    out.add(received(codec.data(ID, 0, 0, 0, 0, true, true, header(false), 0, null, data, 0)));
                    out.add(codec.itemAbort(ID, 1, 9, 2, header(true), "BFGIO0001E: gone"));
                    out.add(codec.start(new Start(ID, 0, "SRC", "QM1", "DST", 3, 8, 16, "alice", "bob", "job", -1,
                            false), level, FAKE_PEERS));
                }
            }
        }
        ProtocolCodec codec = new ProtocolCodec(session(), id -> KEY);
        out.add(codec.start(new Start(ID, 4, "SRC", "QM1", "DST", 3, 8, 16, null, null, null, 2, true)));
        out.add(codec.ackRequest(ID, 1, 99, 2));
        out.add(codec.control(Wire.CANCEL, ID, 1, "cancelled by bob"));
        out.add(codec.control(Wire.COMPLETE_ACK, ID, 1, null));
        out.add(codec.call(ID, 1, "postDestinationCall", "executable:run.sh"));
        out.add(codec.startOk(ID, 1, 12));
        out.add(codec.callResult(ID, 1, new CallAnswer("postDestinationCall", "success", 1, 0, List.of("a", "b"),
                List.of(), null)));
        out.add(codec.callResult(ID, 1, new CallAnswer("preDestinationCall", "error", 0, null, List.of(), List.of(),
                "no such program")));
        out.add(codec.startRefused(ID, 1, 75, "BFGTR0001E busy", true));
        out.add(codec.abort(ID, 1, 40, "cannot write state"));
        out.add(codec.ack(ID, 1, 30, true));
        out.add(codec.ack(ID, 1, 31, false));
        out.add(codec.nack(ID, 1, 12));
        out.add(codec.itemDone(ID, 1, 0, 30, new ItemOutcome(0, "/in/a", "/out/a", 9000, 0, null,
                Checksum.of(ChecksumMethod.MD5, "d41d8cd98f00b204e9800998ecf8427e"), null)));
        out.add(codec.itemDone(ID, 1, 1, 31, new ItemOutcome(1, "/in/b", null, 0, 40, "BFGIO0003E: failed", null,
                null)));
        return out;
    }

    private static ItemHeader header(boolean queue) {
        return new ItemHeader("/out/a", queue ? "queue" : "file", "a", "overwrite", "MD5", "binary", "/in/a", 9000,
                queue ? "queue=Q1&lastModified=5" : null);
    }

    private static final PeerKeys FAKE_PEERS = new PeerKeys() {
        @Override
        public byte[] wrap(String agent, byte[] key) {
            return key.clone();
        }

        @Override
        public byte[] unwrap(byte[] wrapped) {
            return wrapped;
        }

        @Override
        public byte[] sign(byte[] content) {
            return Base64.getEncoder().encode(content);
        }

        @Override
        public void verify(String agent, byte[] content, byte[] signature) {
        }

        @Override
        public void checkPeer(String agent) {
        }
    };

    /** Messages made as an Artemis session makes them, without a queue manager. */
    private static Session session() {
        return (Session) Proxy.newProxyInstance(Session.class.getClassLoader(), new Class<?>[] {Session.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "createMessage" -> artemisMessage();
                    case "createBytesMessage" -> writable(ActiveMQMessage.createMessage(new ClientMessageImpl(
                            org.apache.activemq.artemis.api.core.Message.BYTES_TYPE, false, 0, 0, (byte) 4, 1024),
                            null));
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    private static Message artemisMessage() throws JMSException {
        return writable(ActiveMQMessage.createMessage(new ClientMessageImpl(
                org.apache.activemq.artemis.api.core.Message.DEFAULT_TYPE, false, 0, 0, (byte) 4, 1024), null));
    }

    /** As a session's new message is (one made from a core message is read-only, as if received). */
    private static Message writable(Message m) throws JMSException {
        m.clearProperties();
        m.clearBody();
        return m;
    }

    /** The message as a receiver has it: its headers and properties encoded and decoded. */
    private static Message received(Message m) {
        ClientMessage core = ((ActiveMQMessage) m).getCoreMessage();
        ByteBuf buffer = Unpooled.buffer();
        ((ClientMessageImpl) core).encodeHeadersAndProperties(buffer);
        ClientMessageImpl decoded = new ClientMessageImpl();
        decoded.decodeHeadersAndProperties(buffer);
        return ActiveMQMessage.createMessage(decoded, null);
    }

    /** The message as another provider's: only its JMS interface. */
    private static Message jmsOnly(Message m) {
        Class<?> type = m instanceof BytesMessage ? BytesMessage.class : Message.class;
        return (Message) Proxy.newProxyInstance(Message.class.getClassLoader(), new Class<?>[] {type},
                (proxy, method, args) -> {
                    try {
                        return method.invoke(m, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
