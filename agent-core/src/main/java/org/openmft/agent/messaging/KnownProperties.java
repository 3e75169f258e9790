package org.openmft.agent.messaging;

import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.jms.JMSException;
import jakarta.jms.Message;

import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.core.message.impl.CoreMessage;
import org.apache.activemq.artemis.jms.client.ActiveMQMessage;

/**
 * Reads which of a fixed list of property names a message has, and their values, in one pass over
 * the properties the message has, instead of one look-up per name of the list.
 *
 * <p>Why: every JMS property get or set by {@code String} name makes Artemis turn the name into a
 * {@code SimpleString} (a new byte array and its hash) before the look-up, and a message tag asks
 * for some fifty names of which about fifteen are there (docs/profiling.md). For an Artemis message
 * the properties are visited where they are (their names are compared as Artemis holds them, with
 * names converted once, here); for any other provider's, the names the message lists
 * ({@link Message#getPropertyNames()}) are matched against the list and only those are read.
 * Either way a value is what {@link Message#getObjectProperty} gives for its name: an Artemis
 * string value as a {@code String}.
 *
 * <p>Immutable and thread-safe; each {@link #read} returns a new array.
 */
public final class KnownProperties {
    private final int size;
    private final Map<String, Integer> byName = new HashMap<>();
    private final Map<SimpleString, Integer> bySimpleName = new HashMap<>();

    /**
     * @param names the names to read, none a {@code JMSX} name (those Artemis keeps outside the
     *              properties)
     */
    public KnownProperties(List<String> names) {
        this.size = names.size();
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            if (name.startsWith("JMS")) {
                throw new IllegalArgumentException("not a user property: " + name);
            }
            byName.put(name, i);
            bySimpleName.put(SimpleString.of(name), i);
        }
    }

    /**
     * The values of the listed properties in a message.
     *
     * @param m the message
     * @return at index {@code i} the value of the {@code i}-th name, or null when the message has
     *         none (or a null one)
     */
    public Object[] read(Message m) throws JMSException {
        Object[] values = new Object[size];
        if (m instanceof ActiveMQMessage a && a.getCoreMessage() instanceof CoreMessage core) {
            core.getProperties().forEach((name, value) -> {
                Integer i = bySimpleName.get(name);
                if (i != null) {
                    values[i] = value instanceof SimpleString s ? s.toString() : value;
                }
            });
            return values;
        }
        for (Enumeration<?> names = m.getPropertyNames(); names.hasMoreElements();) {
            String name = (String) names.nextElement();
            Integer i = byName.get(name);
            if (i != null) {
                values[i] = m.getObjectProperty(name);
            }
        }
        return values;
    }
}
