package org.openmft.agent.messaging;

import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;

import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.credentials.Credentials;
import org.openmft.agent.credentials.CredentialsException;
import org.openmft.agent.config.QueueManagerEndpoint;
import org.openmft.agent.qmgr.EmbeddedQueueManager;
import org.openmft.agent.qmgr.QueueManagerException;
import org.openmft.agent.qmgr.QueueManagerSettings;
import org.openmft.agent.qmgr.security.QueueManagerUsers;
import org.openmft.agent.tls.ArtemisSslContextFactory;
import org.openmft.agent.tls.ClientTlsContext;
import org.openmft.agent.tls.TlsClientSettings;
import org.openmft.agent.tls.TlsSettingException;

import com.ibm.mq.MQQueueManager;
import com.ibm.mq.jakarta.jms.MQConnectionFactory;
import com.ibm.msg.client.jakarta.wmq.WMQConstants;

/**
 * Opens JMS connections to one queue manager, on either provider, the way IBM MFT decides: no
 * host means a bindings connection, a host means a client connection.
 *
 * <table>
 *   <caption>How an endpoint becomes a connection</caption>
 *   <tr><th>provider</th><th>bindings (no host)</th><th>client (host)</th></tr>
 *   <tr><td>Artemis</td><td>in-VM connector to the queue manager running in this JVM; a command
 *       (never an agent) may instead reach a queue manager of this host's data directory through
 *       its loopback TCP acceptor (over TLS when the listener has it, trusting exactly the
 *       listener's certificate)</td><td>TCP to host:port, over TLS when the endpoint has TLS
 *       settings</td></tr>
 *   <tr><td>IBM MQ</td><td>{@code WMQ_CM_BINDINGS} to the local queue manager</td>
 *       <td>{@code WMQ_CM_CLIENT} with host, port, channel and queue manager name</td></tr>
 * </table>
 *
 * <p>Credentials, in this order: those passed by the caller; those of the endpoint (the file's
 * {@code ...QMgrAuthenticationCredentialsFile}); for an Artemis queue manager of this host, its
 * administrator's, read from the queue manager's own directory (by a command, or an agent given the
 * data directory) or kept by the queue manager running in this JVM. That last rule is how the owner
 * of a data directory works "without extra steps": as IBM MQ lets a local bindings connection in
 * with the authority of the operating-system user, the owner, who can read the administrator's
 * credentials file (owner-only, in an owner-only directory), connects as the administrator. Other
 * users cannot read it, and processes on other hosts must name a credentials file. IBM MQ gets the
 * credentials as MQCSP; without any it connects as before (the channel's own rules apply).
 *
 * <p>Every Artemis factory carries {@link ArtemisTuning}'s parameters so that chunks never take
 * the large-message path. Instances are immutable and thread-safe.
 */
public final class QueueManagerConnector {
    private final QueueManagerEndpoint endpoint;
    private final ConnectionFactory factory;
    private final String description;
    private final Credentials credentials;
    private final String artemisUrl;
    private final ClientTlsContext tls;
    /** Whether {@link #connect} lends the process's shared connection for this login ({@link #sharing}). */
    private final boolean shared;

    private QueueManagerConnector(QueueManagerEndpoint endpoint, ConnectionFactory factory, String description,
            Credentials credentials, String artemisUrl, ClientTlsContext tls, boolean shared) {
        this.endpoint = endpoint;
        this.factory = factory;
        this.description = description;
        this.credentials = credentials;
        this.artemisUrl = artemisUrl;
        this.tls = tls;
        this.shared = shared;
    }

    /**
     * This connector, whose {@link #connect} lends a connection shared with every other sharing
     * connector of this process that logs in to the same Artemis queue manager as the same user
     * with the same password ({@link SharedConnections}): for an agent's control work (its command
     * loop, stores and publication outbox), not for its transfers, which keep connections of their
     * own. On IBM MQ, and over TLS (where the client's certificate may be its identity), it is this
     * connector: each connect is a connection of its own.
     */
    public QueueManagerConnector sharing() {
        if (shared || artemisUrl == null || tls != null) {
            return this;
        }
        return new QueueManagerConnector(endpoint, factory, description, credentials, artemisUrl, tls, true);
    }

    /**
     * A connector for an agent. A bindings agent on Artemis must run in the same JVM as its queue
     * manager (the in-VM connector): that is what bindings means.
     *
     * @throws QueueManagerException (exit code 75) when a bindings queue manager is not running here
     */
    public static QueueManagerConnector forAgent(QueueManagerEndpoint endpoint, Credentials credentials)
            throws QueueManagerException {
        return create(endpoint, null, credentials, false);
    }

    /**
     * A connector for an agent of a data directory: as {@link #forAgent(QueueManagerEndpoint, Credentials)},
     * and an agent without credentials of its own whose queue manager is defined under
     * {@code qmgrsDirectory} connects as that queue manager's administrator.
     */
    public static QueueManagerConnector forAgent(QueueManagerEndpoint endpoint, Credentials credentials,
            Path qmgrsDirectory) throws QueueManagerException {
        if (credentials == null && endpoint.credentials() == null && qmgrsDirectory != null
                && endpoint.provider() == MessagingProvider.ARTEMIS) {
            credentials = localAdministrator(endpoint, qmgrsDirectory).orElse(null);
        }
        return create(endpoint, null, credentials, false);
    }

    /**
     * A connector for a command (CLI) process. A bindings endpoint on Artemis whose queue manager is
     * not in this JVM is reached through the loopback acceptor recorded under
     * {@code qmgrsDirectory/<name>}.
     */
    public static QueueManagerConnector forCommand(QueueManagerEndpoint endpoint, Path qmgrsDirectory,
            Credentials credentials) throws QueueManagerException {
        return create(endpoint, qmgrsDirectory, credentials, true);
    }

    /**
     * A connector for a command that administers a queue manager's objects (an agent's or a logger's
     * queues, the host of bindings agents): as the queue manager's administrator when it is defined in
     * this data directory and its credentials can be read here, else with the endpoint's credentials.
     */
    public static QueueManagerConnector forAdministration(QueueManagerEndpoint endpoint, Path qmgrsDirectory)
            throws QueueManagerException {
        if (endpoint.provider() == MessagingProvider.ARTEMIS && qmgrsDirectory != null) {
            Optional<Credentials> admin = localAdministrator(endpoint, qmgrsDirectory);
            if (admin.isPresent()) {
                return create(endpoint, qmgrsDirectory, admin.get(), true);
            }
        }
        return create(endpoint, qmgrsDirectory, null, true);
    }

    private static QueueManagerConnector create(QueueManagerEndpoint ep, Path qmgrsDirectory,
            Credentials credentials, boolean command) throws QueueManagerException {
        if (credentials == null) {
            credentials = ep.credentials();
        }
        if (credentials == null && ep.provider() == MessagingProvider.ARTEMIS) {
            if (!ep.clientMode()) {
                credentials = EmbeddedQueueManager.inVmAdministrator(ep.qmgrName()).orElse(null);
            }
            if (credentials == null && command && qmgrsDirectory != null) {
                credentials = localAdministrator(ep, qmgrsDirectory).orElse(null);
            }
        }
        if (ep.provider() == MessagingProvider.IBMMQ) {
            IbmMqClient.require("queue manager " + ep.qmgrName());
            ClientTlsContext tls = ep.clientMode() && ep.tls() != null ? tlsContext(ep, ep.tls()) : null;
            return new QueueManagerConnector(ep, ibmMq(ep, tls), ibmDescription(ep), credentials, null, tls, false);
        }
        Target target = artemisTarget(ep, qmgrsDirectory);
        ClientTlsContext tls = target.tls() == null ? null : tlsContext(ep, target.tls());
        String url = target.url();
        // The TLS parameters go after the query: they name no secret, but keep the URL shown in messages short.
        String full = url + (url.contains("?") ? "&" : "?") + ArtemisTuning.clientUrlParameters()
                + (url.startsWith("tcp:") ? "&" + ArtemisTuning.tcpUrlParameters() : "")
                + (tls == null ? "" : "&" + ArtemisSslContextFactory.urlParameter(tls).replace(';', '&'));
        ActiveMQConnectionFactory cf = new ActiveMQConnectionFactory(full);
        if (credentials != null) {
            // Also for code that uses the factory itself (factory()), such as a Spring JMS template.
            cf.setUser(credentials.user());
            cf.setPassword(credentials.password());
        }
        return new QueueManagerConnector(ep, cf, "queue manager " + ep.qmgrName() + " (" + url
                + (tls == null ? "" : ", TLS") + ")", credentials, url, tls, false);
    }

    private static ClientTlsContext tlsContext(QueueManagerEndpoint ep, TlsClientSettings settings)
            throws QueueManagerException {
        try {
            return ClientTlsContext.create(settings);
        } catch (TlsSettingException e) {
            throw new QueueManagerException("cannot use TLS for queue manager " + ep.qmgrName() + ": "
                    + e.getMessage(), QueueManagerException.CONFIGURATION, e);
        }
    }

    /** Where an Artemis connection goes, and with which TLS settings (null: none). */
    private record Target(String url, TlsClientSettings tls) {
    }

    private static Target artemisTarget(QueueManagerEndpoint ep, Path qmgrsDirectory) throws QueueManagerException {
        if (ep.clientMode()) {
            String host = ep.host().contains(":") ? "[" + ep.host() + "]" : ep.host();
            return new Target("tcp://" + host + ":" + ep.port(), ep.tls());
        }
        OptionalInt inVm = EmbeddedQueueManager.inVmId(ep.qmgrName());
        if (inVm.isPresent()) {
            return new Target("vm://" + inVm.getAsInt(), null);
        }
        if (qmgrsDirectory != null) {
            Optional<QueueManagerSettings> local = localSettings(qmgrsDirectory.resolve(ep.qmgrName()));
            if (local.isPresent()) {
                QueueManagerSettings s = local.get();
                if (!s.tlsEnabled()) {
                    return new Target(s.loopbackUrl(), null);
                }
                // A command on this host: the file's own TLS keys if it has them, else the queue
                // manager's certificate pinned (and its local client certificate for mutual TLS).
                if (ep.tls() != null) {
                    return new Target(s.loopbackUrl(), ep.tls());
                }
                try {
                    return new Target(s.loopbackUrl(), s.tls().localClient(s.directory()));
                } catch (TlsSettingException e) {
                    throw new QueueManagerException("cannot reach queue manager " + ep.qmgrName() + " over TLS: "
                            + e.getMessage(), QueueManagerException.CONFIGURATION, e);
                }
            }
            throw new QueueManagerException("queue manager " + ep.qmgrName()
                    + " is not defined on this host (no " + qmgrsDirectory.resolve(ep.qmgrName())
                    + "): create it with 'mft qmgr create " + ep.qmgrName()
                    + "' or give a host for a client connection", QueueManagerException.UNAVAILABLE);
        }
        throw new QueueManagerException("queue manager " + ep.qmgrName() + " is not running in this process: a"
                + " bindings connection needs the agent to run inside its queue manager's process"
                + " ('mft agent start' does that when the queue manager runs), or set agentQMgrHost for a"
                + " client connection", QueueManagerException.UNAVAILABLE);
    }

    /**
     * The administrator's credentials of a queue manager defined in this data directory, when the
     * process may read them (it is the owner's).
     *
     * @throws QueueManagerException (exit code 78) when the file exists but cannot be used
     */
    private static Optional<Credentials> localAdministrator(QueueManagerEndpoint ep, Path qmgrsDirectory)
            throws QueueManagerException {
        Path dir;
        try {
            dir = qmgrsDirectory.resolve(QueueManagerSettings.validateName(ep.qmgrName()));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        if (!java.nio.file.Files.isRegularFile(dir.resolve(QueueManagerSettings.FILE_NAME))) {
            return Optional.empty();
        }
        QueueManagerUsers users = QueueManagerUsers.of(ep.qmgrName(), dir);
        if (!java.nio.file.Files.isReadable(users.administratorCredentialsFile())) {
            return Optional.empty();
        }
        try {
            return users.administrator();
        } catch (CredentialsException e) {
            throw new QueueManagerException("cannot use the administrator's credentials of queue manager "
                    + ep.qmgrName() + ": " + e.getMessage(), QueueManagerException.CONFIGURATION, e);
        }
    }

    private static Optional<QueueManagerSettings> localSettings(Path dir) {
        try {
            return Optional.of(QueueManagerSettings.load(dir));
        } catch (java.io.IOException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    static MQConnectionFactory ibmMq(QueueManagerEndpoint ep, ClientTlsContext tls) throws QueueManagerException {
        try {
            MQConnectionFactory cf = new MQConnectionFactory();
            cf.setQueueManager(ep.qmgrName());
            if (ep.clientMode()) {
                cf.setTransportType(WMQConstants.WMQ_CM_CLIENT);
                cf.setHostName(ep.host());
                cf.setPort(ep.port());
                cf.setChannel(ep.channel());
                if (tls != null) {
                    // IBM MQ checks the peer name itself (SSLPeerName); the socket factory carries the
                    // stores, so no JVM-wide javax.net.ssl properties are needed.
                    TlsClientSettings s = tls.settings();
                    cf.setSSLCipherSuite(s.ibmCipherSuite());
                    cf.setSSLPeerName(s.ibmPeerName().orElse(null));
                    cf.setSSLFipsRequired(s.fipsRequired());
                    cf.setSSLSocketFactory(tls.sslContext().getSocketFactory());
                }
            } else {
                cf.setTransportType(WMQConstants.WMQ_CM_BINDINGS);
            }
            // Credentials go as MQCSP (IBM MFT's default since 9.1.1), which allows long passwords.
            cf.setBooleanProperty(WMQConstants.USER_AUTHENTICATION_MQCSP, true);
            cf.setAppName("OpenMFT");
            return cf;
        } catch (JMSException e) {
            throw new QueueManagerException("cannot configure an IBM MQ connection to " + ibmDescription(ep) + ": "
                    + ProviderErrors.describe(e), 1, e);
        }
    }

    private static String ibmDescription(QueueManagerEndpoint ep) {
        return "queue manager " + ep.qmgrName() + (ep.clientMode()
                ? " (IBM MQ client " + ep.host() + "(" + ep.port() + ") channel " + ep.channel() + ")"
                : " (IBM MQ bindings)");
    }

    /**
     * Opens a connection. The caller owns it and must close it.
     *
     * @throws QueueManagerException (exit code 75) naming the queue manager and the provider's
     *                               reason code when the queue manager cannot be reached
     */
    public Connection connect() throws QueueManagerException {
        if (shared) {
            return SharedConnections.PROCESS.lease(artemisUrl, credentials == null ? null : credentials.user(),
                    credentials == null ? null : credentials.password(), this::open);
        }
        return open();
    }

    private Connection open() throws QueueManagerException {
        if (tls != null) {
            tls.clearProblem();
        }
        try {
            return credentials == null ? factory.createConnection()
                    : factory.createConnection(credentials.user(), credentials.password());
        } catch (jakarta.jms.JMSSecurityException e) {
            throw new QueueManagerException(refusal(e), QueueManagerException.CONFIGURATION, e);
        } catch (JMSException e) {
            throw new QueueManagerException("cannot connect to " + description + ": " + ProviderErrors.describe(e)
                    + tlsProblem(), QueueManagerException.UNAVAILABLE, e);
        } catch (RuntimeException e) {
            throw new QueueManagerException("cannot connect to " + description + ": " + e,
                    QueueManagerException.UNAVAILABLE, e);
        }
    }

    /**
     * Opens an IBM MQ base-classes connection with this connector's endpoint, credentials and TLS,
     * for what JMS cannot do: the alternate-user opens of {@code authorityChecking=true}. The caller
     * disconnects it.
     *
     * @throws IllegalStateException  on an Artemis connector
     * @throws QueueManagerException (exit code 78) when the queue manager refuses the login; 75 when it
     *                               cannot be reached
     */
    public MQQueueManager connectIbmMqBase() throws QueueManagerException {
        if (artemisUrl != null) {
            throw new IllegalStateException("not an IBM MQ connector: " + description);
        }
        IbmMqClient.require(description);
        return IbmMqBase.connect(endpoint, credentials, tls, description);
    }

    /**
     * What to tell a user whose login the queue manager refused: which user, and what to check.
     * Artemis does not say whether the user is unknown or the password wrong, and should not.
     */
    private String refusal(jakarta.jms.JMSSecurityException e) {
        String detail = ProviderErrors.describe(e);
        if (credentials == null) {
            return description + " refused a connection without a user: it requires one; name an"
                    + " MQMFTCredentials.xml file with the properties file's ...QMgrAuthenticationCredentialsFile"
                    + " key (" + detail + ")";
        }
        return description + " refused the login of user '" + credentials.user() + "': the user is unknown to"
                + " it or the password is wrong (" + detail + ")";
    }

    /** The credentials this connector logs in with, or null. */
    org.openmft.agent.credentials.Credentials credentials() {
        return credentials;
    }

    /** The user this connector logs in as, if any. */
    public Optional<String> user() {
        return Optional.ofNullable(credentials).map(Credentials::user);
    }

    /** Why TLS failed, when this connection uses TLS: Artemis's own message does not say. */
    private String tlsProblem() {
        return tls == null ? "" : tls.lastProblem().map(p -> "; TLS: " + p).orElse("");
    }

    /**
     * Whether a queue exists on this queue manager. Sends of non-persistent messages do not report
     * a missing queue, so callers that must fail fast ask first. Artemis is asked through its core
     * API (its JMS client would create a legacy-named queue on a browse); IBM MQ through a browser
     * on {@code session}, which fails with MQRC 2085 for an unknown queue.
     */
    public boolean queueExists(jakarta.jms.Session session, String queue) throws JMSException {
        if (artemisUrl != null) {
            try {
                return new ArtemisQueueAdmin(this).depths(java.util.List.of(queue)).get(queue) >= 0;
            } catch (QueueManagerException e) {
                JMSException j = new JMSException(e.getMessage());
                j.initCause(e);
                throw j;
            }
        }
        try {
            session.createBrowser(session.createQueue(queue)).close();
            return true;
        } catch (jakarta.jms.InvalidDestinationException e) {
            return false;
        }
    }

    /** The Artemis core URL ({@code vm://n} or {@code tcp://host:port}), or null for IBM MQ. */
    public String artemisUrl() {
        return artemisUrl;
    }

    /**
     * The URL for an Artemis core {@code ServerLocator} to the same queue manager: {@link #artemisUrl()}
     * with this connection's TLS parameters, if it has TLS; null for IBM MQ.
     */
    public String artemisLocatorUrl() {
        if (artemisUrl == null || tls == null) {
            return artemisUrl;
        }
        return artemisUrl + (artemisUrl.contains("?") ? "&" : "?")
                + ArtemisSslContextFactory.urlParameter(tls).replace(';', '&');
    }

    /** The endpoint this connector reaches. */
    public QueueManagerEndpoint endpoint() {
        return endpoint;
    }

    /** The underlying factory, for code that tunes provider-specific behaviour. */
    public ConnectionFactory factory() {
        return factory;
    }

    /** A human description such as "queue manager QM1 (tcp://127.0.0.1:1414)", for messages. */
    public String description() {
        return description;
    }
}
