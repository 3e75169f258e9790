package org.openmft.rest;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

import org.openmft.agent.config.ConfigKey;
import org.openmft.agent.config.ConfigRegistry;
import org.openmft.agent.config.ConfigValues;
import org.openmft.agent.config.ConfigurationException;
import org.openmft.agent.config.Validator;

/**
 * {@code rest.properties}, beside {@code coordination.properties} in a configuration options set:
 * the REST API server's settings. IBM configures its mqweb server with variables of the same
 * names in {@code mqwebuser.xml} ({@code httpHost}, {@code httpPort}, {@code httpsPort}); the keys
 * OpenMFT adds start with {@code openmft.rest.}. Every key is optional: without the file the server
 * listens on {@code 127.0.0.1:9080} without TLS. Immutable.
 *
 * <p>Secure by default: plain HTTP is served on a loopback address only. Binding to any other
 * address needs a key store ({@code openmft.rest.keyStore}), and the server then speaks HTTPS only
 * ({@link #check}).
 */
public final class RestConfig {
    /** The file's name in the configuration options directory. */
    public static final String FILE_NAME = "rest.properties";
    private static final String GROUP = "REST API";

    /** The address to listen on (IBM's mqweb variable). */
    public static final ConfigKey<String> HTTP_HOST = ConfigKey.string("httpHost").defaultValue("127.0.0.1")
            .supported().group(GROUP).description("Address the REST API listens on; any address other than a loopback one needs "
                    + "openmft.rest.keyStore (HTTPS).").build();
    /** The plain HTTP port, used when there is no key store (IBM's mqweb variable). */
    public static final ConfigKey<Integer> HTTP_PORT = ConfigKey.integer("httpPort").defaultValue(9080)
            .validator(Validator.intRange(0, 65535)).supported().group(GROUP)
            .description("Port for plain HTTP, served on a loopback httpHost only and only without a key store; "
                    + "0 picks a free port.").build();
    /** The HTTPS port, used with a key store (IBM's mqweb variable). */
    public static final ConfigKey<Integer> HTTPS_PORT = ConfigKey.integer("httpsPort").defaultValue(9443)
            .validator(Validator.intRange(0, 65535)).supported().group(GROUP)
            .description("Port for HTTPS, used when openmft.rest.keyStore is set; 0 picks a free port.").build();
    /** The server's certificate and key. */
    public static final ConfigKey<Path> KEY_STORE = ConfigKey.path("openmft.rest.keyStore").supported().group(GROUP)
            .description("Key store (PKCS#12 or JKS) with the server's certificate and private key; turns HTTPS on.")
            .build();
    /** The key store's format. */
    public static final ConfigKey<String> KEY_STORE_TYPE = ConfigKey.string("openmft.rest.keyStoreType")
            .defaultValue("pkcs12").validator(Validator.regex("(?i)jks|pkcs12", "jks or pkcs12")).supported().group(GROUP)
            .description("Format of the key store.").build();
    /** Where the key store's password is. */
    public static final ConfigKey<Path> KEY_STORE_CREDENTIALS_FILE = ConfigKey
            .path("openmft.rest.keyStoreCredentialsFile").supported().group(GROUP)
            .description("File holding the key store password (MQMFTCredentials.xml with a <tns:file> entry, or a "
                    + "file whose first line is the password); readable by its owner only.").build();
    /** The logger whose database holds the transfer history. */
    public static final ConfigKey<String> LOGGER = ConfigKey.string("openmft.rest.logger").supported().group(GROUP)
            .description("Name of the database logger whose store the transfer history is read from (default: the "
                    + "only logger of the configuration options set).").build();
    /** The queue manager whose users may log in. */
    public static final ConfigKey<String> USERS_QMGR = ConfigKey.string("openmft.rest.usersQMgr").supported().group(GROUP)
            .description("Embedded queue manager of this host whose users (mft qmgr user) log in with HTTP Basic "
                    + "authentication (default: the coordination queue manager).").build();

    /** Refused logins from one address before it is locked out. */
    public static final ConfigKey<Integer> MAX_FAILED_LOGINS = ConfigKey.integer("openmft.rest.maxFailedLogins")
            .defaultValue(10).validator(Validator.intRange(1, 100_000)).supported().group(GROUP)
            .description("Refused HTTP Basic logins from one address within openmft.rest.failedLoginWindow after "
                    + "which its requests are refused (429) for openmft.rest.failedLoginLockout.").build();
    /** The window the refused logins are counted in. */
    public static final ConfigKey<Integer> FAILED_LOGIN_WINDOW = ConfigKey.integer("openmft.rest.failedLoginWindow")
            .defaultValue(60).validator(Validator.intRange(1, 86_400)).unit("s").supported().group(GROUP)
            .description("Window in which an address's refused logins are counted.").build();
    /** How long an address is locked out. */
    public static final ConfigKey<Integer> FAILED_LOGIN_LOCKOUT = ConfigKey.integer("openmft.rest.failedLoginLockout")
            .defaultValue(300).validator(Validator.intRange(1, 86_400)).unit("s").supported().group(GROUP)
            .description("How long an address that reached openmft.rest.maxFailedLogins is refused.").build();

    /** All keys of rest.properties. */
    public static final ConfigRegistry REGISTRY = ConfigRegistry.builder(FILE_NAME)
            .add(HTTP_HOST, HTTP_PORT, HTTPS_PORT, KEY_STORE, KEY_STORE_TYPE, KEY_STORE_CREDENTIALS_FILE, LOGGER,
                    USERS_QMGR, MAX_FAILED_LOGINS, FAILED_LOGIN_WINDOW, FAILED_LOGIN_LOCKOUT)
            .build();

    private final ConfigValues values;

    private RestConfig(ConfigValues values) {
        this.values = values;
    }

    /**
     * Reads {@code rest.properties}; a missing file means every default.
     *
     * @param file the file
     * @param env the environment for {@code ${VAR}} in paths
     * @return the checked configuration
     * @throws ConfigurationException when a value is bad, or the settings are not secure ({@link #check})
     */
    public static RestConfig load(Path file, Map<String, String> env) throws ConfigurationException {
        Map<String, String> raw = new LinkedHashMap<>();
        if (Files.exists(file)) {
            Properties p = new Properties();
            try (InputStream in = Files.newInputStream(file)) {
                p.load(in);
            } catch (IOException e) {
                throw new ConfigurationException(file + ": cannot be read: " + e.getMessage(), e);
            }
            p.stringPropertyNames().forEach(k -> raw.put(k, p.getProperty(k).strip()));
        }
        return check(new RestConfig(REGISTRY.parse(raw, file.toString(), env)));
    }

    /**
     * Parses raw key-value pairs.
     *
     * @param raw key to value
     * @return the checked configuration
     * @throws ConfigurationException when a value is bad, or the settings are not secure ({@link #check})
     */
    public static RestConfig from(Map<String, String> raw) throws ConfigurationException {
        return check(new RestConfig(REGISTRY.parse(raw, FILE_NAME, Map.of())));
    }

    /**
     * Refuses what would fail open: an address other than a loopback one without TLS, and a key store
     * without its password file.
     */
    private static RestConfig check(RestConfig c) throws ConfigurationException {
        if (c.keyStore().isPresent() && c.values.get(KEY_STORE_CREDENTIALS_FILE) == null) {
            throw new ConfigurationException("BFGRE0003E: " + KEY_STORE.name() + " is set but "
                    + KEY_STORE_CREDENTIALS_FILE.name() + " is not: the key store's password is read from that file",
                    KEY_STORE_CREDENTIALS_FILE.name(), "");
        }
        if (c.keyStore().isEmpty() && !isLoopback(c.host())) {
            throw new ConfigurationException("BFGRE0002E: " + HTTP_HOST.name() + "=" + c.host() + " is not a loopback"
                    + " address, and the REST API leaves this host over TLS only: set " + KEY_STORE.name() + " and "
                    + KEY_STORE_CREDENTIALS_FILE.name() + " in " + FILE_NAME + " (or listen on 127.0.0.1)",
                    HTTP_HOST.name(), c.host());
        }
        return c;
    }

    /** Whether every address the name stands for is a loopback one (an unknown name is not). */
    static boolean isLoopback(String host) {
        try {
            InetAddress[] all = InetAddress.getAllByName(host);
            for (InetAddress a : all) {
                if (!a.isLoopbackAddress()) {
                    return false;
                }
            }
            return all.length > 0;
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** @return {@code httpHost} */
    public String host() {
        return values.get(HTTP_HOST);
    }

    /** @return the port to listen on: {@code httpsPort} with TLS, else {@code httpPort} */
    public int port() {
        return tls() ? values.get(HTTPS_PORT) : values.get(HTTP_PORT);
    }

    /** @return whether the server speaks HTTPS */
    public boolean tls() {
        return keyStore().isPresent();
    }

    /** @return {@code openmft.rest.keyStore}, if set */
    public Optional<Path> keyStore() {
        return Optional.ofNullable(values.get(KEY_STORE));
    }

    /** @return {@code openmft.rest.keyStoreType} */
    public String keyStoreType() {
        return values.get(KEY_STORE_TYPE);
    }

    /** @return {@code openmft.rest.keyStoreCredentialsFile}, if set */
    public Optional<Path> keyStoreCredentialsFile() {
        return Optional.ofNullable(values.get(KEY_STORE_CREDENTIALS_FILE));
    }

    /** @return {@code openmft.rest.logger}, if set */
    public Optional<String> logger() {
        return Optional.ofNullable(values.get(LOGGER));
    }

    /** @return {@code openmft.rest.usersQMgr}, if set */
    public Optional<String> usersQMgr() {
        return Optional.ofNullable(values.get(USERS_QMGR));
    }

    /** @return {@code openmft.rest.maxFailedLogins} */
    public int maxFailedLogins() {
        return values.get(MAX_FAILED_LOGINS);
    }

    /** @return {@code openmft.rest.failedLoginWindow} */
    public java.time.Duration failedLoginWindow() {
        return java.time.Duration.ofSeconds(values.get(FAILED_LOGIN_WINDOW));
    }

    /** @return {@code openmft.rest.failedLoginLockout} */
    public java.time.Duration failedLoginLockout() {
        return java.time.Duration.ofSeconds(values.get(FAILED_LOGIN_LOCKOUT));
    }

    /** @return the effective configuration, one key a line, secrets masked */
    public String describe() {
        return values.describe();
    }
}
