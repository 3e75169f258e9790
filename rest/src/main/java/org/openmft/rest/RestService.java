package org.openmft.rest;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;

import org.openmft.agent.config.ConfigurationException;
import org.openmft.agent.config.CoordinationConfig;
import org.openmft.agent.config.DataDirectory;
import org.openmft.agent.config.LoggerConfig;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.QueueManagerException;
import org.openmft.agent.qmgr.security.QueueManagerUsers;
import org.openmft.client.ClientSettings;
import org.openmft.client.MftClient;
import org.openmft.client.MftClientException;
import org.openmft.coordination.logger.LogStoreException;
import org.openmft.coordination.query.AgentDirectory;
import org.openmft.coordination.query.ConfiguredLoggers;
import org.openmft.coordination.query.MonitorDirectory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The REST API of one configuration options set, put together from its files as {@code mft rest
 * start} runs it: {@code rest.properties} ({@link RestConfig}), the coordination queue manager of
 * {@code coordination.properties} (agents, live progress), the command queue manager of
 * {@code command.properties} (create and cancel, sent by the client API's {@link MftClient}; the
 * coordination queue manager when the file is missing), the database logger's store, and the users of an embedded queue manager of this host.
 * Everything that is wrong is found before the port is opened.
 */
public final class RestService implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(RestService.class);

    private final LiveProgress progress;
    private final RestServer server;

    private RestService(LiveProgress progress, RestServer server) {
        this.progress = progress;
        this.server = server;
    }

    /**
     * Reads the configuration, checks it and starts listening.
     *
     * @param dd the data directory
     * @param coordination the configuration options set (coordination queue manager name)
     * @param env the environment, for {@code ${VAR}} in paths
     * @return the running service
     * @throws ConfigurationException when a setting is missing, wrong or not secure
     * @throws QueueManagerException when a local queue manager named by the configuration is not defined
     * @throws Exception when the server cannot listen
     */
    public static RestService start(DataDirectory dd, String coordination, Map<String, String> env)
            throws Exception {
        Path restFile = dd.configDir(coordination).resolve(RestConfig.FILE_NAME);
        RestConfig config = RestConfig.load(restFile, env);
        CoordinationConfig coord = CoordinationConfig.load(dd.coordinationProperties(coordination), env);
        LoggerConfig logger = logger(dd, coordination, config, env);
        String usersQMgr = config.usersQMgr().orElse(coord.coordinationQMgr());
        Path qmgrDir = dd.qmgrDir(usersQMgr);
        QueueManagerUsers users = QueueManagerUsers.of(usersQMgr, qmgrDir);
        if (!users.exists()) {
            throw new ConfigurationException("BFGRE0004E: queue manager " + usersQMgr + " has no users on this host ("
                    + qmgrDir + "): the REST API logs users in against the users of an embedded queue manager of"
                    + " this host (mft qmgr user); set " + RestConfig.USERS_QMGR.name() + " in " + restFile,
                    RestConfig.USERS_QMGR.name(), usersQMgr);
        }
        QueueManagerConnector coordinationQMgr = QueueManagerConnector.forCommand(coord.endpoint(), dd.qmgrsDir(),
                null);
        MftClient client;
        try {
            client = MftClient.connect(ClientSettings.forCoordinationQueueManager(dd.root(), coordination));
        } catch (MftClientException e) {
            throw new ConfigurationException(e.getMessage(), e);
        }
        Path logDir = dd.loggerLogDir(coordination, logger.loggerName());
        MftResources.History history = () -> ConfiguredLoggers.openDatabase(dd, coordination, logger)
                .orElseThrow(() -> new LogStoreException("logger " + logger.loggerName() + " has not created its"
                        + " database in " + logDir + " yet: start it once with 'mft logger start "
                        + logger.loggerName() + "'"));
        log.info("REST API configuration ({}):\n{}", restFile, config.describe());
        log.info("Transfer history from logger {}; agents from coordination queue manager {}; requests through"
                + " queue manager {}", logger.loggerName(), coord.coordinationQMgr(), client.settings()
                        .commandQueueManager());
        LiveProgress progress = new LiveProgress(coordinationQMgr, Clock.systemUTC());
        try {
            MftResources resources = new MftResources(AgentDirectory.of(coordinationQMgr,
                    coord.agentStatusJitterTolerance(), Clock.systemUTC()), MonitorDirectory.of(coordinationQMgr),
                    history, client, progress, Clock.systemUTC());
            RestServer server = new RestServer(config, resources, new UserLogin(users, usersQMgr));
            server.start();
            return new RestService(progress, server);
        } catch (Exception | Error e) {
            progress.close();
            throw e;
        }
    }

    /** The logger named in rest.properties, or the only database logger of the set. */
    private static LoggerConfig logger(DataDirectory dd, String coordination, RestConfig config,
            Map<String, String> env) throws ConfigurationException, java.io.IOException {
        ConfiguredLoggers loggers = ConfiguredLoggers.scan(dd, coordination, env);
        if (config.logger().isPresent()) {
            String name = config.logger().get();
            LoggerConfig l = loggers.named(name).orElseThrow(() -> new ConfigurationException("BFGRE0005E: "
                    + RestConfig.LOGGER.name() + "=" + name + ": no such logger is configured for " + coordination
                    + " (mft logger create " + name + ")", RestConfig.LOGGER.name(), name));
            if (!loggers.databaseLoggers().contains(l)) {
                throw new ConfigurationException("BFGRE0005E: " + RestConfig.LOGGER.name() + "=" + name + " is a "
                        + l.loggerType() + " logger: the transfer history is read from a DATABASE logger",
                        RestConfig.LOGGER.name(), name);
            }
            return l;
        }
        List<LoggerConfig> db = loggers.databaseLoggers();
        if (db.size() != 1) {
            throw new ConfigurationException("BFGRE0005E: the REST API reads the transfer history from a database"
                    + " logger, and " + coordination + " has " + db.size() + " (" + String.join(", ", db.stream()
                            .map(LoggerConfig::loggerName).toList()) + "): name one with " + RestConfig.LOGGER.name()
                    + " in " + RestConfig.FILE_NAME + (db.isEmpty() ? ", after 'mft logger create LOGGER'" : ""),
                    RestConfig.LOGGER.name(), "");
        }
        return db.get(0);
    }

    /** @return the port listened on */
    public int port() {
        return server.port();
    }

    /** Stops listening and following progress. */
    @Override
    public void close() {
        server.close();
        progress.close();
    }
}
