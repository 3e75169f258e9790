package org.openmft.agent.transfer.state;

import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import javax.jms.DeliveryMode;
import javax.jms.JMSException;
import javax.jms.Message;
import javax.jms.MessageConsumer;
import javax.jms.MessageProducer;
import javax.jms.QueueBrowser;
import javax.jms.Session;

import org.openmft.agent.transfer.protocol.Wire;

/**
 * Transfer state records on an agent's {@code SYSTEM.FTE.STATE.<AGENT>} queue: one persistent
 * message per transfer and role, replaced in one transaction (the old record is consumed and the
 * new one put under the same commit), so a crash leaves either the old or the new record, never
 * none and never both. Records hold a bounded set of properties and no body: whatever grows with
 * the number of files lives in files of the agent's state directory, never in the message.
 *
 * <p>Not thread-safe: one instance per transacted session, used by one thread.
 */
final class StateQueue {
    /** Message property naming the role of a record: "S" source, "D" destination. */
    static final String ROLE = "mftRole";

    private final Session session;
    private final MessageProducer producer;
    private final javax.jms.Queue queue;
    private final Set<String> written = new HashSet<>();

    StateQueue(Session transactedSession, String queueName) throws JMSException {
        this.session = transactedSession;
        this.queue = session.createQueue(queueName);
        this.producer = session.createProducer(queue);
        producer.setDeliveryMode(DeliveryMode.PERSISTENT);
    }

    /**
     * Reads the records of {@code role} left by an earlier run of the agent (they are this store's
     * to replace and remove from now on). Records of another protocol version are skipped.
     *
     * @return each record's properties, in the order the queue holds them
     */
    List<Map<String, Object>> load(String role) throws JMSException {
        List<Map<String, Object>> out = new ArrayList<>();
        try (QueueBrowser browser = session.createBrowser(queue, ROLE + " = '" + role + "'")) {
            Enumeration<?> e = browser.getEnumeration();
            while (e.hasMoreElements()) {
                Message m = (Message) e.nextElement();
                String id = m.getStringProperty(Wire.TRANSFER_ID);
                if (id == null || !m.propertyExists(Wire.PROTOCOL) || m.getIntProperty(Wire.PROTOCOL) != Wire.VERSION) {
                    continue;
                }
                Map<String, Object> properties = new LinkedHashMap<>();
                for (Enumeration<?> names = m.getPropertyNames(); names.hasMoreElements();) {
                    String name = (String) names.nextElement();
                    properties.put(name, m.getObjectProperty(name));
                }
                if (written.add(key(id, role))) {
                    out.add(properties);
                }
            }
        }
        return out;
    }

    /** Replaces the record of {@code transferId} in {@code role} by one with {@code properties}. */
    void replace(String transferId, String role, Map<String, Object> properties) throws JMSException {
        try {
            takeOld(transferId, role);
            Message m = session.createMessage();
            m.setJMSCorrelationID(transferId);
            m.setStringProperty(Wire.TRANSFER_ID, transferId);
            m.setStringProperty(ROLE, role);
            m.setIntProperty(Wire.PROTOCOL, Wire.VERSION);
            for (Map.Entry<String, Object> e : properties.entrySet()) {
                m.setObjectProperty(e.getKey(), e.getValue());
            }
            producer.send(m);
            session.commit();
            written.add(key(transferId, role));
        } catch (JMSException | RuntimeException e) {
            rollbackQuietly();
            throw e;
        }
    }

    /** Removes the record of {@code transferId} in {@code role}, if this store wrote one. */
    void remove(String transferId, String role) throws JMSException {
        if (!written.contains(key(transferId, role))) {
            return;
        }
        try {
            takeOld(transferId, role);
            session.commit();
            written.remove(key(transferId, role));
        } catch (JMSException | RuntimeException e) {
            rollbackQuietly();
            throw e;
        }
    }

    private void takeOld(String transferId, String role) throws JMSException {
        if (!written.contains(key(transferId, role))) {
            return;
        }
        try (MessageConsumer c = session.createConsumer(queue,
                Wire.TRANSFER_ID + " = '" + transferId + "' AND " + ROLE + " = '" + role + "'")) {
            // The record was written by us and committed: it is there; the wait only covers its
            // delivery to this new consumer.
            c.receive(5000);
        }
    }

    private void rollbackQuietly() {
        try {
            session.rollback();
        } catch (JMSException e) {
            // The session is broken; the caller reports the original failure.
        }
    }

    private static String key(String transferId, String role) {
        return role + ":" + transferId;
    }
}
