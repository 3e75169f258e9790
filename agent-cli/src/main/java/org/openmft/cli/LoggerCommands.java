package org.openmft.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

import org.openmft.agent.config.ConfigurationException;
import org.openmft.agent.config.CoordinationConfig;
import org.openmft.agent.config.DataDirectory;
import org.openmft.agent.config.LoggerConfig;
import org.openmft.agent.config.LoggerProperties;
import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.config.PrivateFiles;
import org.openmft.agent.config.PropertiesWriter;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.lifecycle.AgentThreads;
import org.openmft.agent.messaging.ArtemisQueueAdmin;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.metrics.ProcessMetrics;
import org.openmft.agent.qmgr.DirectoryLock;
import org.openmft.agent.qmgr.QueueManagerException;
import org.openmft.coordination.logger.LogStore;
import org.openmft.coordination.logger.LogStoreException;
import org.openmft.coordination.logger.LogStores;
import org.openmft.coordination.logger.LogSubscriber;
import org.openmft.coordination.logger.LoggerMeters;

import ch.qos.logback.classic.Level;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code mft logger create|start|stop} (fteCreateLogger, fteStartLogger, fteStopLogger): a logger
 * stores the transfer log published on the coordination queue manager in a database or in IBM's
 * file logger format.
 */
@Command(name = "logger", mixinStandardHelpOptions = true,
        description = "Create, start and stop loggers, which store the transfer log (fteCreateLogger, ...).",
        subcommands = {LoggerCommands.Create.class, LoggerCommands.Start.class, LoggerCommands.Stop.class,
                LoggerCommands.Unit.class})
final class LoggerCommands {
    /** The name of a logger's directory lock and ready marker. */
    static final String LOCK = "logger";

    private LoggerCommands() {
    }

    static String validName(String logger) throws CommandFailure {
        try {
            return QueueNames.validateLoggerName(logger);
        } catch (IllegalArgumentException e) {
            throw new CommandFailure(ExitCodes.FAILED, e.getMessage());
        }
    }

    static LoggerConfig load(DataDirectory dd, String coordination, String logger) throws CommandFailure {
        String name = validName(logger);
        Path file = dd.loggerProperties(coordination, name);
        if (!Files.exists(file)) {
            throw new CommandFailure(ExitCodes.CONFIGURATION, "BFGCL0356E: logger " + name + " is not configured: "
                    + file + " does not exist (create it with 'mft logger create " + name + "')");
        }
        try {
            return LoggerConfig.load(file, name, System.getenv());
        } catch (ConfigurationException e) {
            throw new CommandFailure(ExitCodes.CONFIGURATION, e.getMessage(), e);
        }
    }

    static List<String> queues(String logger) {
        return List.of(QueueNames.loggerCommand(logger), QueueNames.loggerReject(logger));
    }

    static String mqsc(String logger) {
        StringBuilder out = new StringBuilder("* MQSC for logger " + logger + " (mft logger create)\n");
        for (String q : queues(logger)) {
            out.append("DEFINE QLOCAL(").append(q).append(") DEFPSIST(YES) MAXDEPTH(5000) MAXMSGL(4194304)")
                    .append(" USAGE(NORMAL) REPLACE\n");
        }
        return out.toString();
    }

    @Command(name = "create", aliases = "fteCreateLogger", mixinStandardHelpOptions = true,
            description = {"Create a logger (fteCreateLogger): logger.properties, its MQSC, and on an Artemis",
                    "queue manager its queues SYSTEM.FTE.LOG.CMD.<name> and SYSTEM.FTE.LOG.RJCT.<name>.",
                    "Example: mft logger create LOGGER1 -loggerType DATABASE"})
    static final class Create implements Callable<Integer> {
        @Mixin GlobalOptions global;
        @Parameters(index = "0", paramLabel = "LOGGER") String logger;
        @Option(names = "-loggerType", defaultValue = "DATABASE", description = "DATABASE (default) or FILE.")
        String type;
        @Option(names = "-loggerQMgr", description = "Queue manager the logger connects to (default: the"
                + " coordination queue manager).") String qmgr;
        @Option(names = "-loggerQMgrHost", description = "Host for a client connection (default: as"
                + " coordination.properties).") String host;
        @Option(names = "-loggerQMgrPort", description = "Client port.") Integer port;
        @Option(names = "-loggerQMgrChannel", description = "Client channel.") String channel;
        @Option(names = "-databaseType", description = "h2 (default, embedded) or postgresql.") String databaseType;
        @Option(names = "-databaseUrl", description = "JDBC URL (required for postgresql).") String databaseUrl;
        @Option(names = "-databaseUser", description = "Database user.") String databaseUser;
        @Option(names = "-databasePassword", arity = "0..1", fallbackValue = "", paramLabel = "",
                description = "Prompt for the database password (from the terminal, else one line of standard input);"
                        + " it is written to logger.properties, readable by you only. Never given on the command line,"
                        + " where other users see it.")
        String databasePassword;
        @Option(names = "-credentialsFile", paramLabel = "FILE", description = "IBM's MQMFTCredentials.xml with a"
                + " <tns:logger name=\"LOGGER\" user=\"...\" password=\"...\"/> entry for the database"
                + " (wmqfte.database.credentials); readable by you only.")
        Path credentialsFile;
        @Option(names = "-fileLoggerMode", description = "CIRCULAR or LINEAR (FILE loggers).") String fileMode;
        @Option(names = "-fileSize", description = "Size of one log file, e.g. 10MB (FILE loggers).")
        String fileSize;
        @Option(names = "-fileCount", description = "Number of log files (FILE loggers).") Integer fileCount;
        @Option(names = "-p", description = "Configuration options set.") String configurationOptions;
        @Option(names = "-f", description = "Overwrite an existing logger configuration.") boolean force;

        /** The database password, prompted for; null when not asked for. */
        private String databasePassword() throws CommandFailure, java.io.IOException {
            if (databasePassword == null) {
                return null;
            }
            if (!databasePassword.isEmpty()) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGCL0602E: the database password is never taken from the"
                        + " command line, where other users of this machine see it: give -databasePassword without a"
                        + " value to be prompted for it, or -credentialsFile");
            }
            java.io.Console console = System.console();
            String password;
            if (console != null) {
                char[] typed = console.readPassword("Database password: ");
                password = typed == null ? null : new String(typed);
            } else {
                password = new java.io.BufferedReader(new java.io.InputStreamReader(System.in,
                        java.nio.charset.StandardCharsets.UTF_8)).readLine();
            }
            if (password == null || password.isEmpty()) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGCL0603E: no database password was given");
            }
            return password;
        }

        @Override
        public Integer call() throws Exception {
            Mft.prepare(global);
            DataDirectory dd = global.privateDataDirectory();
            String coordination = global.configurationOptions(configurationOptions);
            String name = validName(logger);
            CoordinationConfig coord = SetupCommands.loadCoordination(dd, coordination);
            Map<String, String> values = new LinkedHashMap<>();
            SetupCommands.put(values, "wmqfte.logger.type", type.toUpperCase(java.util.Locale.ROOT));
            SetupCommands.put(values, "wmqfte.queue.manager", qmgr != null ? qmgr : coord.coordinationQMgr());
            boolean own = qmgr == null || qmgr.equals(coord.coordinationQMgr());
            SetupCommands.put(values, "wmqfte.queue.manager.host", host != null ? host
                    : own ? coord.host().orElse(null) : null);
            SetupCommands.put(values, "wmqfte.queue.manager.port", port != null ? port
                    : own && coord.clientMode() ? Integer.valueOf(coord.port()) : null);
            SetupCommands.put(values, "wmqfte.queue.manager.channel", channel != null ? channel
                    : own && coord.clientMode() ? coord.channel() : null);
            if (own && coord.provider() != MessagingProvider.ARTEMIS) {
                SetupCommands.put(values, "openmft.queue.manager.provider", coord.provider().name().toLowerCase(
                        java.util.Locale.ROOT));
            }
            SetupCommands.put(values, "wmqfte.database.type", databaseType);
            SetupCommands.put(values, "openmft.database.url", databaseUrl);
            SetupCommands.put(values, "openmft.database.user", databaseUser);
            SetupCommands.put(values, "openmft.database.password", databasePassword());
            SetupCommands.put(values, "wmqfte.database.credentials", credentialsFile == null ? null
                    : credentialsFile.toAbsolutePath().normalize());
            SetupCommands.put(values, "wmqfte.file.logger.mode", fileMode);
            SetupCommands.put(values, "wmqfte.file.logger.fileSize", fileSize);
            SetupCommands.put(values, "wmqfte.file.logger.fileCount", fileCount);
            LoggerConfig config;
            try {
                config = LoggerConfig.from(values, name, System.getenv());
            } catch (ConfigurationException e) {
                throw new CommandFailure(ExitCodes.CONFIGURATION, e.getMessage(), e);
            }
            Path file = dd.loggerProperties(coordination, name);
            if (Files.exists(file) && !force) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGCL0357E: logger " + name + " already exists (" + file
                        + "): use -f to overwrite its configuration");
            }
            new PropertiesWriter("mft logger create", Clock.systemUTC()).write(file, LoggerProperties.REGISTRY, values,
                    force);
            Path script = file.resolveSibling(name + "_create.mqsc");
            Files.writeString(script, mqsc(name));
            // The logger's database and its password file go there: owner-only from the start.
            PrivateFiles.ensurePrivateDirectory(dd.loggerLogDir(coordination, name), "logger directory");
            System.out.println("BFGCL0358I: Logger " + name + " created: " + file);
            if (config.provider() == MessagingProvider.ARTEMIS) {
                try {
                    int created = new ArtemisQueueAdmin(QueueManagerConnector.forAdministration(config.endpoint(),
                            dd.qmgrsDir())).createQueues(queues(name));
                    System.out.println("Created " + created + " queue(s) for logger " + name + " on "
                            + config.queueManager() + ".");
                } catch (QueueManagerException e) {
                    System.out.println("The logger's queues were not created now (" + e.getMessage()
                            + "); the logger creates them when it starts.");
                }
            } else {
                System.out.println("An IBM MQ administrator defines the logger's queues with " + script + ".");
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "start", aliases = "fteStartLogger", mixinStandardHelpOptions = true,
            footer = {"", "Examples:", "  fteStartLogger LOG1", "  mft logger start LOG1 -F    (foreground)"},
            description = {"Start a logger (fteStartLogger): it subscribes durably to SYSTEM.FTE/Log/# and stores",
                    "every transfer log record. With -F it runs in the foreground until stopped."})
    static final class Start implements Callable<Integer> {
        /** How long a signal waits for the transaction in progress to be stored. */
        private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(30);

        @Mixin GlobalOptions global;
        @Parameters(index = "0", paramLabel = "LOGGER") String logger;
        @Option(names = "-F", description = "Run in the foreground until stopped.") boolean foreground;
        @Option(names = "-p", description = "Configuration options set.") String configurationOptions;

        @Override
        public Integer call() throws Exception {
            Mft.prepare(global);
            DataDirectory dd = global.dataDirectory();
            String coordination = global.configurationOptions(configurationOptions);
            LoggerConfig config = load(dd, coordination, logger);
            global.privateDataDirectory();
            String name = config.loggerName();
            Path logDir = dd.loggerLogDir(coordination, name);
            PrivateFiles.ensurePrivateDirectory(logDir, "logger directory");
            if (config.databasePassword().isPresent()) {
                PrivateFiles.ensurePrivateFile(dd.loggerProperties(coordination, name), "logger configuration");
            }
            if (DirectoryLock.isHeld(logDir, LOCK)) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGDB0065E: logger " + name + " is already running");
            }
            if (!foreground) {
                Process p = Daemons.startDetached(List.of("logger", "start", name, "-F", "-p", coordination,
                        "--data-dir", dd.root().toString()), logDir.resolve("console.log"), logDir, LOCK,
                        "logger " + name);
                System.out.println("BFGDB0058I: Logger " + name + " started (process " + p.pid() + ", log "
                        + logDir.resolve("output0.log") + ").");
                return ExitCodes.OK;
            }
            return runForeground(dd, config, logDir);
        }

        @SuppressWarnings("try") // the lock is held by try-with-resources
        private int runForeground(DataDirectory dd, LoggerConfig config, Path logDir) throws Exception {
            LogSetup.consoleLevel(global.verbose ? Level.DEBUG : Level.INFO);
            String name = config.loggerName();
            Optional<DirectoryLock> lock = DirectoryLock.tryAcquire(logDir, LOCK);
            if (lock.isEmpty()) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGDB0065E: logger " + name + " is already running");
            }
            var appender = LogSetup.addDaemonLog(logDir, name, 5, 1);
            org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(LoggerCommands.class);
            try (DirectoryLock held = lock.get()) {
                log.info("Logger {} configuration:\n{}", name, config.describe());
                QueueManagerConnector connector = QueueManagerConnector.forCommand(config.endpoint(), dd.qmgrsDir(),
                        null);
                if (connector.artemisUrl() != null) {
                    new ArtemisQueueAdmin(connector).createQueues(queues(name));
                }
                // Before the store opens: a port in use or an endpoint that would not be secure stops here.
                ProcessMetrics metrics = serveMetrics(config);
                LogStore store;
                try {
                    store = LogStores.open(config, logDir);
                } catch (LogStoreException e) {
                    if (metrics != null) {
                        metrics.close();
                    }
                    throw new CommandFailure(85, "BFGDB0002E: logger " + name + " cannot open its store: "
                            + e.getMessage(), e);
                }
                LoggerMeters meters = metrics == null ? null
                        : new LoggerMeters(store, metrics.registry(), java.time.Clock.systemUTC());
                try (store; AutoCloseable endpoint = metrics == null ? () -> { } : metrics) {
                    LogSubscriber subscriber = new LogSubscriber(config, connector, meters == null ? store : meters);
                    if (meters != null) {
                        meters.watch(subscriber);
                    }
                    AgentThreads threads = AgentThreads.forProcess(name);
                    Thread worker = threads.newThread("logger", subscriber);
                    worker.start();
                    Thread hook = threads.newThread("shutdown", () -> {
                        SystemdNotify.stopping("Logger " + name + " is stopping");
                        subscriber.stop();
                        try {
                            if (!subscriber.awaitStopped(SHUTDOWN_TIMEOUT)) {
                                log.warn("Logger {}: thread {} did not stop within {} ms of the shutdown", name,
                                        worker.getName(), SHUTDOWN_TIMEOUT.toMillis());
                            }
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        Daemons.clearReady(logDir, LOCK);
                    });
                    Runtime.getRuntime().addShutdownHook(hook);
                    long deadline = System.nanoTime() + QmgrCommands.START_TIMEOUT.toNanos();
                    while (!subscriber.connected() && worker.isAlive() && System.nanoTime() < deadline) {
                        Thread.sleep(50);
                    }
                    if (!subscriber.connected()) {
                        subscriber.stop();
                        throw new CommandFailure(ExitCodes.QMGR_UNAVAILABLE, "BFGDB0003E: logger " + name
                                + " could not subscribe on " + connector.description() + "; see "
                                + logDir.resolve("output0.log"));
                    }
                    Daemons.markReady(logDir, LOCK);
                    log.info("BFGDB0058I: Logger {} is running", name);
                    SystemdNotify.ready("Logger " + name + " is running");
                    while (!subscriber.awaitStopped(Duration.ofSeconds(1))) {
                        // Serving until a stop command or a signal.
                    }
                    SystemdNotify.stopping("Logger " + name + " stopped");
                    Daemons.clearReady(logDir, LOCK);
                    try {
                        Runtime.getRuntime().removeShutdownHook(hook);
                    } catch (IllegalStateException shuttingDown) {
                        // The hook is already running.
                    }
                    log.info("Logger {} stopped: {} record(s) stored, {} duplicate(s) ignored, {} rejected", name,
                            subscriber.stored(), subscriber.duplicates(), subscriber.rejected());
                    return ExitCodes.OK;
                }
            } finally {
                LogSetup.remove(appender);
            }
        }
    }

    /** The logger's metrics endpoint when {@code openmft.metrics.port} asks for one, else null. */
    static ProcessMetrics serveMetrics(LoggerConfig config) throws CommandFailure {
        try {
            var settings = config.metrics();
            return settings.isEmpty() ? null : ProcessMetrics.start(settings.get(), "logger", config.loggerName(),
                    "logger " + config.loggerName());
        } catch (ConfigurationException e) {
            throw new CommandFailure(ExitCodes.CONFIGURATION, e.getMessage(), e);
        }
    }

    @Command(name = "unit", mixinStandardHelpOptions = true,
            footer = {"", "Examples:",
                    "  mft logger unit LOG1 | sudo tee /etc/systemd/system/openmft-logger@LOG1.service.d/openmft.conf",
                    "  mft logger unit LOG1 -p QM1 --data-dir /var/lib/openmft"},
            description = {"Print the systemd drop-in of a logger for the template unit "
                    + SystemdUnits.LOGGER_TEMPLATE + ": its queue manager's unit on this host",
                    "(After/Wants) and PostgreSQL's when its database is on this host (After)."})
    static final class Unit implements Callable<Integer> {
        @Spec CommandSpec spec;
        @Mixin GlobalOptions global;
        @Parameters(index = "0", paramLabel = "LOGGER") String logger;
        @Option(names = "-p", description = "Configuration options set.") String configurationOptions;

        @Override
        public Integer call() throws Exception {
            Mft.prepare(global);
            DataDirectory dd = global.dataDirectory();
            String coordination = global.configurationOptions(configurationOptions);
            LoggerConfig config = load(dd, coordination, logger);
            String qmgr = config.queueManager();
            boolean local = SystemdUnits.localQueueManager(dd, config.provider(), qmgr);
            java.io.PrintWriter out = spec.commandLine().getOut();
            out.print(SystemdUnits.loggerDropIn(config.loggerName(),
                    dd.loggerProperties(coordination, config.loggerName()), qmgr,
                    local ? SystemdUnits.QueueManagerLink.AFTER : SystemdUnits.QueueManagerLink.NONE,
                    config.loggerType() == LoggerProperties.LoggerType.DATABASE
                            && config.databaseType() == LoggerProperties.DatabaseType.POSTGRESQL
                            && SystemdUnits.localPostgresql(config.databaseUrl())));
            out.flush();
            return ExitCodes.OK;
        }
    }

    @Command(name = "stop", aliases = "fteStopLogger", mixinStandardHelpOptions = true,
            footer = {"", "Examples:", "  fteStopLogger LOG1"},
            description = "Stop a logger (fteStopLogger) after the transaction it is storing.")
    static final class Stop implements Callable<Integer> {
        @Mixin GlobalOptions global;
        @Parameters(index = "0", paramLabel = "LOGGER") String logger;
        @Option(names = "-p", description = "Configuration options set.") String configurationOptions;

        @Override
        public Integer call() throws Exception {
            Mft.prepare(global);
            DataDirectory dd = global.dataDirectory();
            String coordination = global.configurationOptions(configurationOptions);
            LoggerConfig config = load(dd, coordination, logger);
            String name = config.loggerName();
            Path lockDir = dd.loggerLogDir(coordination, name);
            if (!DirectoryLock.isHeld(lockDir, LOCK)) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGDB0066E: logger " + name + " is not running");
            }
            QueueManagerConnector connector;
            try {
                connector = QueueManagerConnector.forCommand(config.endpoint(), dd.qmgrsDir(), null);
            } catch (QueueManagerException e) {
                throw new CommandFailure(e.exitCode(), e.getMessage(), e);
            }
            try (Connection c = connector.connect()) {
                Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                try (MessageProducer p = s.createProducer(s.createQueue(config.commandQueueName()))) {
                    p.setTimeToLive(Duration.ofMinutes(5).toMillis());
                    p.send(s.createTextMessage(LogSubscriber.STOP_COMMAND));
                }
            } catch (QueueManagerException e) {
                throw new CommandFailure(e.exitCode(), e.getMessage(), e);
            } catch (JMSException e) {
                throw new CommandFailure(ExitCodes.QMGR_UNAVAILABLE, "cannot send the stop request to logger " + name
                        + ": " + e.getMessage(), e);
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (DirectoryLock.isHeld(lockDir, LOCK)) {
                if (System.nanoTime() > deadline) {
                    throw new CommandFailure(ExitCodes.TIMED_OUT, "logger " + name + " did not stop within 60 s");
                }
                Thread.sleep(100);
            }
            System.out.println("BFGDB0059I: Logger " + name + " stopped.");
            return ExitCodes.OK;
        }
    }
}
