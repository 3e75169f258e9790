package org.openmft.agent.config;

import java.util.Locale;

/**
 * The messaging system behind a queue manager name. IBM MFT always talks to IBM MQ; OpenMFT can
 * also use Apache ActiveMQ Artemis, so that an installation needs no IBM software. Selected by
 * the OpenMFT-only keys {@code agentQMgrProvider}, {@code coordinationQMgrProvider} and
 * {@code connectionQMgrProvider}.
 */
public enum MessagingProvider {
    /** Apache ActiveMQ Artemis: an embedded broker (bindings) or a remote one (client). */
    ARTEMIS,
    /** IBM MQ through the IBM MQ classes for JMS, in bindings or client mode. */
    IBMMQ;

    /**
     * The spelling used in properties files.
     *
     * @return {@code artemis} or {@code ibmmq}
     */
    public String propertyValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}
