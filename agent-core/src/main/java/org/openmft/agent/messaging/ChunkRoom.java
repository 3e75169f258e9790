package org.openmft.agent.messaging;

import jakarta.jms.BytesMessage;

import io.netty.buffer.ByteBuf;

import org.apache.activemq.artemis.api.core.Message;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.core.message.impl.CoreMessage;
import org.apache.activemq.artemis.jms.client.ActiveMQMessage;

/**
 * Makes room in an Artemis message, before its body is written, for everything that will be
 * written into it, so that neither the agent nor the queue manager has to reallocate and copy it.
 *
 * <p>Why (docs/profiling.md, "Change 4"): an Artemis message keeps its body, then its headers and
 * properties, in one heap buffer. A new message's buffer is small; writing a chunk grows it to the
 * next power of two (a 256 KiB chunk gets a zeroed 512 KiB array). And the queue manager writes
 * the validated user into every message it receives ({@code populateValidatedUser}): a property
 * the message did not have, so the broker re-encodes it into a new, larger buffer, copying the
 * whole body again. Both were among the largest costs per chunk, in raw JMS as in the agents.
 * Here the body buffer is sized once for the chunk, its properties and some headroom, and the
 * message carries a blank placeholder for the validated user that the broker overwrites in place
 * (it writes the validated user over whatever the sender put there; a user of up to
 * {@link #USER_PLACEHOLDER_CHARS} characters fits without growing the message).
 *
 * <p>For another provider's message nothing is done. Stateless.
 */
public final class ChunkRoom {
    /** Characters the validated user may have and still fit in the placeholder's place. */
    static final int USER_PLACEHOLDER_CHARS = 64;
    /** Bytes left for what is written after the body is: the tag, the address, the headers. */
    static final int HEADROOM_BYTES = 1024;
    private static final SimpleString USER_PLACEHOLDER = SimpleString.of(" ".repeat(USER_PLACEHOLDER_CHARS));

    private ChunkRoom() {
    }

    /**
     * Reserves room in {@code m}, whose properties (but not its tag) are set and whose body is
     * empty, for a body of {@code bodyLength} bytes.
     */
    public static void reserve(BytesMessage m, int bodyLength) {
        if (!(m instanceof ActiveMQMessage a) || !(a.getCoreMessage() instanceof CoreMessage core)) {
            return;
        }
        if (!core.containsProperty(Message.HDR_VALIDATED_USER)) {
            core.putStringProperty(Message.HDR_VALIDATED_USER, USER_PLACEHOLDER);
        }
        ByteBuf body = core.getBodyBuffer().byteBuf();
        long wanted = (long) body.writerIndex() + bodyLength + core.getProperties().getEncodeSize() + HEADROOM_BYTES;
        if (wanted <= body.maxCapacity() && body.capacity() < wanted) {
            body.capacity((int) wanted);
        }
    }
}
