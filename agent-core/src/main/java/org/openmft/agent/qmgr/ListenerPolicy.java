package org.openmft.agent.qmgr;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;

/**
 * Which listeners a queue manager may open: one that other machines can reach must use TLS, unless
 * the administrator said explicitly that plaintext on the network is wanted
 * ({@code --allow-plaintext-network}); then every start logs a warning. Agents' file data, requests
 * and the transfer log would otherwise cross the network readable and forgeable by anyone on the
 * path. Stateless.
 */
public final class ListenerPolicy {
    private ListenerPolicy() {
    }

    /**
     * Whether an address to bind to reaches this machine only: every address it stands for is a
     * loopback address (127.0.0.0/8, ::1). A wildcard ({@code 0.0.0.0}, {@code ::}) or a name that
     * does not resolve is not.
     *
     * @param bindAddress a literal address or a host name
     * @return true when only this machine can connect
     */
    public static boolean isLoopback(String bindAddress) {
        try {
            InetAddress[] all = InetAddress.getAllByName(bindAddress);
            if (all.length == 0) {
                return false;
            }
            for (InetAddress a : all) {
                if (!a.isLoopbackAddress()) {
                    return false;
                }
            }
            return true;
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /**
     * The refusal for a listener, if it is refused.
     *
     * @param name the queue manager name
     * @param bindAddress its listener address
     * @param port its listener port
     * @param tls whether the listener uses TLS
     * @param allowPlaintextNetwork whether the administrator accepted plaintext on the network
     * @return a message for the administrator when refused, empty when allowed
     */
    public static Optional<String> refusal(String name, String bindAddress, int port, boolean tls,
            boolean allowPlaintextNetwork) {
        if (tls || allowPlaintextNetwork || isLoopback(bindAddress)) {
            return Optional.empty();
        }
        return Optional.of("queue manager " + name + " would listen on " + bindAddress + ":" + port
                + " without TLS, where other machines can connect and read or forge its messages: refused. Use TLS"
                + " ('mft qmgr create " + name + " --bind " + bindAddress + " --tls-generate', or --tls-keystore),"
                + " keep the listener on 127.0.0.1, or accept plaintext on the network explicitly with"
                + " --allow-plaintext-network");
    }

    /**
     * The warning every start logs for an accepted plaintext listener off loopback, if it is one.
     */
    public static Optional<String> warning(QueueManagerSettings s) {
        if (s.tlsEnabled() || !s.allowPlaintextNetwork() || isLoopback(s.bindAddress())) {
            return Optional.empty();
        }
        return Optional.of("Queue manager " + s.name() + " listens on " + s.bindAddress() + ":" + s.port()
                + " WITHOUT TLS (--allow-plaintext-network): anyone on the network path can read and forge its"
                + " messages");
    }
}
