package org.openmft.coordination.publish;

import java.nio.charset.StandardCharsets;

import javax.jms.BytesMessage;
import javax.jms.DeliveryMode;
import javax.jms.JMSException;
import javax.jms.Message;
import javax.jms.MessageProducer;
import javax.jms.Session;
import javax.jms.TextMessage;

import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.messaging.Publications;

/**
 * Puts a publication on the coordination queue manager, the way its provider understands (see
 * {@link Publications}): on Artemis a message on the {@code SYSTEM.FTE} address carrying its
 * topic string; on IBM MQ, as IBM MFT agents do, a queued publish command (an MQRFH version 1
 * header, {@link Rfh1}) on the {@code SYSTEM.FTE} queue, which the queue manager's queued
 * publish/subscribe engine publishes on the topic.
 */
interface Delivery {

    /** Sends {@code p} with {@code producer} (created for {@link #destination}). */
    void send(Session session, MessageProducer producer, Publication p) throws JMSException;

    /** The JMS destination publications go to. */
    javax.jms.Destination destination(Session session) throws JMSException;

    /** The delivery for a provider. */
    static Delivery of(MessagingProvider provider) {
        return provider == MessagingProvider.IBMMQ ? new IbmQueuedPublish() : new ArtemisAddress();
    }

    /** Artemis: the SYSTEM.FTE multicast address, topic string and retained flag as properties. */
    final class ArtemisAddress implements Delivery {
        /** Artemis's duplicate-detection property: a resent publication is dropped by the broker. */
        static final String DUPLICATE_ID = "_AMQ_DUPL_ID";

        @Override
        public javax.jms.Destination destination(Session session) throws JMSException {
            return session.createTopic(Publications.TOPIC);
        }

        @Override
        public void send(Session session, MessageProducer producer, Publication p) throws JMSException {
            TextMessage m = session.createTextMessage(p.body());
            m.setStringProperty(Publications.TOPIC_STRING_PROPERTY, p.topic());
            m.setBooleanProperty(Publications.RETAINED_PROPERTY, p.kind().retained());
            m.setStringProperty(Publications.PUBLICATION_ID_PROPERTY, p.id());
            m.setStringProperty(DUPLICATE_ID, p.id());
            producer.send(m, p.kind().persistent() ? DeliveryMode.PERSISTENT : DeliveryMode.NON_PERSISTENT,
                    Message.DEFAULT_PRIORITY, Message.DEFAULT_TIME_TO_LIVE);
        }
    }

    /**
     * IBM MQ: an MQRFH version 1 publish command on the SYSTEM.FTE queue, with the message body
     * written as-is (no JMS header).
     */
    final class IbmQueuedPublish implements Delivery {
        @Override
        public javax.jms.Destination destination(Session session) throws JMSException {
            javax.jms.Queue q = session.createQueue("queue:///" + Publications.TOPIC);
            if (q instanceof com.ibm.mq.jms.MQQueue mq) {
                mq.setMessageBodyStyle(com.ibm.msg.client.wmq.WMQConstants.WMQ_MESSAGE_BODY_MQ);
                mq.setMQMDWriteEnabled(true);
            }
            return q;
        }

        @Override
        public void send(Session session, MessageProducer producer, Publication p) throws JMSException {
            BytesMessage m = session.createBytesMessage();
            m.writeBytes(Rfh1.publish(p.topic(), p.kind().retained(), p.body().getBytes(StandardCharsets.UTF_8)));
            m.setStringProperty("JMS_IBM_MQMD_Format", Rfh1.FORMAT);
            m.setIntProperty("JMS_IBM_MQMD_CodedCharSetId", Rfh1.CCSID_UTF8);
            m.setIntProperty("JMS_IBM_MQMD_Encoding", Rfh1.ENCODING_NATIVE_JAVA);
            producer.send(m, p.kind().persistent() ? DeliveryMode.PERSISTENT : DeliveryMode.NON_PERSISTENT,
                    Message.DEFAULT_PRIORITY, Message.DEFAULT_TIME_TO_LIVE);
        }
    }
}
