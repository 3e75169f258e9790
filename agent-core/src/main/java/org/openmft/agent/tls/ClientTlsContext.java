package org.openmft.agent.tls;

import java.lang.ref.WeakReference;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The client side of TLS to one queue manager: an {@link SSLContext} whose trust manager checks the
 * queue manager's certificate the way an MQ administrator expects and says in plain words why it
 * refused one (expired, not trusted by the trust store, host or peer name not matching).
 *
 * <p>Why the reason is kept here: Artemis logs a failed handshake and reports only
 * {@code AMQ219007: Cannot connect to server(s)}, so the connector asks {@link #lastProblem()} to
 * complete its message. Artemis reaches the context through {@link ArtemisSslContextFactory} and
 * the id this class registers under (a weak registry: a context nobody holds disappears).
 *
 * <p>Thread-safe.
 */
public final class ClientTlsContext {
    private static final Map<String, WeakReference<ClientTlsContext>> REGISTRY = new ConcurrentHashMap<>();

    private final TlsClientSettings settings;
    private final SSLContext context;
    private final String id = UUID.randomUUID().toString();
    private volatile String lastProblem;
    private volatile String clientCertificateSent;
    private volatile boolean serverCertificateSeen;

    private ClientTlsContext(TlsClientSettings settings) throws GeneralSecurityException {
        this.settings = settings;
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(settings.trust());
        X509ExtendedTrustManager trust = Arrays.stream(tmf.getTrustManagers())
                .filter(X509ExtendedTrustManager.class::isInstance).map(X509ExtendedTrustManager.class::cast)
                .findFirst().orElseThrow(() -> new GeneralSecurityException("no X.509 trust manager"));
        X509ExtendedKeyManager keys = null;
        if (settings.keys().isPresent()) {
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(settings.keys().get(), settings.keyStorePassword().toCharArray());
            keys = Arrays.stream(kmf.getKeyManagers()).filter(X509ExtendedKeyManager.class::isInstance)
                    .map(X509ExtendedKeyManager.class::cast).findFirst().orElse(null);
        }
        this.context = SSLContext.getInstance("TLS");
        context.init(new KeyManager[] {new ClientKeys(keys)}, new TrustManager[] {new QueueManagerTrust(trust)}, null);
    }

    /**
     * Builds the context and registers it for Artemis connectors.
     *
     * @param settings the checked settings
     * @return the context
     * @throws TlsSettingException when the stores cannot be used for TLS (such as a key store whose
     *                             key password differs from its store password)
     */
    public static ClientTlsContext create(TlsClientSettings settings) {
        ClientTlsContext c;
        try {
            c = new ClientTlsContext(settings);
        } catch (GeneralSecurityException e) {
            throw new TlsSettingException(settings.key("KeyStore") + ": cannot use the stores for TLS: "
                    + e.getMessage(), settings.key("KeyStore"), String.valueOf(settings.keyStore().orElse(null)));
        }
        REGISTRY.values().removeIf(ref -> ref.get() == null);
        REGISTRY.put(c.id, new WeakReference<>(c));
        return c;
    }

    /** The context registered under {@code id}, while something still holds it. */
    static Optional<ClientTlsContext> registered(String id) {
        WeakReference<ClientTlsContext> ref = REGISTRY.get(id);
        return Optional.ofNullable(ref == null ? null : ref.get());
    }

    /** The id Artemis connector URLs carry (see {@link ArtemisSslContextFactory#urlParameter}). */
    public String id() {
        return id;
    }

    /** The settings. */
    public TlsClientSettings settings() {
        return settings;
    }

    /** The JSSE context, also for IBM MQ's {@code setSSLSocketFactory}. */
    public SSLContext sslContext() {
        return context;
    }

    /**
     * Why the last handshake that failed on this side failed, or what the other side probably
     * objected to, cleared once read.
     *
     * @return a sentence for an MQ administrator; empty when no TLS handshake got as far as the
     *         queue manager's certificate (the connection failed before TLS, such as a refused port)
     */
    public Optional<String> lastProblem() {
        String p = lastProblem;
        String sent = clientCertificateSent;
        boolean seen = serverCertificateSeen;
        lastProblem = null;
        clientCertificateSent = null;
        serverCertificateSeen = false;
        if (p != null) {
            return Optional.of(p);
        }
        if (!seen) {
            return Optional.empty();
        }
        return Optional.of(sent == null
                ? "the queue manager's certificate was accepted, then the connection was closed; if the queue manager"
                        + " requires client certificates (mutual TLS), set " + settings.key("KeyStore")
                : "the queue manager closed the TLS connection after this side sent its client certificate " + sent
                        + "; check that the queue manager trusts the CA that issued it");
    }

    /** Forgets what earlier handshakes left, before a new connection attempt. */
    public void clearProblem() {
        lastProblem();
    }

    private CertificateException refuse(String why) {
        lastProblem = why;
        return new CertificateException(why);
    }

    /** Checks the queue manager's certificate, and words each refusal for an MQ administrator. */
    private final class QueueManagerTrust extends X509ExtendedTrustManager {
        private final X509ExtendedTrustManager delegate;

        QueueManagerTrust(X509ExtendedTrustManager delegate) {
            this.delegate = delegate;
        }

        private void check(X509Certificate[] chain, String authType, SSLEngine engine, Socket socket)
                throws CertificateException {
            X509Certificate leaf = chain[0];
            String subject = leaf.getSubjectX500Principal().getName();
            serverCertificateSeen = true;
            try {
                leaf.checkValidity();
            } catch (CertificateExpiredException e) {
                throw refuse("the queue manager's certificate " + subject + " expired on " + leaf.getNotAfter()
                        .toInstant() + "; the queue manager needs a new certificate");
            } catch (CertificateNotYetValidException e) {
                throw refuse("the queue manager's certificate " + subject + " is not valid before "
                        + leaf.getNotBefore().toInstant() + " (is this machine's clock right?)");
            }
            try {
                if (engine != null) {
                    delegate.checkServerTrusted(chain, authType, engine);
                } else if (socket != null) {
                    delegate.checkServerTrusted(chain, authType, socket);
                } else {
                    delegate.checkServerTrusted(chain, authType);
                }
            } catch (CertificateException e) {
                throw refuse(explain(e, chain, engine));
            }
            Optional<PeerNamePattern> pattern = settings.peerName();
            if (pattern.isPresent()) {
                Optional<String> mismatch = pattern.get().mismatch(leaf.getSubjectX500Principal());
                if (mismatch.isPresent()) {
                    throw refuse("the queue manager's certificate subject " + subject + " does not match "
                            + settings.key("PeerName") + "=" + pattern.get() + ": " + mismatch.get());
                }
            }
        }

        private String explain(CertificateException e, X509Certificate[] chain, SSLEngine engine) {
            X509Certificate leaf = chain[0];
            String subject = leaf.getSubjectX500Principal().getName();
            String text = String.valueOf(e.getMessage());
            if (text.startsWith("No subject alternative") || text.startsWith("No name matching")) {
                String host = engine == null ? "the host" : engine.getPeerHost();
                return "the queue manager's certificate " + subject + " is not issued for the host name " + host
                        + " this side connects to (" + text + "); connect with a name the certificate holds, or set "
                        + settings.key("PeerName") + " to check its subject instead";
            }
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof CertPathValidatorException v
                        && v.getReason() == CertPathValidatorException.BasicReason.EXPIRED) {
                    return "a certificate in the queue manager's chain has expired (" + v.getMessage() + ")";
                }
            }
            String where = settings.trustStore() == null ? "the queue manager's own certificate"
                    : settings.key("TrustStore") + "=" + settings.trustStore();
            return "the queue manager's certificate " + subject + " (issued by "
                    + leaf.getIssuerX500Principal().getName() + ") is not trusted: no certificate in " + where
                    + " issued it (" + rootCause(e) + ")";
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            check(chain, authType, engine, null);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            check(chain, authType, null, socket);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            check(chain, authType, null, null);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            throw new CertificateException("a client context does not check client certificates");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            throw new CertificateException("a client context does not check client certificates");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            throw new CertificateException("a client context does not check client certificates");
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return delegate.getAcceptedIssuers();
        }
    }

    private static String rootCause(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }

    /**
     * Offers the client certificate, if there is one, and notes when the queue manager asked for
     * one that this side does not have: with TLS 1.3 that refusal reaches the client only as a
     * closed connection, so the note is what explains it.
     */
    private final class ClientKeys extends X509ExtendedKeyManager {
        private final X509ExtendedKeyManager delegate;

        ClientKeys(X509ExtendedKeyManager delegate) {
            this.delegate = delegate;
        }

        private String chosen(String alias, Principal[] issuers) {
            if (alias == null) {
                String wanted = issuers == null || issuers.length == 0 ? ""
                        : " issued by " + Arrays.stream(issuers).map(Principal::getName)
                                .collect(Collectors.joining(" or "));
                lastProblem = "the queue manager requires a client certificate" + wanted + " (mutual TLS), and "
                        + (delegate == null ? settings.key("KeyStore") + " is not set"
                                : settings.key("KeyStore") + "=" + settings.keyStore().orElse(null)
                                        + " holds none that fits");
            } else {
                X509Certificate[] chain = delegate.getCertificateChain(alias);
                clientCertificateSent = chain == null || chain.length == 0 ? alias
                        : chain[0].getSubjectX500Principal().getName();
            }
            return alias;
        }

        @Override
        public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
            return chosen(delegate == null ? null : delegate.chooseEngineClientAlias(keyType, issuers, engine), issuers);
        }

        @Override
        public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
            return chosen(delegate == null ? null : delegate.chooseClientAlias(keyType, issuers, socket), issuers);
        }

        @Override
        public String[] getClientAliases(String keyType, Principal[] issuers) {
            return delegate == null ? null : delegate.getClientAliases(keyType, issuers);
        }

        @Override
        public String[] getServerAliases(String keyType, Principal[] issuers) {
            return null;
        }

        @Override
        public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
            return null;
        }

        @Override
        public X509Certificate[] getCertificateChain(String alias) {
            return delegate == null ? null : delegate.getCertificateChain(alias);
        }

        @Override
        public PrivateKey getPrivateKey(String alias) {
            return delegate == null ? null : delegate.getPrivateKey(alias);
        }
    }
}
