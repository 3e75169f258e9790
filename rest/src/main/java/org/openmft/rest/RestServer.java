package org.openmft.rest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.openmft.agent.tls.StorePasswords;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The HTTP server of the REST API and the dashboard: Jetty's core handlers, one handler of ours
 * that authenticates every request (HTTP Basic against the queue manager's users,
 * {@link UserLogin}), then serves the dashboard's files ({@link Dashboard}) or the API
 * ({@link MftResources}). No request is served anonymously; a request that changes something
 * ({@code POST}, {@code DELETE}) must carry IBM's {@code ibm-mq-rest-csrf-token} header, which a
 * page of another site cannot add.
 *
 * <p>Bounded: at most {@value #MAX_THREADS} request threads, request bodies of at most
 * {@value #MAX_BODY_BYTES} bytes. Plain HTTP on a loopback address, HTTPS (TLS 1.2 or 1.3) with a
 * key store otherwise ({@link RestConfig}).
 */
public final class RestServer implements AutoCloseable {
    /** Request threads, at most. */
    public static final int MAX_THREADS = 16;
    /** The largest request body read. */
    public static final int MAX_BODY_BYTES = 1 << 20;
    /** IBM's CSRF header. */
    public static final String CSRF_HEADER = "ibm-mq-rest-csrf-token";

    private static final Logger log = LoggerFactory.getLogger(RestServer.class);

    private final Server server;
    private final ServerConnector connector;
    private final MftResources resources;
    private final UserLogin login;
    private final LoginThrottle throttle;
    private final Dashboard dashboard = new Dashboard();
    private final boolean tls;

    /**
     * A server, not started yet.
     *
     * @param config the settings
     * @param resources the API
     * @param login the users who may log in
     */
    public RestServer(RestConfig config, MftResources resources, UserLogin login) {
        this.resources = resources;
        this.login = login;
        this.throttle = LoginThrottle.of(config, java.time.Clock.systemUTC());
        this.tls = config.tls();
        QueuedThreadPool threads = new QueuedThreadPool(MAX_THREADS, 2);
        threads.setName("openmft-rest");
        server = new Server(threads);
        if (config.tls()) {
            Path store = config.keyStore().orElseThrow();
            Path credentials = config.keyStoreCredentialsFile().orElseThrow();
            SslContextFactory.Server ssl = new SslContextFactory.Server();
            ssl.setKeyStorePath(store.toString());
            ssl.setKeyStoreType(config.keyStoreType().toUpperCase(java.util.Locale.ROOT));
            ssl.setKeyStorePassword(StorePasswords.read(credentials, store, RestConfig.KEY_STORE_CREDENTIALS_FILE
                    .name()));
            ssl.setIncludeProtocols("TLSv1.3", "TLSv1.2");
            connector = new ServerConnector(server, ssl);
        } else {
            connector = new ServerConnector(server);
        }
        connector.setHost(config.host());
        connector.setPort(config.port());
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                serve(request, response, callback);
                return true;
            }
        });
    }

    /**
     * Starts listening.
     *
     * @throws Exception when the port cannot be bound or the key store cannot be read
     */
    public void start() throws Exception {
        server.start();
        log.info("REST API listening on {}://{}:{}/ (users of queue manager {})", tls ? "https" : "http",
                connector.getHost(), connector.getLocalPort(), login.qmgrName());
    }

    /** @return the port listened on (the one picked when 0 was configured) */
    public int port() {
        return connector.getLocalPort();
    }

    private void serve(Request request, Response response, Callback callback) {
        String method = request.getMethod();
        String path = Request.getPathInContext(request);
        response.getHeaders().put("X-Content-Type-Options", "nosniff");
        response.getHeaders().put("Cache-Control", "no-store");
        try {
            MftResources.User user = authenticate(request);
            if (path.startsWith(MftResources.IBM_BASE + "/") || path.startsWith(MftResources.OPENMFT_BASE + "/")) {
                if (!"GET".equals(method) && !request.getHeaders().contains(CSRF_HEADER)) {
                    throw new ApiError(403, ApiError.CSRF_MISSING, "The CSRF header " + CSRF_HEADER + " was omitted"
                            + " from the request.", "Send the header with any value, as IBM's REST API requires.");
                }
                MftResources.Answer a = resources.handle(method, path, query(request), () -> body(request), user);
                if (a.location() != null) {
                    response.getHeaders().put(HttpHeader.LOCATION, a.location());
                }
                json(response, callback, a.status(), a.body());
                return;
            }
            if (!"GET".equals(method)) {
                throw new ApiError(405, ApiError.NO_SUCH_RESOURCE, "method " + method + " is not allowed here", null);
            }
            Dashboard.File file = dashboard.file(path).orElseThrow(() -> new ApiError(404, ApiError.NO_SUCH_RESOURCE,
                    "no resource " + path, null));
            response.setStatus(200);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, file.contentType());
            response.getHeaders().put("Content-Security-Policy", "default-src 'self'; img-src 'self' data:");
            response.write(true, ByteBuffer.wrap(file.bytes()), callback);
        } catch (ApiError e) {
            if (e.status() == 401) {
                response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, "Basic realm=\"OpenMFT\", charset=\"UTF-8\"");
            }
            if (!"GET".equals(method)) {
                // A refused request's body may be unread: the connection is not used again, so that a
                // client does not send its next request on a connection the server is closing.
                response.getHeaders().put(HttpHeader.CONNECTION, "close");
            }
            if (e.retryAfterSeconds() > 0) {
                response.getHeaders().put(HttpHeader.RETRY_AFTER, Long.toString(e.retryAfterSeconds()));
            }
            json(response, callback, e.status(), error(e));
        } catch (RuntimeException e) {
            log.warn("Request {} {} failed", method, path, e);
            json(response, callback, 500, error(new ApiError(500, ApiError.UNEXPECTED, "An unexpected exception "
                    + e + " occurred.", null)));
        }
    }

    /** The user of a request, whose Basic credentials the queue manager accepts. */
    private MftResources.User authenticate(Request request) throws ApiError {
        String address = Request.getRemoteAddr(request);
        java.util.Optional<java.time.Duration> locked = throttle.lockedOut(address);
        if (locked.isPresent()) {
            long seconds = Math.max(1, locked.get().toSeconds());
            throw new ApiError(429, ApiError.TOO_MANY_LOGINS, "Too many failed logins from " + address + ": requests"
                    + " from this address are refused for " + seconds + " more seconds.", "Wait, then send the"
                            + " right credentials (" + RestConfig.MAX_FAILED_LOGINS.name() + " in "
                            + RestConfig.FILE_NAME + ").", seconds);
        }
        String header = request.getHeaders().get(HttpHeader.AUTHORIZATION);
        if (header != null && header.regionMatches(true, 0, "Basic ", 0, 6)) {
            String decoded;
            try {
                decoded = new String(Base64.getDecoder().decode(header.substring(6).strip()), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                decoded = "";
            }
            int colon = decoded.indexOf(':');
            if (colon > 0) {
                String user = decoded.substring(0, colon);
                java.util.Optional<java.util.Set<String>> roles = login.check(user, decoded.substring(colon + 1));
                if (roles.isPresent()) {
                    throttle.succeeded(address);
                    return new MftResources.User(user, roles.get());
                }
                log.info("REST API: login of user {} from {} refused", user, address);
            }
            if (throttle.failed(address)) {
                log.warn("REST API: {} logins from {} refused within {} s: its requests are refused for {} s",
                        throttle.maxFailures(), address, throttle.window().toSeconds(), throttle.lockout().toSeconds());
            }
        }
        throw new ApiError(401, ApiError.NOT_AUTHENTICATED, "The REST API request to " + Request.getPathInContext(
                request) + " is not authenticated.", "Send HTTP Basic credentials of a user of queue manager "
                        + login.qmgrName() + " (mft qmgr user add).");
    }

    private static Map<String, String> query(Request request) {
        Map<String, String> out = new HashMap<>();
        Fields fields = Request.extractQueryParameters(request, StandardCharsets.UTF_8);
        for (Fields.Field f : fields) {
            out.put(f.getName(), f.getValue());
        }
        return out;
    }

    private static String body(Request request) throws ApiError {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (InputStream in = Content.Source.asInputStream(request)) {
            byte[] buffer = new byte[8192];
            int n;
            while ((n = in.read(buffer)) > 0) {
                if (out.size() + n > MAX_BODY_BYTES) {
                    throw new ApiError(413, ApiError.BAD_REQUEST, "the request body is larger than " + MAX_BODY_BYTES
                            + " bytes", "Nothing was done.");
                }
                out.write(buffer, 0, n);
            }
        } catch (IOException e) {
            throw ApiError.badRequest("the request body cannot be read: " + e.getMessage());
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private ObjectNode error(ApiError e) {
        ObjectNode root = resources.mapper().createObjectNode();
        ObjectNode o = root.putArray("error").addObject();
        o.put("type", "rest");
        o.put("msgId", e.msgId());
        o.put("message", e.msgId() + ": " + e.getMessage());
        if (e.explanation() != null) {
            o.put("explanation", e.explanation());
        }
        return root;
    }

    private void json(Response response, Callback callback, int status, ObjectNode body) {
        if (body == null) {
            response.setStatus(status);
            response.write(true, ByteBuffer.allocate(0), callback);
            return;
        }
        byte[] bytes;
        try {
            bytes = resources.mapper().writeValueAsBytes(body);
        } catch (IOException e) {
            bytes = ("{\"error\":[{\"type\":\"rest\",\"msgId\":\"" + ApiError.UNEXPECTED + "\"}]}")
                    .getBytes(StandardCharsets.UTF_8);
            status = 500;
        }
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8");
        response.write(true, ByteBuffer.wrap(bytes), callback);
    }

    /** Stops listening, after the requests being served (at most 5 seconds). */
    @Override
    public void close() {
        server.setStopTimeout(5_000);
        try {
            server.stop();
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            log.warn("The REST API server did not stop cleanly: {}", e.toString());
        }
    }
}
