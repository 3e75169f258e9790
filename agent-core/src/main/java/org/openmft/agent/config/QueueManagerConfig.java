package org.openmft.agent.config;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What agent.properties, coordination.properties and command.properties have in common: one
 * queue manager connection (name, host, port, channel, provider; no host means bindings) over a
 * set of parsed values. Each file names its keys differently; the subclasses pass theirs.
 * Immutable and thread-safe.
 */
public abstract class QueueManagerConfig {
    /** The parsed values of the file. */
    protected final ConfigValues values;
    private final ConfigKey<String> qmgr;
    private final ConfigKey<String> host;
    private final ConfigKey<Integer> port;
    private final ConfigKey<String> channel;
    private final ConfigKey<MessagingProvider> provider;

    QueueManagerConfig(ConfigValues values, ConfigKey<String> qmgr, ConfigKey<String> host, ConfigKey<Integer> port,
            ConfigKey<String> channel, ConfigKey<MessagingProvider> provider) {
        this.values = values;
        this.qmgr = qmgr;
        this.host = host;
        this.port = port;
        this.channel = channel;
        this.provider = provider;
    }

    /**
     * The messaging system.
     *
     * @return the file's {@code ...QMgrProvider}
     */
    public MessagingProvider provider() {
        return values.get(provider);
    }

    /**
     * Whether connections are client connections.
     *
     * @return true when the file's {@code ...QMgrHost} is set
     */
    public boolean clientMode() {
        return host().isPresent();
    }

    /**
     * The host.
     *
     * @return the file's {@code ...QMgrHost}, empty for bindings
     */
    public Optional<String> host() {
        return Optional.ofNullable(values.get(host));
    }

    /**
     * The client port.
     *
     * @return the file's {@code ...QMgrPort}
     */
    public int port() {
        return values.get(port);
    }

    /**
     * The server-connection channel.
     *
     * @return the file's {@code ...QMgrChannel}
     */
    public String channel() {
        return values.get(channel);
    }

    /**
     * Where the queue manager is.
     *
     * @return the endpoint
     */
    public QueueManagerEndpoint endpoint() {
        return new QueueManagerEndpoint(provider(), values.get(qmgr), host().orElse(null), port(), channel());
    }

    /**
     * Any key of the file; for unsupported keys this is the IBM default, which is how OpenMFT
     * behaves.
     *
     * @param <T> the value type
     * @param key a key of the file's registry
     * @return the value, or {@code null} when not set and without default
     */
    public <T> T get(ConfigKey<T> key) {
        return values.get(Objects.requireNonNull(key, "key"));
    }

    /**
     * The underlying values, for {@link ConfigValues#isSet} and {@link ConfigValues#rawValue}.
     *
     * @return the values
     */
    public ConfigValues values() {
        return values;
    }

    /**
     * Warnings about unknown and unsupported keys, one per key, to log at start-up.
     *
     * @return the warnings
     */
    public List<String> warnings() {
        return values.warnings();
    }

    /**
     * The effective configuration, one key per line, to log at start-up.
     *
     * @return the description
     * @see ConfigValues#describe()
     */
    public String describe() {
        return values.describe();
    }
}
