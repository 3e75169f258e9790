package org.openmft.agent.messaging;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;

import org.apache.activemq.artemis.api.core.client.ClientMessage;
import org.apache.activemq.artemis.jms.client.ActiveMQMessage;

/**
 * How big a received message's body is, learnt without decoding it, so that a consumer can refuse
 * an oversized message before it turns the body into a {@code String} or a {@code byte[]}.
 *
 * <p>JMS says the length of a {@link BytesMessage} ({@code getBodyLength}) but not of a
 * {@link TextMessage}. Artemis does, through the core message under the JMS one: a normal message's
 * encoded body size, a large message's {@code _AMQ_LARGE_SIZE}. Artemis encodes text as UTF-16
 * (two bytes a character, after a 5-byte header), so the encoded size gives the number of
 * characters, and a character is at least one byte in UTF-8: that is the lower bound returned.
 * (The Artemis JMS client has decoded the text into its own buffer during {@code receive}
 * already; what a size check spares is the {@code String} and its UTF-8 copy. The queue manager's
 * per-message cap on command queues bounds what {@code receive} can take in; see
 * {@code MessageSizeCap}.) Other providers say nothing for text: -1.
 *
 * <p>Stateless and thread-safe.
 */
public final class MessageSizes {
    /** Artemis's header before a text body: a not-null flag and an int length. */
    static final int ARTEMIS_TEXT_HEADER_BYTES = 5;

    private MessageSizes() {
    }

    /**
     * The fewest bytes the message's body can take as UTF-8 text or as bytes, known without
     * decoding it; -1 when the provider does not say.
     */
    public static long minimumBodyBytes(Message message) throws JMSException {
        if (message instanceof ActiveMQMessage artemis) {
            long encoded = encodedBodyBytes(artemis.getCoreMessage());
            if (encoded >= 0 && message instanceof TextMessage) {
                return Math.max(0, encoded - ARTEMIS_TEXT_HEADER_BYTES) / 2;
            }
            if (encoded >= 0) {
                return encoded;
            }
        }
        if (message instanceof BytesMessage bytes) {
            return bytes.getBodyLength();
        }
        return -1;
    }

    /** The body's size as Artemis encodes it, or -1 when unknown. */
    static long encodedBodyBytes(ClientMessage core) {
        if (core == null) {
            return -1;
        }
        if (core.isLargeMessage()) {
            // getBodySize() would unbox a missing property: ask for the property itself.
            Long large = core.containsProperty(org.apache.activemq.artemis.api.core.Message.HDR_LARGE_BODY_SIZE)
                    ? core.getLongProperty(org.apache.activemq.artemis.api.core.Message.HDR_LARGE_BODY_SIZE)
                    : null;
            return large == null ? -1 : large;
        }
        return core.getBodySize();
    }
}
