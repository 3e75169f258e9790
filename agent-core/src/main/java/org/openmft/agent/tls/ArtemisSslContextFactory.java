package org.openmft.agent.tls;

import java.util.Map;

import javax.net.ssl.SSLContext;

import org.apache.activemq.artemis.core.remoting.impl.ssl.DefaultSSLContextFactory;
import org.apache.activemq.artemis.spi.core.remoting.ssl.SSLContextConfig;
import org.apache.activemq.artemis.spi.core.remoting.ssl.SSLContextFactory;

/**
 * Hands Artemis connectors the {@link ClientTlsContext} of the connection they belong to. Artemis
 * builds SSL contexts through the {@link SSLContextFactory} of highest priority found by the
 * service loader (registered in {@code META-INF/services}); a connector URL names its context with
 * {@code trustManagerFactoryPlugin=<marker><id>}, a parameter Artemis passes through to here. Every
 * other context (the queue manager's listener, any connector without the marker) is built by
 * Artemis's own default factory, unchanged.
 *
 * <p>A marked URL whose context is gone fails closed: the connection is refused, never made with
 * default trust. Stateless and thread-safe.
 */
public final class ArtemisSslContextFactory implements SSLContextFactory {
    /** Prefix of the {@code trustManagerFactoryPlugin} value that names a registered context. */
    static final String MARKER = "org.openmft.agent.tls.ClientTlsContext/";

    private final SSLContextFactory fallback = new DefaultSSLContextFactory();

    /**
     * The connector URL parameters for a context: TLS on, the context, host verification as the
     * settings say, and the cipher suites and protocols to enable.
     *
     * @param context the registered context
     * @return parameters separated by {@code ;}, without a leading separator
     */
    public static String urlParameter(ClientTlsContext context) {
        TlsClientSettings s = context.settings();
        StringBuilder sb = new StringBuilder("sslEnabled=true;trustManagerFactoryPlugin=").append(MARKER)
                .append(context.id()).append(";verifyHost=").append(s.verifyHost());
        if (!s.cipherSuites().isEmpty()) {
            sb.append(";enabledCipherSuites=").append(String.join(",", s.cipherSuites()));
        }
        if (!s.protocols().isEmpty()) {
            sb.append(";enabledProtocols=").append(String.join(",", s.protocols()));
        }
        return sb.toString();
    }

    @Override
    public SSLContext getSSLContext(SSLContextConfig config, Map<String, Object> additionalOpts) throws Exception {
        String plugin = config.getTrustManagerFactoryPlugin();
        if (plugin != null && plugin.startsWith(MARKER)) {
            String id = plugin.substring(MARKER.length());
            return ClientTlsContext.registered(id).orElseThrow(() -> new IllegalStateException(
                    "the TLS settings of this connection (" + id + ") are gone")).sslContext();
        }
        return fallback.getSSLContext(config, additionalOpts);
    }

    @Override
    public int getPriority() {
        // Above Artemis's DefaultSSLContextFactory (5), so that the service loader picks this one.
        return 50;
    }
}
