package org.openmft.agent.messaging;

import jakarta.jms.JMSException;

import org.apache.activemq.artemis.api.core.ActiveMQException;

import com.ibm.mq.MQException;

/**
 * Turns provider exceptions into one line an MQ administrator can act on: the JMS error code, and
 * the provider's own reason (IBM MQ's MQRC number, Artemis's error type).
 */
public final class ProviderErrors {
    private ProviderErrors() {
    }

    /**
     * Describes a JMS exception, e.g. {@code JMSWMQ2013: ... (MQRC 2059)} or
     * {@code AMQ219007: Cannot connect to server(s) (Artemis NOT_CONNECTED)}.
     */
    public static String describe(JMSException e) {
        StringBuilder sb = new StringBuilder();
        if (e.getErrorCode() != null && (e.getMessage() == null || !e.getMessage().contains(e.getErrorCode()))) {
            sb.append(e.getErrorCode()).append(": ");
        }
        sb.append(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
        String reason = reason(e);
        if (reason != null) {
            sb.append(" (").append(reason).append(')');
        }
        return sb.toString();
    }

    /**
     * Describes any failure of a provider call: a JMS exception as {@link #describe(JMSException)},
     * anything else (a provider's runtime exception, an I/O error) by its message.
     */
    public static String describe(Exception e) {
        return e instanceof JMSException j ? describe(j) : e.getMessage();
    }

    /**
     * The provider's reason for a failure, such as {@code MQRC 2059} or {@code Artemis NOT_CONNECTED},
     * or null when the exception carries none.
     */
    public static String reason(Throwable e) {
        int depth = 0;
        for (Throwable t = e; t != null && depth < 20; t = next(t), depth++) {
            // Tested first so that without IBM's jar the class is never resolved.
            if (IbmMqClient.available() && t instanceof MQException mq) {
                return "MQRC " + mq.getReason();
            }
            if (t instanceof ActiveMQException amq) {
                return "Artemis " + amq.getType();
            }
        }
        return null;
    }

    private static Throwable next(Throwable t) {
        if (t instanceof JMSException j && j.getLinkedException() != null && j.getLinkedException() != t) {
            return j.getLinkedException();
        }
        return t.getCause() == t ? null : t.getCause();
    }
}
