package org.openmft.agent.qmgr;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.activemq.artemis.api.core.QueueConfiguration;
import org.apache.activemq.artemis.api.core.RoutingType;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.api.core.TransportConfiguration;
import org.apache.activemq.artemis.core.remoting.impl.netty.NettyAcceptorFactory;
import org.apache.activemq.artemis.core.remoting.impl.netty.TransportConstants;
import org.apache.activemq.artemis.core.config.Configuration;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.server.JournalType;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.apache.activemq.artemis.core.settings.impl.AddressFullMessagePolicy;
import org.apache.activemq.artemis.core.settings.impl.AddressSettings;
import org.apache.activemq.artemis.core.settings.impl.PageFullMessagePolicy;
import org.openmft.agent.credentials.Credentials;
import org.openmft.agent.credentials.CredentialsException;
import org.openmft.agent.messaging.ArtemisTuning;
import org.openmft.agent.qmgr.channel.Channels;
import org.openmft.agent.qmgr.security.Permissions;
import org.openmft.agent.qmgr.security.PropertiesLogin;
import org.openmft.agent.qmgr.security.QueueManagerUsers;
import org.openmft.agent.qmgr.security.SecurityWatcher;
import org.openmft.agent.tls.TlsSettingException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An Apache ActiveMQ Artemis broker run in this JVM as a named OpenMFT <em>queue manager</em>:
 * a persistent journal in the queue manager's directory, an in-VM acceptor for agents that share
 * this JVM (bindings connections) and a TCP acceptor for everything else (client connections).
 *
 * <p>The broker is configured for file chunks (see {@code docs/architecture.md}, "Queue manager"):
 * <ul>
 *   <li>the journal buffer is {@link ArtemisTuning#BROKER_MAX_RECORD_BYTES}, so a chunk of up to
 *       {@link ArtemisTuning#MAX_NORMAL_MESSAGE_BYTES} is never converted to a large message by the
 *       broker; clients raise {@code minLargeMessageSize} to match (see {@link ArtemisTuning});</li>
 *   <li>{@code SYSTEM.FTE.DATA.#} addresses BLOCK producers beyond
 *       {@link #DATA_ADDRESS_MAX_BYTES}: chunk data is non-persistent and paced by the agents'
 *       windows, so a full data queue means a stalled destination, and the right answer is to hold
 *       the source back rather than to page chunk data to disk;</li>
 *   <li>every other address PAGEs to disk beyond {@link #DEFAULT_ADDRESS_MAX_BYTES}: commands,
 *       replies and checkpoints are never dropped or refused for lack of memory; and refuses puts
 *       beyond {@link QueueManagerLimits#addressDiskMaxBytes()} on disk, so that one flooded queue
 *       (a command, reject or the dead-letter queue) cannot take the disk from the others;</li>
 *   <li>a message over its address's size limit is refused to its producer
 *       ({@link MessageSizeCap}, the limits in {@link QueueManagerLimits});</li>
 *   <li>{@code SYSTEM.FTE.*} queues exist only once an agent is created (or starts): a message for
 *       an unknown agent fails at once; other queues and addresses are created on demand; none is
 *       deleted automatically; messages that fail delivery {@link #MAX_DELIVERY_ATTEMPTS} times go
 *       to {@value #DEAD_LETTER_QUEUE}.</li>
 *   <li>it can serve as a coordination queue manager: the {@code SYSTEM.FTE} topic address and its
 *       retained publications exist on every queue manager (see {@link RetainedPublications}).</li>
 * </ul>
 *
 * <p>Security is on, always, for every acceptor (in-VM included):
 * <ul>
 *   <li>every connection logs in with a user and password of the queue manager's own
 *       {@link QueueManagerUsers} files, checked by Artemis's {@code PropertiesLoginModule}
 *       ({@link PropertiesLogin}); a queue manager without them (new, or created before security
 *       existed) gets them, with a generated administrator, at its first start;</li>
 *   <li>what each user may do follows its roles ({@link Permissions}); changes made by commands
 *       while the queue manager runs apply within seconds ({@link SecurityWatcher});</li>
 *   <li>the broker writes the validated user into every message it receives
 *       ({@code populateValidatedUser}, seen as {@code JMSXUserID}), over whatever the sender put
 *       there, and refuses a message it cannot stamp ({@code rejectEmptyValidatedUser});</li>
 *   <li>Artemis caches logins and permission checks for {@link #SECURITY_CACHE_MILLIS} ms (its
 *       default is 10 s): with the watcher's period, a removed user loses access within about
 *       3 seconds.</li>
 * </ul>
 * The TCP acceptor binds to 127.0.0.1 unless the administrator chose
 * another address, and then it must use TLS (see {@link ListenerPolicy} and {@link ListenerTls}):
 * the listener's certificate, and with mutual TLS ({@code needClientAuth}) only clients whose
 * certificate chains to its trust store get in. Two processes never open the same journal: {@link #start} takes an exclusive
 * lock on the directory first and fails with a clear message when it is held.
 *
 * <p>Thread-safety: {@link #start} and {@link #close} are called by the owning thread.
 */
public final class EmbeddedQueueManager implements AutoCloseable {
    /**
     * How often auto-deleted reply queues and addresses are looked for, in milliseconds: Artemis's
     * default. The scan walks every address of the queue manager (about ten per agent), so at 500
     * agents a scan every 5 s was a large share of an idle queue manager's CPU
     * ({@code docs/profiling.md}, Change 10).
     */
    static final long ADDRESS_SCAN_MILLIS = 30_000;
    /**
     * How often the queue manager looks for connections whose client went silent past its
     * connection TTL (60 s by default), in milliseconds; Artemis's default is 2 s. Each look queues a
     * flush task per connection (501 at 500 agents in one process), so a client that died is now
     * noticed 60 to 70 s after its last packet instead of 60 to 62.
     */
    static final long CONNECTION_CHECK_MILLIS = 10_000;
    private static final Logger log = LoggerFactory.getLogger(EmbeddedQueueManager.class);

    /** The dead-letter queue, named as IBM MQ's, for messages that failed delivery repeatedly. */
    public static final String DEAD_LETTER_QUEUE = "SYSTEM.DEAD.LETTER.QUEUE";
    /** Bytes a {@code SYSTEM.FTE.DATA.*} address may hold before its producers block: 256 MiB. */
    public static final long DATA_ADDRESS_MAX_BYTES = 256L << 20;
    /** Bytes any other address holds in memory before paging to disk: 32 MiB. */
    public static final long DEFAULT_ADDRESS_MAX_BYTES = 32L << 20;
    /** Bytes an agent's publication outbox may page to disk while the coordination queue manager is away: 1 GiB. */
    public static final long PUBLICATION_OUTBOX_MAX_BYTES = 1L << 30;
    /** Deliveries before a message goes to the dead-letter queue. */
    public static final int MAX_DELIVERY_ATTEMPTS = 10;
    /** The name of the lock that marks a queue manager directory as in use. */
    public static final String LOCK_NAME = "qmgr";
    /**
     * How long Artemis trusts a cached login or permission check, in milliseconds: short, so that a
     * removed user or role stops working within seconds; a login is one PBKDF2 hash, cheap at this rate.
     */
    public static final long SECURITY_CACHE_MILLIS = 2_000;

    private static final AtomicInteger NEXT_IN_VM_ID = new AtomicInteger(1);
    private static final Map<String, Integer> IN_VM_IDS = new ConcurrentHashMap<>();
    private static final Map<String, Credentials> IN_VM_ADMINISTRATORS = new ConcurrentHashMap<>();

    private final QueueManagerSettings settings;
    private final DirectoryLock lock;
    private final EmbeddedActiveMQ broker;
    private final int inVmId;
    private final QueueManagerUsers users;
    private final SecurityWatcher securityWatcher;
    /** The channels to other queue managers. */
    private final Channels channels;
    /** The security watcher's and the channels' periodic tasks. */
    private final java.util.List<java.util.concurrent.ScheduledFuture<?>> watcher;
    /** Its Prometheus endpoint ({@link #serveMetrics}), or null; guarded by this. */
    private org.openmft.agent.metrics.QueueManagerMetrics metrics;

    private EmbeddedQueueManager(QueueManagerSettings settings, DirectoryLock lock, EmbeddedActiveMQ broker,
            int inVmId, QueueManagerUsers users, SecurityWatcher securityWatcher,
            java.util.List<java.util.concurrent.ScheduledFuture<?>> watcher, Channels channels) {
        this.channels = channels;
        this.settings = settings;
        this.lock = lock;
        this.broker = broker;
        this.inVmId = inVmId;
        this.users = users;
        this.securityWatcher = securityWatcher;
        this.watcher = watcher;
    }

    /**
     * Starts the queue manager described by {@code settings} in this JVM.
     *
     * @throws QueueManagerException when the directory is in use by another process (exit code 1)
     *                               or the broker fails to start (for example, the port is taken)
     */
    public static EmbeddedQueueManager start(QueueManagerSettings settings) throws QueueManagerException {
        Path dir = settings.directory();
        Optional<String> refused = ListenerPolicy.refusal(settings.name(), settings.bindAddress(), settings.port(),
                settings.tlsEnabled(), settings.allowPlaintextNetwork());
        if (refused.isPresent()) {
            throw new QueueManagerException(refused.get(), QueueManagerException.CONFIGURATION);
        }
        ListenerTls.Opened tls = null;
        if (settings.tlsEnabled()) {
            try {
                tls = settings.tls().open(dir);
            } catch (TlsSettingException e) {
                throw new QueueManagerException("queue manager " + settings.name() + " cannot use TLS on its listener"
                        + " (" + dir.resolve(QueueManagerSettings.FILE_NAME) + "): " + e.getMessage(),
                        QueueManagerException.CONFIGURATION, e);
            }
        }
        DirectoryLock lock;
        try {
            lock = DirectoryLock.tryAcquire(dir, LOCK_NAME).orElse(null);
            if (lock == null) {
                String pid = DirectoryLock.holderPid(dir, LOCK_NAME).stream()
                        .mapToObj(p -> " by process " + p).findFirst().orElse("");
                throw new QueueManagerException("queue manager " + settings.name() + " is already running"
                        + pid + ": its data directory " + dir + " is in use", 1);
            }
        } catch (IOException e) {
            throw new QueueManagerException("cannot lock the data directory " + dir + " of queue manager "
                    + settings.name() + ": " + e.getMessage(), 1, e);
        }
        QueueManagerUsers users = QueueManagerUsers.of(settings.name(), dir);
        Credentials administrator;
        java.util.Set<String> roles;
        try {
            Optional<Credentials> created = users.initialize();
            created.ifPresent(admin -> log.info("Queue manager {} had no users: it has now, with administrator {}"
                    + " whose credentials are in {} (readable by its owner only); its owner's local commands use"
                    + " them", settings.name(), admin.user(), users.administratorCredentialsFile()));
            administrator = created.isPresent() ? created.get() : users.administrator().orElse(null);
            roles = users.roles().keySet();
        } catch (IOException | CredentialsException e) {
            closeQuietly(lock);
            throw new QueueManagerException("queue manager " + settings.name() + " cannot use its users and roles in "
                    + users.directory() + ": " + e.getMessage(), QueueManagerException.CONFIGURATION, e);
        }
        int inVmId = NEXT_IN_VM_ID.getAndIncrement();
        EmbeddedActiveMQ broker = new EmbeddedActiveMQ();
        broker.setConfiguration(configuration(settings, inVmId, tls, roles));
        broker.setSecurityManager(PropertiesLogin.securityManager(users));
        java.util.List<java.util.concurrent.ScheduledFuture<?>> watcher;
        SecurityWatcher securityWatcher;
        Channels channels = null;
        try {
            broker.start();
            if (!broker.getActiveMQServer().isActive()) {
                throw new IllegalStateException("the broker did not become active");
            }
            // Artemis logs a failed acceptor and carries on; a queue manager without its listener
            // is not what the administrator asked for.
            var tcp = broker.getActiveMQServer().getRemotingService().getAcceptor("tcp");
            if (tcp == null || !tcp.isStarted()) {
                throw new IllegalStateException("its listener could not bind to " + settings.bindAddress() + ":"
                        + settings.port() + " (is the port in use?)");
            }
            createSystemQueues(broker);
            var server = broker.getActiveMQServer();
            securityWatcher = new SecurityWatcher(settings.name(), users, server, Permissions.agents(roles));
            securityWatcher.run();
            channels = new Channels(server, settings.name(), dir, DEAD_LETTER_QUEUE);
            channels.openInbound();
            channels.apply();
            watcher = java.util.List.of(server.getScheduledPool().scheduleWithFixedDelay(securityWatcher,
                    SecurityWatcher.PERIOD_MILLIS, SecurityWatcher.PERIOD_MILLIS,
                    java.util.concurrent.TimeUnit.MILLISECONDS),
                    server.getScheduledPool().scheduleWithFixedDelay(channels, Channels.PERIOD_MILLIS,
                            Channels.PERIOD_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS));
        } catch (Exception e) {
            if (channels != null) {
                channels.close();
            }
            stopQuietly(broker);
            closeQuietly(lock);
            throw new QueueManagerException("queue manager " + settings.name() + " failed to start: "
                    + describe(e), 1, e);
        }
        IN_VM_IDS.put(settings.name(), inVmId);
        if (administrator != null) {
            IN_VM_ADMINISTRATORS.put(settings.name(), administrator);
        }
        log.info("Queue manager {} started: data directory {}, TCP acceptor {}:{}{}, in-VM id {}",
                settings.name(), dir, settings.bindAddress(), settings.port(), tls == null ? " (no TLS)"
                        : " with TLS as " + tls.serverChain()[0].getSubjectX500Principal().getName()
                                + (settings.tls().clientAuthRequired() ? ", client certificates required" : ""),
                inVmId);
        ListenerPolicy.warning(settings).ifPresent(log::warn);
        return new EmbeddedQueueManager(settings, lock, broker, inVmId, users, securityWatcher,
                watcher, channels);
    }

    /**
     * The administrator's credentials of a queue manager running in this JVM, which connections made
     * in its own process without credentials of their own use: the process that runs a queue manager
     * is its owner's, who may read the administrator's credentials file anyway.
     *
     * @param qmgrName the queue manager name
     * @return the credentials; empty when no such queue manager runs here, or its administrator's
     *         credentials file was removed
     */
    public static Optional<Credentials> inVmAdministrator(String qmgrName) {
        return Optional.ofNullable(IN_VM_ADMINISTRATORS.get(qmgrName));
    }

    /**
     * The in-VM acceptor id of a queue manager running in this JVM, which bindings connections use.
     */
    public static OptionalInt inVmId(String qmgrName) {
        Integer id = IN_VM_IDS.get(qmgrName);
        return id == null ? OptionalInt.empty() : OptionalInt.of(id);
    }

    static Configuration configuration(QueueManagerSettings s, int inVmId) {
        return configuration(s, inVmId, null, java.util.Set.of());
    }

    static Configuration configuration(QueueManagerSettings s, int inVmId, ListenerTls.Opened tls,
            java.util.Set<String> roles) {
        Path dir = s.directory();
        ConfigurationImpl c = new ConfigurationImpl();
        c.setName(s.name());
        c.setPersistenceEnabled(true);
        c.setSecurityEnabled(true);
        c.setPopulateValidatedUser(true);
        c.setRejectEmptyValidatedUser(true);
        c.setSecurityInvalidationInterval(SECURITY_CACHE_MILLIS);
        Permissions.all(roles).forEach(c::putSecurityRoles);
        c.setJMXManagementEnabled(false);
        c.setJournalDirectory(dir.resolve("journal").toString());
        c.setBindingsDirectory(dir.resolve("bindings").toString());
        c.setPagingDirectory(dir.resolve("paging").toString());
        c.setLargeMessagesDirectory(dir.resolve("largemessages").toString());
        c.setNodeManagerLockDirectory(dir.resolve("journal").toString());
        c.setJournalType(JournalType.NIO);
        c.setJournalBufferSize_NIO(ArtemisTuning.BROKER_MAX_RECORD_BYTES);
        c.setJournalBufferSize_AIO(ArtemisTuning.BROKER_MAX_RECORD_BYTES);
        c.setJournalFileSize(4 * ArtemisTuning.BROKER_MAX_RECORD_BYTES);
        c.setJournalMinFiles(2);
        c.setJournalPoolFiles(10);
        try {
            c.addAcceptorConfiguration("in-vm", "vm://" + inVmId);
            // Parameters as a map, not a URL: the store passwords must not appear in a string that may be logged.
            Map<String, Object> params = new HashMap<>();
            params.put(TransportConstants.HOST_PROP_NAME, s.bindAddress());
            params.put(TransportConstants.PORT_PROP_NAME, s.port());
            params.put(TransportConstants.PROTOCOLS_PROP_NAME, "CORE");
            params.put(TransportConstants.TCP_NODELAY_PROPNAME, true);
            // Autotuned by the OS, not Artemis's fixed 1 MiB: a channel or client over a long link
            // would be capped at one buffer per round trip (see ArtemisTuning).
            params.put(TransportConstants.TCP_SENDBUFFER_SIZE_PROPNAME, ArtemisTuning.TCP_BUFFER_BYTES);
            params.put(TransportConstants.TCP_RECEIVEBUFFER_SIZE_PROPNAME, ArtemisTuning.TCP_BUFFER_BYTES);
            if (tls != null) {
                params.put(TransportConstants.SSL_ENABLED_PROP_NAME, true);
                params.put(TransportConstants.KEYSTORE_PATH_PROP_NAME, dir.resolve(s.tls().keyStore()).toString());
                params.put(TransportConstants.KEYSTORE_PASSWORD_PROP_NAME, tls.keyStorePassword());
                params.put(TransportConstants.KEYSTORE_TYPE_PROP_NAME, tls.keyStoreType());
                if (s.tls().trustStore() != null) {
                    params.put(TransportConstants.TRUSTSTORE_PATH_PROP_NAME,
                            dir.resolve(s.tls().trustStore()).toString());
                    params.put(TransportConstants.TRUSTSTORE_PASSWORD_PROP_NAME, tls.trustStorePassword());
                    params.put(TransportConstants.TRUSTSTORE_TYPE_PROP_NAME, tls.trustStoreType());
                }
                params.put(TransportConstants.NEED_CLIENT_AUTH_PROP_NAME, s.tls().clientAuthRequired());
            }
            c.addAcceptorConfiguration(new TransportConfiguration(NettyAcceptorFactory.class.getName(), params,
                    "tcp"));
        } catch (Exception e) {
            throw new IllegalArgumentException("bad acceptor address " + s.bindAddress() + ":" + s.port(), e);
        }

        QueueManagerLimits limits = s.limits();
        // Every address pages beyond DEFAULT_ADDRESS_MAX_BYTES in memory, and fails puts beyond
        // addressDiskMaxBytes on disk: a flood on one queue (a command queue, a reject queue, the
        // dead-letter queue) cannot fill the disk the other queues and the journal need.
        AddressSettings defaults = new AddressSettings()
                .setAddressFullMessagePolicy(AddressFullMessagePolicy.PAGE)
                .setMaxSizeBytes(DEFAULT_ADDRESS_MAX_BYTES)
                .setPageSizeBytes((int) QueueManagerLimits.PAGE_SIZE_BYTES)
                .setPageLimitBytes(limits.addressDiskMaxBytes())
                .setPageFullMessagePolicy(PageFullMessagePolicy.FAIL)
                .setAutoCreateQueues(true)
                .setAutoCreateAddresses(true)
                .setAutoDeleteQueues(false)
                .setAutoDeleteAddresses(false)
                .setAutoDeleteCreatedQueues(false)
                .setDefaultAddressRoutingType(RoutingType.ANYCAST)
                .setDefaultQueueRoutingType(RoutingType.ANYCAST)
                .setMaxDeliveryAttempts(MAX_DELIVERY_ATTEMPTS)
                .setDeadLetterAddress(SimpleString.of(DEAD_LETTER_QUEUE));
        c.addAddressSetting("#", defaults);
        // Agent queues exist only when an agent was created: a message for an unknown agent fails at
        // once (result 49) instead of creating a queue nobody reads.
        AddressSettings agentQueues = new AddressSettings()
                .setAutoCreateQueues(false)
                .setAutoCreateAddresses(false);
        c.addAddressSetting("SYSTEM.FTE.#", agentQueues);
        // A waiting command's reply queue (WMQFTE.*, see ArtemisQueueAdmin.createPrivateQueue) takes
        // its address with it when the command deletes it. A reply that comes after the command has
        // deleted it (the command's wait timed out) auto-creates the queue again: such a queue, which
        // no command reads, is removed with its reply at the next address scan rather than kept.
        // (The queue a command creates is not auto-deleted: it must outlive a restart of this queue
        // manager with its replies, and so stays when the command is killed with kill -9.)
        AddressSettings commandReplies = new AddressSettings()
                .setAutoDeleteAddresses(true)
                .setAutoDeleteQueues(true)
                .setAutoDeleteQueuesMessageCount(-1L)
                // Such a queue never had a consumer: Artemis would keep it as "never used" otherwise.
                .setAutoDeleteQueuesSkipUsageCheck(true)
                .setAutoDeleteAddressesSkipUsageCheck(true);
        c.addAddressSetting("WMQFTE.#", commandReplies);
        // How often the queue manager looks for such queues and addresses to remove.
        c.setAddressQueueScanPeriod(ADDRESS_SCAN_MILLIS);
        c.setConnectionTtlCheckInterval(CONNECTION_CHECK_MILLIS);
        AddressSettings data = new AddressSettings()
                .setAddressFullMessagePolicy(AddressFullMessagePolicy.BLOCK)
                .setMaxSizeBytes(DATA_ADDRESS_MAX_BYTES);
        c.addAddressSetting("SYSTEM.FTE.DATA.#", data);
        // An agent's publication outbox is read in transactions that roll back while the coordination
        // queue manager is unreachable: never dead-letter a publication for that.
        // It is bounded: beyond PUBLICATION_OUTBOX_MAX_BYTES on disk its puts fail and the agent's
        // in-memory publication buffer applies its overflow policy.
        c.addAddressSetting("SYSTEM.FTE.PUBLISH.#", new AddressSettings().setMaxDeliveryAttempts(-1)
                .setPageLimitBytes(PUBLICATION_OUTBOX_MAX_BYTES)
                .setPageFullMessagePolicy(PageFullMessagePolicy.FAIL));
        // Likewise a logger's subscription, rolled back while its database is unavailable.
        c.addAddressSetting(org.openmft.agent.messaging.Publications.TOPIC,
                new AddressSettings().setMaxDeliveryAttempts(-1));
        c.registerBrokerPlugin(new RetainedPublications());
        c.registerBrokerPlugin(new MessageSizeCap(limits));
        c.registerBrokerPlugin(new org.openmft.agent.qmgr.security.AuthorityStamper());
        return c;
    }

    private static void createSystemQueues(EmbeddedActiveMQ broker) throws Exception {
        var server = broker.getActiveMQServer();
        if (server.locateQueue(SimpleString.of(DEAD_LETTER_QUEUE)) == null) {
            server.createQueue(QueueConfiguration.of(DEAD_LETTER_QUEUE).setRoutingType(RoutingType.ANYCAST)
                    .setDurable(true).setAutoCreated(false));
        }
        // Every queue manager can be a coordination queue manager (reference §3.2).
        RetainedPublications.createObjects(server);
    }

    private static String describe(Throwable e) {
        StringBuilder sb = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && sb.indexOf(t.getMessage()) < 0) {
                if (sb.length() > 0) {
                    sb.append(": ");
                }
                sb.append(t.getMessage());
            }
        }
        return sb.length() == 0 ? e.getClass().getSimpleName() : sb.toString();
    }

    /** The settings this queue manager runs with. */
    public QueueManagerSettings settings() {
        return settings;
    }

    /** The in-VM acceptor id bindings connections in this JVM use. */
    public int inVmId() {
        return inVmId;
    }

    /**
     * Applies changes of the users and roles files now rather than at the next scan, for code in this
     * process that changed them (a test harness, the queue manager's host).
     */
    public void applySecurityChanges() {
        securityWatcher.run();
    }

    /** The queue manager's users and roles. */
    public QueueManagerUsers users() {
        return users;
    }

    /**
     * The administrator's credentials, for code in this process that acts for the administrator.
     *
     * @return the credentials; empty when the administrator's credentials file was removed
     */
    public Optional<Credentials> administrator() {
        return inVmAdministrator(settings.name());
    }

    /**
     * Serves this queue manager's Prometheus metrics ({@code metrics.*} of qmgr.properties) until it
     * is closed; at most once.
     *
     * @throws org.openmft.agent.config.ConfigurationException (exit 78) when the endpoint cannot be
     *         served
     */
    public synchronized void serveMetrics(org.openmft.agent.metrics.MetricsSettings settings)
            throws org.openmft.agent.config.ConfigurationException {
        if (metrics != null) {
            throw new IllegalStateException("queue manager " + settings().name() + " already serves its metrics");
        }
        var server = broker.getActiveMQServer();
        metrics = org.openmft.agent.metrics.QueueManagerMetrics.start(settings, settings().name(), server,
                () -> channels.latestStatuses().stream()
                        .map(c -> new org.openmft.agent.metrics.QueueManagerMetrics.ChannelState(c.remoteQMgr(),
                                c.state()))
                        .toList(),
                server.getScheduledPool());
    }

    /** The port of the metrics endpoint, when {@link #serveMetrics} started one. */
    public synchronized java.util.OptionalInt metricsPort() {
        return metrics == null ? java.util.OptionalInt.empty() : java.util.OptionalInt.of(metrics.port());
    }

    /**
     * Messages ever put on {@code queue} since this queue manager started, taken off since or not,
     * or -1 when there is no such queue.
     */
    public long messagesPut(String queue) {
        var q = broker.getActiveMQServer().locateQueue(SimpleString.of(queue));
        return q == null ? -1 : q.getMessagesAdded();
    }

    /**
     * Messages on {@code queue} now (its depth, as IBM MQ's CURDEPTH), or -1 when there is no such
     * queue.
     */
    public long messagesHeld(String queue) {
        var q = broker.getActiveMQServer().locateQueue(SimpleString.of(queue));
        return q == null ? -1 : q.getMessageCount();
    }

    /** Whether the broker is running. */
    public boolean isRunning() {
        return broker.getActiveMQServer() != null && broker.getActiveMQServer().isStarted();
    }

    /** Stops the broker cleanly (the journal is synced and closed) and releases the directory. */
    @Override
    public void close() {
        synchronized (this) {
            if (metrics != null) {
                metrics.close();
            }
        }
        watcher.forEach(w -> w.cancel(false));
        channels.close();
        if (IN_VM_IDS.remove(settings.name(), inVmId)) {
            IN_VM_ADMINISTRATORS.remove(settings.name());
        }
        stopQuietly(broker);
        closeQuietly(lock);
        log.info("Queue manager {} stopped", settings.name());
    }

    private static void stopQuietly(EmbeddedActiveMQ broker) {
        try {
            broker.stop();
        } catch (Exception e) {
            log.warn("Stopping the broker failed: {}", describe(e), e);
        }
    }

    private static void closeQuietly(DirectoryLock lock) {
        try {
            lock.close();
        } catch (IOException e) {
            log.warn("Releasing the queue manager directory lock failed: {}", e.getMessage());
        }
    }
}
