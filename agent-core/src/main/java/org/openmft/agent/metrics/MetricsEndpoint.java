package org.openmft.agent.metrics;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

import org.openmft.agent.config.ConfigurationException;
import org.openmft.agent.credentials.CredentialsException;
import org.openmft.agent.credentials.CredentialsFile;
import org.openmft.agent.tls.StorePasswords;
import org.openmft.agent.tls.TlsSettingException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.sun.net.httpserver.BasicAuthenticator;
import com.sun.net.httpserver.HttpsConfigurator;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;

/**
 * The HTTP(S) endpoint Prometheus scrapes ({@code /metrics}): the Prometheus Java client's own
 * {@link HTTPServer} over one {@link PrometheusMeterRegistry}, with TLS and HTTP Basic from
 * {@link MetricsSettings}. Two named daemon threads serve it; requests beyond a queue of 16 are
 * served by the server's dispatcher thread itself, so a flood slows scrapes down instead of
 * growing a queue.
 *
 * <p>Thread-safe; {@link #close} stops it (bounded by the HTTP server's own grace of a second or
 * less).
 */
public final class MetricsEndpoint implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(MetricsEndpoint.class);

    private static final int THREADS = 2;
    private static final int QUEUE = 16;

    private final HTTPServer server;
    private final String description;

    private MetricsEndpoint(HTTPServer server, String description) {
        this.server = server;
        this.description = description;
    }

    /**
     * Starts serving {@code registry}.
     *
     * @param settings where and how; {@link MetricsSettings#check() checked} here
     * @param owner    whose metrics, such as "agent AGENT1", for thread names and messages
     * @throws ConfigurationException (exit 78) when the settings are refused, the key store or the
     *                                credentials file cannot be used, or the port cannot be bound
     */
    public static MetricsEndpoint start(MetricsSettings settings, PrometheusMeterRegistry registry, String owner)
            throws ConfigurationException {
        settings.check();
        HTTPServer.Builder builder = HTTPServer.builder().port(settings.port())
                .registry(registry.getPrometheusRegistry()).executorService(executor(owner));
        try {
            builder.inetAddress(InetAddress.getByName(settings.bindAddress()));
        } catch (IOException e) {
            throw new ConfigurationException(settings.source() + ": " + settings.keyPrefix() + "bindAddress="
                    + settings.bindAddress() + " cannot be resolved: " + e.getMessage(),
                    settings.keyPrefix() + "bindAddress", settings.bindAddress());
        }
        if (settings.tls()) {
            builder.httpsConfigurator(new HttpsConfigurator(sslContext(settings)));
        }
        if (settings.credentialsFile() != null) {
            builder.authenticator(authenticator(settings));
        }
        HTTPServer server;
        try {
            server = builder.buildAndStart();
        } catch (IOException e) {
            throw new ConfigurationException(settings.source() + ": the metrics endpoint of " + owner
                    + " cannot listen on " + settings.bindAddress() + ":" + settings.port() + " ("
                    + settings.keyPrefix() + "port): " + e.getMessage(), settings.keyPrefix() + "port",
                    String.valueOf(settings.port()));
        }
        String description = (settings.tls() ? "https://" : "http://") + hostPart(settings.bindAddress()) + ":"
                + server.getPort() + "/metrics" + (settings.credentialsFile() == null ? "" : " (HTTP Basic login)");
        log.info("Metrics of {} served at {}", owner, description);
        if (!settings.tls()) {
            log.info("The metrics endpoint of {} is plain HTTP on loopback: every local user can read it; set {}keyStore"
                    + " and {}credentialsFile to protect it", owner, settings.keyPrefix(), settings.keyPrefix());
        }
        return new MetricsEndpoint(server, description);
    }

    /** The port it listens on (the one picked when the settings said 0). */
    public int port() {
        return server.getPort();
    }

    /** Its URL, for messages. */
    @Override
    public String toString() {
        return description;
    }

    /** Stops serving. Never throws. */
    @Override
    public void close() {
        server.close();
    }

    private static ThreadPoolExecutor executor(String owner) {
        AtomicInteger n = new AtomicInteger();
        String prefix = "openmft-" + owner.replace(' ', '-') + "-metrics-";
        return new ThreadPoolExecutor(THREADS, THREADS, 60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUE), r -> {
            Thread t = new Thread(r, prefix + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        }, new ThreadPoolExecutor.CallerRunsPolicy());
    }

    private static SSLContext sslContext(MetricsSettings s) throws ConfigurationException {
        String key = s.keyPrefix() + "keyStore";
        try {
            char[] password = StorePasswords.read(s.keyStoreCredentialsFile(), s.keyStore(),
                    s.keyPrefix() + "keyStoreCredentialsFile").toCharArray();
            KeyStore store = KeyStore.getInstance(s.keyStoreType().toUpperCase(java.util.Locale.ROOT));
            try (InputStream in = Files.newInputStream(s.keyStore())) {
                store.load(in, password);
            }
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(store, password);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys.getKeyManagers(), null, null);
            return context;
        } catch (TlsSettingException e) {
            throw new ConfigurationException(s.source() + ": " + e.getMessage(), e);
        } catch (IOException | GeneralSecurityException e) {
            throw new ConfigurationException(s.source() + ": " + key + "=" + s.keyStore()
                    + " cannot be used for the metrics endpoint: " + e.getMessage(), e);
        }
    }

    private static BasicAuthenticator authenticator(MetricsSettings s) throws ConfigurationException {
        Path file = s.credentialsFile();
        String key = s.keyPrefix() + "credentialsFile";
        String line;
        try {
            CredentialsFile.checkPrivate(file);
            line = Files.readAllLines(file, StandardCharsets.UTF_8).stream().findFirst().orElse("").strip();
        } catch (IOException | CredentialsException e) {
            throw new ConfigurationException(s.source() + ": " + key + "=" + file + ": " + e.getMessage(), e);
        }
        int colon = line.indexOf(':');
        if (colon < 1 || colon == line.length() - 1) {
            throw new ConfigurationException(s.source() + ": " + key + "=" + file
                    + ": its first line must be user:password", key, file.toString());
        }
        byte[] user = line.substring(0, colon).getBytes(StandardCharsets.UTF_8);
        byte[] password = line.substring(colon + 1).getBytes(StandardCharsets.UTF_8);
        return new BasicAuthenticator("openmft-metrics", StandardCharsets.UTF_8) {
            @Override
            public boolean checkCredentials(String u, String p) {
                // Both compared, in constant time, so that timing tells nothing about which was wrong.
                boolean userOk = MessageDigest.isEqual(user, u.getBytes(StandardCharsets.UTF_8));
                boolean passwordOk = MessageDigest.isEqual(password, p.getBytes(StandardCharsets.UTF_8));
                return userOk & passwordOk;
            }
        };
    }

    private static String hostPart(String address) {
        return address.contains(":") ? "[" + address + "]" : address;
    }
}
