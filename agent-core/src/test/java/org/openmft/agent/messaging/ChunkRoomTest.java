package org.openmft.agent.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import org.apache.activemq.artemis.api.core.Message;
import org.apache.activemq.artemis.core.client.impl.ClientMessageImpl;
import org.apache.activemq.artemis.core.message.impl.CoreMessage;
import org.apache.activemq.artemis.jms.client.ActiveMQBytesMessage;
import org.junit.jupiter.api.Test;

/**
 * A chunk message is allocated once on each side: writing the body and encoding it for sending
 * keep the buffer the message got from {@link ChunkRoom#reserve}, and the broker writing the
 * validated user into its copy (as {@code populateValidatedUser} does) keeps that copy's buffer;
 * without the reservation both reallocate.
 */
class ChunkRoomTest {
    private static final int CHUNK = 256 * 1024;

    @Test
    void aReservedChunkIsAllocatedOnceAtEachEnd() throws JMSException {
        byte[] body = new byte[CHUNK];
        new Random(7).nextBytes(body);
        ClientMessageImpl core = newCore();
        BytesMessage m = wrap(core);
        m.setStringProperty("mftType", "DATA");
        m.setLongProperty("mftSeq", 41);

        ChunkRoom.reserve(m, body.length);
        byte[] reserved = core.getBuffer().array();
        m.writeBytes(body);
        core.getEncodeSize(); // what the client's send does
        assertThat(core.getBuffer().array()).isSameAs(reserved);

        CoreMessage received = receivedByTheBroker(core);
        byte[] copied = received.getBuffer().array();
        stampLikeTheBroker(received, "mftadmin");
        assertThat(received.getBuffer().array()).isSameAs(copied);
        assertThat(readBack(received)).isEqualTo(body);
        assertThat(received.getStringProperty("mftType")).isEqualTo("DATA");
    }

    @Test
    void withoutTheReservationTheSameStepsReallocate() throws JMSException {
        ClientMessageImpl core = newCore();
        BytesMessage m = wrap(core);
        byte[] first = core.getBuffer().array();
        m.writeBytes(new byte[CHUNK]);
        byte[] grown = core.getBuffer().array();
        assertThat(grown).isNotSameAs(first);
        assertThat(grown.length).as("grown to the next power of two").isGreaterThanOrEqualTo(2 * CHUNK);
        core.getEncodeSize();

        CoreMessage received = receivedByTheBroker(core);
        byte[] copied = received.getBuffer().array();
        stampLikeTheBroker(received, "mftadmin");
        assertThat(received.getBuffer().array()).as("a new property grows the message").isNotSameAs(copied);
    }

    @Test
    void aLongerUserStillGetsStampedAndTheBodyStays() throws JMSException {
        byte[] body = new byte[1000];
        new Random(3).nextBytes(body);
        ClientMessageImpl core = newCore();
        BytesMessage m = wrap(core);
        ChunkRoom.reserve(m, body.length);
        m.writeBytes(body);
        core.getEncodeSize();
        String user = "u".repeat(ChunkRoom.USER_PLACEHOLDER_CHARS + 30);

        CoreMessage received = receivedByTheBroker(core);
        stampLikeTheBroker(received, user);

        assertThat(readBack(received)).isEqualTo(body);
    }

    @Test
    void anotherProvidersMessageIsLeftAlone() {
        BytesMessage foreign = (BytesMessage) java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {BytesMessage.class}, (proxy, method, args) -> {
                    throw new AssertionError("touched: " + method.getName());
                });
        ChunkRoom.reserve(foreign, CHUNK);
    }

    private static ClientMessageImpl newCore() {
        return new ClientMessageImpl(ActiveMQBytesMessage.TYPE, false, 0, 0, (byte) 4, 1500);
    }

    /** A JMS message over {@code core}, writable as one a session creates. */
    private static BytesMessage wrap(ClientMessageImpl core) throws JMSException {
        BytesMessage m = new ActiveMQBytesMessage(core, null) {
        };
        m.clearBody();
        m.clearProperties();
        return m;
    }

    /** The message as the broker decodes it from a send: in a buffer of exactly its encoded size. */
    private static CoreMessage receivedByTheBroker(CoreMessage sent) {
        int size = sent.getEncodeSize();
        ByteBuf exact = Unpooled.buffer(size);
        exact.writeBytes(sent.getBuffer(), 0, size);
        CoreMessage received = new CoreMessage();
        received.receiveBuffer(exact);
        return received;
    }

    /** What the broker does with a message it received: the validated user over the sender's, then encoded. */
    private static void stampLikeTheBroker(CoreMessage core, String user) {
        core.setValidatedUserID(user);
        core.getEncodeSize();
        assertThat(core.getStringProperty(Message.HDR_VALIDATED_USER)).isEqualTo(user);
        assertThat(receivedByTheBroker(core).getValidatedUserID()).as("as delivered").isEqualTo(user);
    }

    private static byte[] readBack(CoreMessage core) {
        var copy = core.copy();
        var buffer = copy.toCore().getReadOnlyBodyBuffer();
        byte[] out = new byte[buffer.readableBytes()];
        buffer.readBytes(out);
        return Arrays.copyOf(out, out.length);
    }
}
