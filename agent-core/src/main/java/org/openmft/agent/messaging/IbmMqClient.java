package org.openmft.agent.messaging;

import org.openmft.agent.qmgr.QueueManagerException;

/**
 * Whether IBM's MQ client classes ({@code com.ibm.mq.jakarta.client}) are on the class path. The
 * distribution is Artemis-only by default; the IBM MQ provider is an optional part, added by a
 * {@code -Pibmmq} build or by copying IBM's jar into {@code lib/}. Every use of an IBM class is
 * behind {@link #require} or {@link #available()}, so that without the jar an Artemis process
 * never touches one, and a process configured for IBM MQ stops with exit code 78 naming what to
 * install, instead of failing later with a {@code NoClassDefFoundError} or falling back to Artemis.
 */
public final class IbmMqClient {
    /** IBM's Maven coordinates, named in the error. */
    public static final String ARTIFACT = "com.ibm.mq:com.ibm.mq.jakarta.client";
    private static final String PROBE = "com.ibm.mq.jakarta.jms.MQConnectionFactory";
    private static final boolean AVAILABLE = probe();

    private IbmMqClient() {
    }

    private static boolean probe() {
        try {
            Class.forName(PROBE, false, IbmMqClient.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** Whether the IBM MQ client classes can be loaded. */
    public static boolean available() {
        return AVAILABLE;
    }

    /**
     * Returns when the IBM MQ client classes are present.
     *
     * @param what the queue manager (or setting) that asks for IBM MQ, named in the error
     * @throws QueueManagerException (exit code 78) naming the jar to install when they are absent
     */
    public static void require(String what) throws QueueManagerException {
        if (!AVAILABLE) {
            throw new QueueManagerException(missing(what), QueueManagerException.CONFIGURATION);
        }
    }

    /** The error text for {@code what} asking for IBM MQ without its client classes. */
    static String missing(String what) {
        return what + " uses the IBM MQ provider, but IBM's MQ client classes (" + ARTIFACT
                + ", class " + PROBE + ") are not installed in this OpenMFT: build the distribution with"
                + " 'mvn package -Pibmmq', or copy IBM's com.ibm.mq.jakarta.client jar (9.4 or later, with org.json's"
                + " json jar) into its lib directory; OpenMFT does not fall back to another provider";
    }
}
