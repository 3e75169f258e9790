package org.openmft.agent.config;

import java.util.Objects;

import org.openmft.agent.credentials.Credentials;
import org.openmft.agent.tls.TlsClientSettings;

/**
 * Where to find one queue manager: the agent's, the coordination one or the command one. Follows
 * IBM MFT's rule that the absence of a host means a bindings (local) connection.
 *
 * @param provider the messaging system
 * @param qmgrName the queue manager name, as written in the properties file
 * @param host the host name or address for a client connection; {@code null} means bindings
 * @param port the listener port (used only in client mode), 1 to 65535
 * @param channel the server-connection channel (used only in client mode on IBM MQ)
 * @param tls TLS for client connections, or null for none
 * @param credentials the user and password from the file's {@code ...AuthenticationCredentialsFile},
 *        or null when it names none (see {@code QueueManagerConnector} for what is used then)
 */
public record QueueManagerEndpoint(MessagingProvider provider, String qmgrName, String host, int port,
        String channel, TlsClientSettings tls, Credentials credentials) {

    /**
     * An endpoint without credentials of its own.
     *
     * @param provider the messaging system
     * @param qmgrName the queue manager name
     * @param host the host for a client connection, or {@code null} for bindings
     * @param port the listener port, 1 to 65535
     * @param channel the server-connection channel
     * @param tls TLS for client connections, or null
     */
    public QueueManagerEndpoint(MessagingProvider provider, String qmgrName, String host, int port, String channel,
            TlsClientSettings tls) {
        this(provider, qmgrName, host, port, channel, tls, null);
    }

    /**
     * An endpoint without TLS.
     *
     * @param provider the messaging system
     * @param qmgrName the queue manager name
     * @param host the host for a client connection, or {@code null} for bindings
     * @param port the listener port, 1 to 65535
     * @param channel the server-connection channel
     */
    public QueueManagerEndpoint(MessagingProvider provider, String qmgrName, String host, int port, String channel) {
        this(provider, qmgrName, host, port, channel, null, null);
    }

    /**
     * Checks the invariants that every configuration view already guarantees.
     *
     * @param provider the messaging system
     * @param qmgrName the queue manager name
     * @param host the host for a client connection, or {@code null} for bindings
     * @param port the listener port, 1 to 65535
     * @param channel the server-connection channel
     * @param tls TLS for client connections, or null
     * @param credentials the user and password, or null
     */
    public QueueManagerEndpoint {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(qmgrName, "qmgrName");
        Objects.requireNonNull(channel, "channel");
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is not between 1 and 65535");
        }
        if (host != null && host.isBlank()) {
            // A blank host would be an ambiguous third state; the properties parser maps it to "absent".
            throw new IllegalArgumentException("host must be null (bindings) or non-blank (client)");
        }
    }

    /**
     * Whether this is a client (network) connection rather than bindings.
     *
     * @return true when a host is set
     */
    public boolean clientMode() {
        return host != null;
    }

    /**
     * This endpoint with other credentials.
     *
     * @param other the user and password, or null
     * @return a copy
     */
    public QueueManagerEndpoint withCredentials(Credentials other) {
        return new QueueManagerEndpoint(provider, qmgrName, host, port, channel, tls, other);
    }
}
