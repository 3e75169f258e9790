package org.openmft.agent.transfer.state;

import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;

import org.openmft.agent.messaging.KeptConsumers;
import org.openmft.agent.transfer.protocol.TransferIds;
import org.openmft.agent.transfer.protocol.Wire;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Transfer state records on an agent's {@code SYSTEM.FTE.STATE.<AGENT>} queue: one persistent
 * message per transfer and role, replaced in one transaction (the old record is consumed and the
 * new one put under the same commit), so a crash leaves either the old or the new record, never
 * none and never both. Records hold a bounded set of properties and no body: whatever grows with
 * the number of files lives in files of the agent's state directory, never in the message. Each
 * record carries a {@link StateTag} over its properties: records without the right one are never
 * used, and are left on the queue for whoever looks into them.
 *
 * <p>Not thread-safe: one instance per transacted session, used by one thread.
 */
final class StateQueue {
    // Refused records are reported as the store's: StateQueue is its private part.
    private static final Logger log = LoggerFactory.getLogger(QueueStateStore.class);
    /** Message property naming the role of a record: "S" source, "D" destination. */
    static final String ROLE = "mftRole";
    /** Message property: the record's {@link StateTag} over its other properties. */
    static final String TAG = "mftStateTag";
    /**
     * Consumers kept at most, one per transfer and role with a record: more than an agent runs
     * transfers at once by default; beyond it the least recently checkpointed transfer's is closed.
     */
    static final int KEPT_CONSUMERS = 64;

    private final Session session;
    private final MessageProducer producer;
    private final jakarta.jms.Queue queue;
    private final String queueName;
    private final StateTag tag;
    /** The message id of each record this store wrote or loaded, by role and transfer. */
    private final Map<String, String> written = new HashMap<>();
    /**
     * Consumers kept per transfer and role that take the record being replaced, so a checkpoint
     * creates and closes none (docs/profiling.md); null when the provider has none that take without
     * holding messages ahead, then a consumer by message id is made for each replacement.
     */
    private final KeptConsumers kept;
    /**
     * The records (by role and transfer) for which the kept consumer met another record with the
     * same transfer id and role first, one someone else put there: taken by message id from then on.
     */
    private final Set<String> contested = new HashSet<>();

    StateQueue(Session transactedSession, String queueName, StateTag tag) throws JMSException {
        this.session = transactedSession;
        this.queueName = queueName;
        this.tag = tag;
        this.queue = session.createQueue(queueName);
        this.producer = session.createProducer(queue);
        producer.setDeliveryMode(DeliveryMode.PERSISTENT);
        this.kept = KeptConsumers.of(session, queueName, KEPT_CONSUMERS);
    }

    /**
     * Reads the records of {@code role} left by an earlier run of the agent (they are this store's
     * to replace and remove from now on). Records of another protocol version are skipped; records
     * this agent did not write (no tag or a wrong one), and records whose transfer id is not one,
     * are logged, counted and left where they are.
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
                Map<String, Object> properties = properties(m);
                String why = untrusted(id, properties, m.getStringProperty(TAG));
                if (why != null) {
                    tag.refused();
                    log.warn("A record on {} for transfer {} ({}, message {}) {}: it is not trusted, not used, and"
                            + " is left on the queue", queueName, TransferIds.printable(id), role, m.getJMSMessageID(), why);
                    continue;
                }
                if (written.putIfAbsent(key(id, role), m.getJMSMessageID()) == null) {
                    out.add(properties);
                }
            }
        }
        return out;
    }

    /** Why a record is not to be trusted, or null when this agent wrote it. */
    private String untrusted(String id, Map<String, Object> properties, String found) {
        if (!TransferIds.isValid(id)) {
            return "has an invalid transfer id";
        }
        if (found == null) {
            return "has no tag (not written by this agent)";
        }
        return StateTag.matches(tagOf(properties), found) ? null : "has a wrong tag (not written by this agent)";
    }

    /**
     * Tags the records an earlier version wrote without a tag (see {@link StateTag}): each is
     * replaced by a tagged copy. Records with a tag, right or wrong, and records whose transfer id
     * is not one are left as they are.
     *
     * @return the records adopted
     */
    int adoptUntagged() throws JMSException {
        List<String> untagged = new ArrayList<>();
        try (QueueBrowser browser = session.createBrowser(queue)) {
            Enumeration<?> e = browser.getEnumeration();
            while (e.hasMoreElements()) {
                Message m = (Message) e.nextElement();
                if (m.getStringProperty(TAG) == null && TransferIds.isValid(m.getStringProperty(Wire.TRANSFER_ID))) {
                    untagged.add(m.getJMSMessageID());
                }
            }
        }
        for (String messageId : untagged) {
            try (MessageConsumer c = session.createConsumer(queue, byMessageId(messageId))) {
                Message m = c.receive(5000);
                if (m != null) {
                    producer.send(tagged(session.createMessage(), properties(m)));
                }
                session.commit();
            } catch (JMSException | RuntimeException e) {
                rollbackQuietly();
                throw e;
            }
        }
        return untagged.size();
    }

    /** Replaces the record of {@code transferId} in {@code role} by one with {@code properties}. */
    void replace(String transferId, String role, Map<String, Object> properties) throws JMSException {
        StateIds.checked(transferId, "write a record");
        try {
            takeOld(transferId, role);
            Message m = session.createMessage();
            m.setJMSCorrelationID(transferId);
            Map<String, Object> all = new LinkedHashMap<>();
            all.put(Wire.TRANSFER_ID, transferId);
            all.put(ROLE, role);
            all.put(Wire.PROTOCOL, Wire.VERSION);
            all.putAll(properties);
            producer.send(tagged(m, all));
            session.commit();
            written.put(key(transferId, role), m.getJMSMessageID());
        } catch (JMSException | RuntimeException e) {
            rollbackQuietly();
            throw e;
        }
    }

    /** Removes the record of {@code transferId} in {@code role}, if this store wrote one. */
    void remove(String transferId, String role) throws JMSException {
        StateIds.checked(transferId, "remove a record");
        if (!written.containsKey(key(transferId, role))) {
            return;
        }
        try {
            takeOld(transferId, role);
            session.commit();
            String key = key(transferId, role);
            written.remove(key);
            contested.remove(key);
            if (kept != null) {
                kept.close(selector(transferId, role));
            }
        } catch (JMSException | RuntimeException e) {
            rollbackQuietly();
            throw e;
        }
    }

    private void takeOld(String transferId, String role) throws JMSException {
        String messageId = written.get(key(transferId, role));
        if (messageId == null) {
            return;
        }
        // By its message id: the record this store wrote or loaded, never another one with the same
        // transfer id that someone else put there. The kept consumer selects by transfer and role,
        // and gives back what is not the record it is asked for.
        if (kept != null && !contested.contains(key(transferId, role))) {
            KeptConsumers.Taken taken = kept.take(selector(transferId, role), messageId, 5000);
            if (taken != KeptConsumers.Taken.OTHER) {
                // NONE as below: the wait only covers the record's delivery, and a record someone
                // removed is not there to take.
                return;
            }
            // Not a warning: that record was reported when the store loaded it (or is not this
            // store's to judge); this only says how this transfer's record is taken from now on.
            log.info("Another record on {} for transfer {} ({}) came before this agent's: its record is taken by"
                    + " message id from now on", queueName, transferId, role);
            contested.add(key(transferId, role));
        }
        try (MessageConsumer c = session.createConsumer(queue, byMessageId(messageId))) {
            // The record was written by us and committed: it is there; the wait only covers its
            // delivery to this new consumer.
            c.receive(5000);
        }
    }

    private Message tagged(Message m, Map<String, Object> properties) throws JMSException {
        for (Map.Entry<String, Object> e : properties.entrySet()) {
            m.setObjectProperty(e.getKey(), e.getValue());
        }
        m.setStringProperty(TAG, tagOf(properties));
        return m;
    }

    /**
     * The tag of a record: over the queue's name and every property (transfer id, role, protocol
     * version, incarnation, paths...) with its type, in the order of their names. Records have no
     * body.
     */
    private String tagOf(Map<String, Object> properties) {
        List<String> fields = new ArrayList<>();
        fields.add(queueName);
        for (Map.Entry<String, Object> e : new TreeMap<>(properties).entrySet()) {
            Object v = e.getValue();
            fields.add(e.getKey());
            fields.add(v == null ? null : v.getClass().getSimpleName() + ":" + v);
        }
        return tag.tag("record", fields.toArray(String[]::new));
    }

    /** The record's own properties: neither its tag nor what the provider adds ({@code JMS*}, {@code _*}). */
    private static Map<String, Object> properties(Message m) throws JMSException {
        Map<String, Object> properties = new LinkedHashMap<>();
        for (Enumeration<?> names = m.getPropertyNames(); names.hasMoreElements();) {
            String name = (String) names.nextElement();
            if (!name.equals(TAG) && !name.startsWith("JMS") && !name.startsWith("_")) {
                properties.put(name, m.getObjectProperty(name));
            }
        }
        return properties;
    }

    /** The records of a transfer in a role (the transfer id is checked: hex digits only). */
    private static String selector(String transferId, String role) {
        return Wire.TRANSFER_ID + " = '" + transferId + "' AND " + ROLE + " = '" + role + "'";
    }

    private static String byMessageId(String messageId) {
        return "JMSMessageID = '" + messageId.replace("'", "''") + "'";
    }

    private void rollbackQuietly() {
        if (kept != null) {
            // The session may have failed (a lost connection): its consumers are made again as needed.
            kept.close();
        }
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
