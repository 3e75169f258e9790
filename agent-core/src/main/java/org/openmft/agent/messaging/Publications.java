package org.openmft.agent.messaging;

import java.util.regex.Pattern;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

import org.openmft.agent.config.MessagingProvider;
import org.openmft.xml.log.MalformedPublicationException;
import org.openmft.xml.log.PublicationReader;
import org.openmft.xml.log.TransferProgress;

/**
 * Where and how agents publish to the coordination queue manager (reference §3.2, §3.3, and
 * {@code docs/architecture.md}, "Coordination").
 *
 * <p>The topic strings are IBM's, verbatim: {@code SYSTEM.FTE/Agents/<agent>} (retained),
 * {@code SYSTEM.FTE/Transfers/<agent>/<id>} and {@code SYSTEM.FTE/Log/<agent>/<id>}. IBM MQ carries
 * them as a topic tree with retained publications. Artemis has neither a topic tree with
 * {@code /} levels (its wildcard delimiter is {@code .}, which IBM's names use inside levels) nor
 * retained publications, so on Artemis:
 * <ul>
 *   <li>every publication goes to the multicast address {@value #TOPIC} (the name of IBM's topic
 *       object) and carries its topic string in the property {@value #TOPIC_STRING_PROPERTY};
 *       subscribers select on it, e.g. {@code MQTopicString LIKE 'SYSTEM.FTE/Log/%'}
 *       ({@link #selector});</li>
 *   <li>a retained publication also carries {@value #RETAINED_PROPERTY}{@code = true}; the queue
 *       manager keeps the newest one per topic string in the last-value queue
 *       {@value #RETAINED_QUEUE} and copies the matching ones into every subscription created
 *       afterwards, as IBM MQ delivers retained publications to a new subscriber.</li>
 * </ul>
 */
public final class Publications {
    /** The topic object (IBM) and multicast address (Artemis) all publications go to. */
    public static final String TOPIC = "SYSTEM.FTE";
    /** The root of every topic string. */
    public static final String ROOT = "SYSTEM.FTE";
    /** Artemis: the message property holding a publication's topic string. */
    public static final String TOPIC_STRING_PROPERTY = "MQTopicString";
    /** Artemis: the boolean message property marking a retained publication. */
    public static final String RETAINED_PROPERTY = "MQRetained";
    /** Artemis: the last-value queue holding the newest retained publication of each topic string. */
    public static final String RETAINED_QUEUE = "SYSTEM.FTE.RETAINED";
    /** OpenMFT: a publication's unique id (agent, start time and sequence), for diagnosis. */
    public static final String PUBLICATION_ID_PROPERTY = "OpenMFTPublicationId";

    private Publications() {
    }

    /**
     * The progress publication a message carries (text or bytes, as IBM MQ and Artemis deliver it),
     * or null for an empty body, one over {@link PublicationReader#MAX_DOCUMENT_BYTES} or another
     * message type. Shared by the client's progress feed and the REST API's live progress.
     */
    public static TransferProgress readProgress(PublicationReader reader, Message m) throws JMSException,
            MalformedPublicationException {
        if (m instanceof TextMessage t) {
            String text = t.getText();
            return text == null || text.isEmpty() ? null : reader.readProgress(text);
        }
        if (m instanceof BytesMessage b) {
            long length = b.getBodyLength();
            if (length == 0 || length > PublicationReader.MAX_DOCUMENT_BYTES) {
                return null;
            }
            byte[] bytes = new byte[(int) length];
            b.readBytes(bytes);
            return reader.readProgress(bytes);
        }
        return null;
    }

    /** {@code SYSTEM.FTE/Agents/<agent>}. */
    public static String agentStatus(String agent) {
        return ROOT + "/Agents/" + agent;
    }

    /** {@code SYSTEM.FTE/Transfers/<agent>/<transferId>}. */
    public static String transferProgress(String agent, String transferId) {
        return ROOT + "/Transfers/" + agent + "/" + transferId;
    }

    /** {@code SYSTEM.FTE/Log/<agent>/<transferId>}. */
    public static String log(String agent, String transferId) {
        return ROOT + "/Log/" + agent + "/" + transferId;
    }

    /**
     * {@code SYSTEM.FTE/Log/<agent>/Monitors/<monitor>/<referenceId>}: a resource monitor's log, on
     * the topic IBM's MonitorLog format page names (its examples page shows
     * {@code Log/<agent>/<id>}; {@code Log/<agent>/#} subscribers see both).
     */
    public static String monitorLog(String agent, String monitor, String referenceId) {
        return ROOT + "/Log/" + agent + "/Monitors/" + monitor + "/" + referenceId;
    }

    /** {@code SYSTEM.FTE/Scheduler/<agent>}: the agent's schedules (ScheduleList), retained. */
    public static String scheduler(String agent) {
        return ROOT + "/Scheduler/" + agent;
    }

    /**
     * {@code SYSTEM.FTE/monitors/<agent>/<monitor>}: a resource monitor's retained listing
     * (MonitorList.xsd), which fteListMonitors reads; an empty publication there clears it.
     */
    public static String monitorList(String agent, String monitor) {
        return ROOT + "/monitors/" + agent + "/" + monitor;
    }

    /** {@code SYSTEM.FTE/Log/<agent>/NotAuthorized}: IBM's authority refusals (result 53). */
    public static String notAuthorized(String agent) {
        return ROOT + "/Log/" + agent + "/NotAuthorized";
    }

    /**
     * Whether {@code topic} matches an IBM MQ topic pattern, where {@code #} matches any number of
     * levels (including none) and {@code +} exactly one.
     */
    public static boolean matches(String pattern, String topic) {
        String[] p = pattern.split("/", -1);
        String[] t = topic.split("/", -1);
        return matches(p, 0, t, 0);
    }

    private static boolean matches(String[] p, int i, String[] t, int j) {
        if (i == p.length) {
            return j == t.length;
        }
        if (p[i].equals("#")) {
            for (int k = j; k <= t.length; k++) {
                if (matches(p, i + 1, t, k)) {
                    return true;
                }
            }
            return false;
        }
        if (j == t.length) {
            return false;
        }
        return (p[i].equals("+") || p[i].equals(t[j])) && matches(p, i + 1, t, j + 1);
    }

    private static final Pattern LIKE_SPECIAL = Pattern.compile("([!%_])");

    /**
     * An Artemis message selector that lets through at least every publication whose topic string
     * matches {@code pattern} (exactly, for patterns whose only wildcard is a trailing {@code #});
     * check {@link #matches} on what arrives when the pattern has other wildcards.
     */
    public static String selector(String pattern) {
        int wild = firstWildcard(pattern);
        String prefix = wild < 0 ? pattern : pattern.substring(0, wild);
        String escaped = LIKE_SPECIAL.matcher(prefix.replace("'", "''")).replaceAll("!$1");
        if (wild < 0) {
            return TOPIC_STRING_PROPERTY + " = '" + prefix.replace("'", "''") + "'";
        }
        if (pattern.endsWith("/#") && wild == pattern.length() - 1) {
            // "a/b/#" also matches "a/b" itself.
            String parent = prefix.substring(0, prefix.length() - 1).replace("'", "''");
            return "(" + TOPIC_STRING_PROPERTY + " LIKE '" + escaped + "%' ESCAPE '!' OR " + TOPIC_STRING_PROPERTY
                    + " = '" + parent + "')";
        }
        return TOPIC_STRING_PROPERTY + " LIKE '" + escaped + "%' ESCAPE '!'";
    }

    /**
     * A non-durable subscription to the publications whose topic strings match {@code pattern}, as
     * the provider carries them: on IBM MQ the topic string itself, on Artemis the
     * {@value #TOPIC} address with {@link #selector}. Subscribers still check {@link #matches} where
     * the pattern has wildcards other than a trailing {@code #}.
     */
    public static MessageConsumer subscribe(Session session, MessagingProvider provider, String pattern)
            throws JMSException {
        return provider == MessagingProvider.IBMMQ ? session.createConsumer(session.createTopic(pattern))
                : session.createConsumer(session.createTopic(TOPIC), selector(pattern));
    }

    /**
     * A durable subscription named {@code name} (on the session's connection's client id) to the
     * publications matching {@code pattern}; see {@link #subscribe}.
     */
    public static MessageConsumer subscribeDurably(Session session, MessagingProvider provider, String name,
            String pattern) throws JMSException {
        return provider == MessagingProvider.IBMMQ
                ? session.createDurableSubscriber(session.createTopic(pattern), name)
                : session.createDurableSubscriber(session.createTopic(TOPIC), name, selector(pattern), false);
    }

    private static int firstWildcard(String pattern) {
        String[] levels = pattern.split("/", -1);
        int pos = 0;
        for (String level : levels) {
            if (level.equals("#") || level.equals("+")) {
                return pos;
            }
            pos += level.length() + 1;
        }
        return -1;
    }
}
