package org.openmft.agent.monitor;

import java.io.IOException;
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
import org.openmft.agent.messaging.EventQueueSession;
import org.openmft.agent.messaging.ProviderErrors;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.QueueManagerException;
import org.openmft.agent.transfer.state.StateTag;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Monitors on the agent's {@code SYSTEM.FTE.EVENT.<AGENT>} queue, where IBM keeps a monitor's
 * history: one persistent message per monitor holding its {@link MonitorRecord}.
 *
 * <p>Why a queue and not a state file: a monitor's tasks are messages put on the agent's COMMAND
 * queue, and only a queue can take the new history under the same commit as those puts. With a
 * file, a crash between the put and the file's replacement either loses a trigger or sends it
 * twice; here {@link #save} consumes the old record, puts the new one and the tasks, and commits
 * once. The record is replaced, never edited, so a crash leaves the old or the new one.
 *
 * <p>Bound: a record is gzipped and carries one entry per file the last poll saw (files that left
 * the directory are forgotten), about 20 bytes per file compressed; the queue's 4 MiB message limit
 * holds well over 100,000 files. Records carry a {@link StateTag} over their name, queue and body:
 * one put there by anyone else (a forged monitor would run transfers as the agent) is never used.
 *
 * <p>A save or delete whose session the queue manager closed since the last use (Artemis does when
 * an administrator changes the agent's user's roles) is done again once on a new session
 * ({@link EventQueueSession#transact}): the old record is taken and the new one put under one
 * commit either way, so the retry neither loses nor doubles a record or a task.
 *
 * <p>Not thread-safe: {@link MonitorService} calls it under its lock.
 */
final class EventQueueMonitorStore implements MonitorStore {
    private static final Logger log = LoggerFactory.getLogger(EventQueueMonitorStore.class);
    static final String MONITOR = "mftMonitor";
    static final String TAG = "mftStateTag";

    private final EventQueueSession events;
    private final String queueName;
    private final StateTag tag;
    private final Map<String, String> written = new HashMap<>();

    EventQueueMonitorStore(QueueManagerConnector connector, String agent, StateTag tag) {
        this.events = new EventQueueSession(connector, agent);
        this.queueName = events.queueName();
        this.tag = tag;
    }

    @Override
    public List<MonitorRecord> load() throws MonitorStoreException {
        List<MonitorRecord> out = new ArrayList<>();
        try {
            Session s = events.session();
            written.clear();
            try (QueueBrowser browser = s.createBrowser(events.queue(), MONITOR + " IS NOT NULL")) {
                Enumeration<?> e = browser.getEnumeration();
                while (e.hasMoreElements()) {
                    Message m = (Message) e.nextElement();
                    String name = m.getStringProperty(MONITOR);
                    byte[] body = EventQueueSession.body(m, MonitorRecord.MAX_RECORD_BYTES);
                    if (body == null) {
                        continue;
                    }
                    if (!StateTag.matches(tagOf(name, body), m.getStringProperty(TAG))) {
                        tag.refused();
                        log.warn("A monitor record on {} for {} (message {}) has no or a wrong tag: not written by this"
                                + " agent, not used, left on the queue", queueName, name, m.getJMSMessageID());
                        continue;
                    }
                    try {
                        MonitorRecord record = MonitorRecord.fromBytes(body);
                        if (written.putIfAbsent(record.name(), m.getJMSMessageID()) == null) {
                            out.add(record);
                        }
                    } catch (IOException ex) {
                        log.warn("The monitor record on {} for {} (message {}) cannot be read: {}", queueName, name,
                                m.getJMSMessageID(), ex.getMessage());
                    }
                }
            }
            s.commit();
        } catch (JMSException | QueueManagerException e) {
            close();
            throw new MonitorStoreException("cannot read the monitors on " + queueName + ": "
                    + ProviderErrors.describe(e), e);
        }
        return out;
    }

    @Override
    public List<String> save(MonitorRecord record, List<String> tasks) throws MonitorStoreException {
        byte[] body = record.toBytes();
        List<String> ids = new ArrayList<>();
        String[] recordId = new String[1];
        try {
            events.transact(s -> {
                ids.clear();
                takeOld(record.name());
                BytesMessage m = s.createBytesMessage();
                m.writeBytes(body);
                m.setStringProperty(MONITOR, record.name());
                m.setStringProperty(TAG, tagOf(record.name(), body));
                events.records().send(m);
                for (String task : tasks) {
                    Message t = s.createTextMessage(task);
                    events.commands().send(t);
                    ids.add(t.getJMSMessageID());
                }
                recordId[0] = m.getJMSMessageID();
            });
            written.put(record.name(), recordId[0]);
            return List.copyOf(ids);
        } catch (JMSException | QueueManagerException | RuntimeException e) {
            close();
            throw new MonitorStoreException("cannot save monitor " + record.name() + " on " + queueName + ": "
                    + ProviderErrors.describe(e), e);
        }
    }

    @Override
    public void delete(String name) throws MonitorStoreException {
        try {
            events.transact(s -> takeOld(name));
            written.remove(name);
        } catch (JMSException | QueueManagerException | RuntimeException e) {
            close();
            throw new MonitorStoreException("cannot delete monitor " + name + " from " + queueName + ": "
                    + ProviderErrors.describe(e), e);
        }
    }

    private void takeOld(String name) throws JMSException {
        String messageId = written.get(name);
        if (messageId != null) {
            events.take(messageId, "the record of monitor " + name);
        }
    }

    private String tagOf(String name, byte[] body) {
        return tag.tag("monitor", queueName, name, EventQueueSession.digest(body));
    }

    /** Drops the connection; the next call opens a new one (and the records are known by id still). */
    @Override
    public void close() {
        events.close();
    }
}
