package org.openmft.coordination.publish;

import java.nio.charset.StandardCharsets;

import jakarta.jms.BytesMessage;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.messaging.Publications;
import org.openmft.agent.messaging.Routing;

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
    jakarta.jms.Destination destination(Session session) throws JMSException;

    /** The delivery for a provider. */
    static Delivery of(MessagingProvider provider) {
        return provider == MessagingProvider.IBMMQ ? new IbmQueuedPublish() : new ArtemisAddress();
    }

    /** Artemis: the SYSTEM.FTE multicast address, topic string and retained flag as properties. */
    final class ArtemisAddress implements Delivery {
        /** Artemis's duplicate-detection property: a resent publication is dropped by the broker. */
        static final String DUPLICATE_ID = "_AMQ_DUPL_ID";

        @Override
        public jakarta.jms.Destination destination(Session session) throws JMSException {
            return session.createTopic(Publications.TOPIC);
        }

        @Override
        public void send(Session session, MessageProducer producer, Publication p) throws JMSException {
            send(producer, message(session, p), p);
        }

        /** The message for {@code p}: its body, with topic string, retained flag and ids as properties. */
        static TextMessage message(Session session, Publication p) throws JMSException {
            TextMessage m = session.createTextMessage(p.body());
            m.setStringProperty(Publications.TOPIC_STRING_PROPERTY, p.topic());
            m.setBooleanProperty(Publications.RETAINED_PROPERTY, p.kind().retained());
            m.setStringProperty(Publications.PUBLICATION_ID_PROPERTY, p.id());
            m.setStringProperty(DUPLICATE_ID, p.id());
            return m;
        }

        static void send(MessageProducer producer, Message m, Publication p) throws JMSException {
            producer.send(m, p.kind().persistent() ? DeliveryMode.PERSISTENT : DeliveryMode.NON_PERSISTENT,
                    Message.DEFAULT_PRIORITY, Message.DEFAULT_TIME_TO_LIVE);
        }
    }

    /**
     * Artemis, from an agent's own embedded queue manager through its channel to the coordination
     * queue manager, as IBM MFT agents publish to a coordination queue manager they are not
     * connected to: the message {@link ArtemisAddress} would publish, put on the transmission
     * queue and addressed ({@link Routing}) to the coordination queue manager's
     * {@value Publications#TOPIC}, where the channel's receiving end publishes it. While the
     * channel is down the publications wait, in order, on the transmission queue; the channel
     * delivers each once.
     */
    final class ThroughChannel implements Delivery {
        private final Routing routing;
        private final String coordinationQMgr;

        /**
         * @param routing          the agent queue manager's routing
         * @param coordinationQMgr the coordination queue manager, another one
         */
        ThroughChannel(Routing routing, String coordinationQMgr) {
            this.routing = routing;
            this.coordinationQMgr = coordinationQMgr;
        }

        /** The agent queue manager's transmission queue toward the coordination queue manager. */
        String transmissionQueue() {
            return Routing.transmissionQueue(coordinationQMgr);
        }

        /** The channel's name, for the log. */
        String channel() {
            return routing.localQMgr() + ".TO." + coordinationQMgr;
        }

        @Override
        public jakarta.jms.Destination destination(Session session) throws JMSException {
            return routing.destination(session, Publications.TOPIC, coordinationQMgr);
        }

        @Override
        public void send(Session session, MessageProducer producer, Publication p) throws JMSException {
            TextMessage m = ArtemisAddress.message(session, p);
            routing.address(m, Publications.TOPIC, coordinationQMgr);
            ArtemisAddress.send(producer, m, p);
        }
    }

    /**
     * IBM MQ: an MQRFH version 1 publish command on the SYSTEM.FTE queue, with the message body
     * written as-is (no JMS header).
     */
    final class IbmQueuedPublish implements Delivery {
        @Override
        public jakarta.jms.Destination destination(Session session) throws JMSException {
            jakarta.jms.Queue q = session.createQueue("queue:///" + Publications.TOPIC);
            if (org.openmft.agent.messaging.IbmMqClient.available() && q instanceof com.ibm.mq.jakarta.jms.MQQueue mq) {
                mq.setMessageBodyStyle(com.ibm.msg.client.jakarta.wmq.WMQConstants.WMQ_MESSAGE_BODY_MQ);
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
