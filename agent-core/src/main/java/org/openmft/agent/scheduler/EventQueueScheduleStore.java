package org.openmft.agent.scheduler;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.messaging.EventQueueSession;
import org.openmft.agent.messaging.ProviderErrors;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.QueueManagerException;
import org.openmft.agent.transfer.state.StateTag;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Schedules on the agent's {@code SYSTEM.FTE.EVENT.<AGENT>} queue, beside the resource monitors'
 * records (IBM keeps agent-held definitions on its agent queues too): one persistent message per
 * schedule, selected by the property {@value #SCHEDULE}.
 *
 * <p>Why a queue: an occurrence is a request put on the agent's COMMAND queue, and only a queue
 * can take the schedule's next index under the same commit as that put, so no crash runs an
 * occurrence twice or loses one. Records and the occurrences' requests carry a {@link StateTag}:
 * a schedule record put there by anyone else is never used, and only an occurrence put by this
 * store gets {@code <scheduleLog ID>} in its transfer log ({@link #scheduleOf}).
 *
 * <p>Not thread-safe: {@link ScheduleService} calls it under its lock.
 */
final class EventQueueScheduleStore implements ScheduleStore {
    private static final Logger log = LoggerFactory.getLogger(EventQueueScheduleStore.class);
    static final String SCHEDULE = "mftSchedule";
    /** On an occurrence's request: the schedule it belongs to. */
    static final String SCHEDULE_ID = "mftScheduleId";
    static final String TAG = "mftStateTag";
    /** The message holding the highest id ever given, so that no id is given twice. */
    static final String COUNTER = "mftScheduleCounter";

    private final EventQueueSession events;
    private final String queueName;
    private final String commandQueue;
    private final StateTag tag;
    private final Map<Long, String> written = new HashMap<>();
    private String counterMessage;
    private long highestId;

    EventQueueScheduleStore(QueueManagerConnector connector, String agent, StateTag tag) {
        this.events = new EventQueueSession(connector, agent);
        this.queueName = events.queueName();
        this.commandQueue = events.commandQueue();
        this.tag = tag;
    }

    @Override
    public List<ScheduleRecord> load() throws ScheduleStoreException {
        List<ScheduleRecord> out = new ArrayList<>();
        try {
            Session s = events.session();
            written.clear();
            counterMessage = null;
            try (QueueBrowser browser = s.createBrowser(events.queue(), COUNTER + " IS NOT NULL")) {
                Enumeration<?> e = browser.getEnumeration();
                while (e.hasMoreElements()) {
                    Message m = (Message) e.nextElement();
                    String value = m.getStringProperty(COUNTER);
                    if (StateTag.matches(tag.tag("scheduleCounter", queueName, value), m.getStringProperty(TAG))) {
                        highestId = Math.max(highestId, Long.parseLong(value));
                        counterMessage = m.getJMSMessageID();
                    }
                }
            }
            try (QueueBrowser browser = s.createBrowser(events.queue(), SCHEDULE + " IS NOT NULL")) {
                Enumeration<?> e = browser.getEnumeration();
                while (e.hasMoreElements()) {
                    Message m = (Message) e.nextElement();
                    String id = m.getStringProperty(SCHEDULE);
                    byte[] body = EventQueueSession.body(m, ScheduleRecord.MAX_RECORD_BYTES);
                    if (body == null) {
                        continue;
                    }
                    if (!StateTag.matches(tag.tag("schedule", queueName, id, digest(body)), m.getStringProperty(TAG))) {
                        tag.refused();
                        log.warn("A schedule record on {} for {} (message {}) has no or a wrong tag: not written by"
                                + " this agent, not used, left on the queue", queueName, id, m.getJMSMessageID());
                        continue;
                    }
                    try {
                        ScheduleRecord record = ScheduleRecord.fromBytes(body);
                        if (String.valueOf(record.id()).equals(id)
                                && written.putIfAbsent(record.id(), m.getJMSMessageID()) == null) {
                            out.add(record);
                        }
                    } catch (IOException ex) {
                        log.warn("The schedule record on {} for {} (message {}) cannot be read: {}", queueName, id,
                                m.getJMSMessageID(), ex.getMessage());
                    }
                }
            }
            s.commit();
        } catch (JMSException | QueueManagerException e) {
            close();
            throw new ScheduleStoreException("cannot read the schedules on " + queueName + ": " + describe(e), e);
        }
        return out;
    }

    @Override
    public void save(long id, ScheduleRecord record, String transfer) throws ScheduleStoreException {
        String[] ids = new String[2]; // the record's message, the new counter's
        try {
            events.transact(s -> {
                ids[0] = null;
                ids[1] = null;
                takeOld(id);
                if (record != null) {
                    byte[] body = record.toBytes();
                    BytesMessage m = s.createBytesMessage();
                    m.writeBytes(body);
                    m.setStringProperty(SCHEDULE, Long.toString(id));
                    m.setStringProperty(TAG, tag.tag("schedule", queueName, Long.toString(id), digest(body)));
                    events.records().send(m);
                    ids[0] = m.getJMSMessageID();
                }
                if (record != null && id > highestId) {
                    if (counterMessage != null) {
                        events.take(counterMessage, "the schedule id counter");
                    }
                    Message c = s.createMessage();
                    c.setStringProperty(COUNTER, Long.toString(id));
                    c.setStringProperty(TAG, tag.tag("scheduleCounter", queueName, Long.toString(id)));
                    events.records().send(c);
                    ids[1] = c.getJMSMessageID();
                }
                if (transfer != null) {
                    TextMessage t = s.createTextMessage(transfer);
                    t.setStringProperty(SCHEDULE_ID, Long.toString(id));
                    t.setStringProperty(TAG, occurrenceTag(id, transfer));
                    events.commands().send(t);
                }
            });
            if (ids[1] != null) {
                counterMessage = ids[1];
                highestId = id;
            }
            if (ids[0] != null) {
                written.put(id, ids[0]);
            } else {
                written.remove(id);
            }
        } catch (JMSException | QueueManagerException | RuntimeException e) {
            close();
            throw new ScheduleStoreException("cannot save schedule " + id + " on " + queueName + ": " + describe(e), e);
        }
    }

    private String occurrenceTag(long id, String transfer) {
        return tag.tag("scheduled", commandQueue, Long.toString(id),
                digest(transfer.getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * The schedule a request on the COMMAND queue is an occurrence of, when this store put it
     * there (its tag proves it); else null.
     *
     * @param scheduleId  the request message's {@value #SCHEDULE_ID} property, or null
     * @param stateTag    its {@value #TAG} property, or null
     * @param requestText the request document
     */
    static Long scheduleOf(StateTag tag, String agent, String scheduleId, String stateTag, String requestText) {
        if (scheduleId == null || stateTag == null || requestText == null) {
            return null;
        }
        String expected = tag.tag("scheduled", QueueNames.command(agent), scheduleId,
                digest(requestText.getBytes(StandardCharsets.UTF_8)));
        if (!StateTag.matches(expected, stateTag)) {
            tag.refused();
            return null;
        }
        try {
            return Long.parseLong(scheduleId);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    @Override
    public long highestId() {
        return highestId;
    }

    private void takeOld(long id) throws JMSException {
        String messageId = written.get(id);
        if (messageId != null) {
            events.take(messageId, "the record of schedule " + id);
        }
    }

    private static String digest(byte[] body) {
        return EventQueueSession.digest(body);
    }

    private static String describe(Exception e) {
        return ProviderErrors.describe(e);
    }

    /** Drops the connection; the next call opens a new one. */
    @Override
    public void close() {
        events.close();
    }
}
