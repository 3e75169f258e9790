package org.openmft.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Callable;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TextMessage;

import org.openmft.client.ClientSettings;
import org.openmft.client.MftClient;
import org.openmft.client.MftClientException;
import org.openmft.client.PingResult;
import org.openmft.agent.Agent;
import org.openmft.agent.config.AgentConfig;
import org.openmft.agent.config.AgentProperties;
import org.openmft.agent.config.ConfigurationException;
import org.openmft.agent.config.DataDirectory;
import org.openmft.agent.config.DataDirectory.MqscAction;
import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.config.MqscScripts;
import org.openmft.agent.config.PrivateFiles;
import org.openmft.agent.config.PropertiesWriter;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.credentials.CredentialsFile;
import org.openmft.agent.host.HostRequests;
import org.openmft.agent.host.QueueManagerHost;
import org.openmft.agent.lifecycle.AgentAssembly;
import org.openmft.agent.messaging.ArtemisQueueAdmin;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.DirectoryLock;
import org.openmft.agent.qmgr.EmbeddedQueueManager;
import org.openmft.agent.qmgr.QueueManagerException;
import org.openmft.agent.qmgr.QueueManagerSettings;
import org.openmft.agent.qmgr.security.Permissions;
import org.openmft.agent.qmgr.security.QueueManagerUsers;
import org.openmft.coordination.publish.CoordinationPublisher;

import ch.qos.logback.classic.Level;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code mft agent}: create, start, stop and ping agents, with IBM's flags
 * ({@code fteCreateAgent}, {@code fteStartAgent}, {@code fteStopAgent}, {@code ftePingAgent}); list
 * and show them ({@code fteListAgents}, {@code fteShowAgentDetails}, in {@link AgentQueryCommands}).
 */
@Command(name = "agent", mixinStandardHelpOptions = true,
        description = "Create, start, stop, ping, list, show, clean and delete agents.",
        subcommands = {AgentCommands.Create.class, AgentCommands.Start.class, AgentCommands.Stop.class,
                AgentCommands.Ping.class, AgentQueryCommands.ListAgents.class, AgentQueryCommands.ShowAgent.class,
                CleanAgentCommand.class, DeleteAgentCommand.class, AgentCommands.Unit.class})
final class AgentCommands {
    /** The name of an agent's directory lock and ready marker, in its log parent directory. */
    static final String LOCK = AgentAssembly.LOCK_NAME;

    private AgentCommands() {
    }

    /** Used by a queue manager host to give each hosted agent its own rolling log. */
    static AutoCloseable attachAgentLog(AgentConfig config, Path logDir) {
        try {
            Files.createDirectories(logDir);
        } catch (IOException e) {
            return () -> { };
        }
        var appender = LogSetup.addDaemonLog(logDir, config.agentName(), config.outputLogFiles(),
                (int) Math.max(1, config.outputLogSizeBytes() >> 20));
        return () -> LogSetup.remove(appender);
    }

    static AgentConfig loadConfig(DataDirectory dd, String coordination, String agent) throws CommandFailure {
        String name = validName(agent);
        Path file = dd.agentProperties(coordination, name);
        if (!Files.exists(file)) {
            throw new CommandFailure(ExitCodes.CONFIGURATION, "BFGCL0014E: agent " + name
                    + " is not configured: " + file + " does not exist (create it with 'mft agent create')");
        }
        try {
            return AgentConfig.load(file, System.getenv());
        } catch (ConfigurationException e) {
            throw new CommandFailure(ExitCodes.CONFIGURATION, e.getMessage(), e);
        }
    }

    static String validName(String agent) throws CommandFailure {
        try {
            return QueueNames.validateAgentName(agent);
        } catch (IllegalArgumentException e) {
            throw new CommandFailure(ExitCodes.FAILED, e.getMessage());
        }
    }

    @Command(name = "create", aliases = "fteCreateAgent", mixinStandardHelpOptions = true,
            footer = {"", "Examples:", "  fteCreateAgent -agentName SRC -agentQMgr QM1", "  fteCreateAgent -agentName SRC -agentQMgr QM1 --sandbox-dir /srv/outbound --sandbox-dir /srv/archive", "  fteCreateAgent -agentName DST -agentQMgr QM1 -agentQMgrHost 127.0.0.1 -agentQMgrPort 1414 -agentDesc \"client agent\""},
            description = {"Create an agent: agent.properties, MQSC scripts, and its queues on an Artemis queue"
                    + " manager (fteCreateAgent).",
                    "Unlike IBM's, the agent may read and write only in its transfer directory"
                    + " (<data>/transfers/<coordQM>/<AGENT>, also its transferRoot) and the directories named with"
                    + " --sandbox-dir: sandboxRoot in its agent.properties, which may be edited to widen it."})
    static final class Create implements Callable<Integer> {
        @Mixin GlobalOptions global;
        @Option(names = "-agentName", required = true, description = "Agent name (1-28 of A-Z 0-9 . _).")
        String agentName;
        @Option(names = "-agentQMgr", required = true, description = "The agent's queue manager.") String qmgr;
        @Option(names = "-agentQMgrHost", description = "Host for a client connection; none means bindings.")
        String host;
        @Option(names = "-agentQMgrPort", description = "Port (default 1414).") Integer port;
        @Option(names = "-agentQMgrChannel", description = "Channel (default SYSTEM.DEF.SVRCONN).") String channel;
        @Option(names = "-agentDesc", description = "Description.") String description;
        @Option(names = "-agentQMgrProvider", description = "artemis (default) or ibmmq.") String provider;
        @Option(names = "-p", description = "Configuration options set (default: the default one).")
        String configurationOptions;
        @Option(names = "-f", description = "Overwrite an existing agent configuration.") boolean force;
        @Option(names = "-ac", description = "authorityChecking=true: each request's user needs its authority on the"
                + " agent's SYSTEM.FTE.AUTH*.<agent> queues (grant with 'mft qmgr user grant'; on IBM MQ with setmqaut,"
                + " and the agent's user needs +altusr).")
        boolean authorityChecking;
        @Option(names = "--sandbox-dir", paramLabel = "DIR", description = "A directory (with everything below it)"
                + " the agent may also read and write; repeatable. OpenMFT only: by default the agent may use its"
                + " transfer directory alone.")
        List<Path> sandboxDirs = List.of();

        @Override
        public Integer call() throws Exception {
            Mft.prepare(global);
            DataDirectory dd = global.privateDataDirectory();
            String coordination = global.configurationOptions(configurationOptions);
            String name = validName(agentName);
            Path transferDir = dd.agentTransferDir(coordination, name);
            List<String> sandbox = sandboxRoot(transferDir, sandboxDirs);
            Map<String, String> values = new LinkedHashMap<>();
            SetupCommands.put(values, "agentName", name);
            SetupCommands.put(values, "agentDesc", description);
            SetupCommands.put(values, "agentQMgr", qmgr);
            SetupCommands.put(values, "agentQMgrHost", host);
            SetupCommands.put(values, "agentQMgrPort", port);
            SetupCommands.put(values, "agentQMgrChannel", channel);
            SetupCommands.put(values, "agentQMgrProvider", provider);
            SetupCommands.put(values, "transferRoot", transferDir);
            SetupCommands.put(values, "sandboxRoot", String.join(java.io.File.pathSeparator, sandbox));
            if (authorityChecking) {
                SetupCommands.put(values, AgentProperties.AUTHORITY_CHECKING.name(), "true");
            }
            AgentConfig config;
            try {
                config = AgentConfig.from(values, System.getenv());
            } catch (ConfigurationException e) {
                throw new CommandFailure(ExitCodes.CONFIGURATION, e.getMessage(), e);
            }
            Path file = dd.agentProperties(coordination, name);
            if (Files.exists(file) && !force) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGCL0235E: agent " + name + " already exists ("
                        + file + "): use -f to overwrite its configuration");
            }
            String login = agentUser(dd, config, file.resolveSibling(CredentialsFile.FILE_NAME), values);
            new PropertiesWriter("mft agent create", Clock.systemUTC()).write(file, AgentProperties.REGISTRY, values,
                    force);
            Files.writeString(dd.agentMqsc(coordination, name, MqscAction.CREATE), MqscScripts.createScript(name));
            Files.writeString(dd.agentMqsc(coordination, name, MqscAction.DELETE), MqscScripts.deleteScript(name));
            Files.createDirectories(dd.agentLogDir(coordination, name));
            PrivateFiles.ensurePrivateDirectory(transferDir, "transfer directory");
            System.out.println("BFGCL0245I: Agent " + name + " created: " + file);
            System.out.println("Agent " + name + " may read and write only in " + String.join(", ", sandbox)
                    + " (sandboxRoot); relative paths are taken against " + transferDir
                    + " (transferRoot). Name more directories with --sandbox-dir, or edit " + file + ".");
            System.out.println(login);
            if (config.provider() == MessagingProvider.ARTEMIS) {
                createArtemisQueues(dd, config);
            } else {
                System.out.println("An IBM MQ administrator defines the agent's queues on " + qmgr + " with "
                        + dd.agentMqsc(coordination, name, MqscAction.CREATE) + " (runmqsc " + qmgr + " < file).");
            }
            return ExitCodes.OK;
        }

        /**
         * The agent's {@code sandboxRoot} entries: its transfer directory and the administrator's
         * directories, absolute and normalised. A directory holding the platform's path separator
         * could not be told apart from two entries, so it is refused.
         */
        static List<String> sandboxRoot(Path transferDir, List<Path> extra) throws CommandFailure {
            List<String> entries = new java.util.ArrayList<>();
            entries.add(transferDir.toString());
            for (Path dir : extra) {
                String entry = dir.toAbsolutePath().normalize().toString();
                if (entry.contains(java.io.File.pathSeparator) || entry.startsWith("!")) {
                    throw new CommandFailure(ExitCodes.FAILED, "--sandbox-dir " + dir + ": a sandbox directory may not"
                            + " contain '" + java.io.File.pathSeparator + "' (it separates sandboxRoot entries)");
                }
                if (!entries.contains(entry)) {
                    entries.add(entry);
                }
            }
            return entries;
        }

        /**
         * Gives an agent of an embedded queue manager of this data directory a user of its own, so that
         * it alone consumes from its queues, and names its credentials file in {@code values}
         * (IBM's agentQMgrAuthenticationCredentialsFile). A running queue manager applies the agent's
         * permissions before this returns, so the agent can start at once.
         *
         * @return what to tell the user
         */
        private static String agentUser(DataDirectory dd, AgentConfig config, Path credentials,
                Map<String, String> values) throws Exception {
            String name = config.agentName();
            if (values.containsKey(AgentProperties.AGENT_QMGR_AUTHENTICATION_CREDENTIALS_FILE.name())) {
                return "Agent " + name + " logs in with the credentials you gave.";
            }
            Path qmgrDir = dd.qmgrDir(config.agentQMgr());
            if (config.provider() != MessagingProvider.ARTEMIS
                    || !Files.isRegularFile(qmgrDir.resolve(QueueManagerSettings.FILE_NAME))) {
                return "Queue manager " + config.agentQMgr() + " is not in this data directory: if it requires a"
                        + " user, set agentQMgrAuthenticationCredentialsFile in " + credentials.resolveSibling(
                                "agent.properties") + (config.provider() == MessagingProvider.ARTEMIS
                                ? " (on its host: 'mft qmgr user add " + config.agentQMgr() + " " + name
                                        + " --role " + Permissions.agentRole(name) + "')." : ".");
            }
            QueueManagerSettings settings = QmgrCommands.load(dd, config.agentQMgr());
            QueueManagerUsers users = QmgrUserCommands.users(settings);
            users.initialize();
            users.addAgent(name, credentials);
            values.put(AgentProperties.AGENT_QMGR_AUTHENTICATION_CREDENTIALS_FILE.name(), credentials.toString());
            QmgrUserCommands.awaitApplied(settings);
            return "Agent " + name + " logs in to queue manager " + config.agentQMgr() + " as user " + name
                    + " (role " + Permissions.agentRole(name) + "; credentials in " + credentials + ", readable by you"
                    + " only).";
        }

        private static void createArtemisQueues(DataDirectory dd, AgentConfig config) {
            try {
                QueueManagerConnector c = QueueManagerConnector.forAdministration(config.endpoint(),
                        dd.qmgrsDir());
                int created = new ArtemisQueueAdmin(c).createQueues(QueueNames.agentQueues(config.agentName()));
                System.out.println("Created " + created + " queue(s) for agent " + config.agentName() + " on "
                        + c.description() + ".");
            } catch (QueueManagerException e) {
                System.out.println("The agent's queues were not created now (" + e.getMessage()
                        + "); the agent creates them when it starts.");
            }
        }
    }

    @Command(name = "start", aliases = "fteStartAgent", mixinStandardHelpOptions = true,
            footer = {"", "Examples:", "  fteStartAgent SRC", "  fteStartAgent -F DST        (foreground)"},
            description = {"Start an agent (fteStartAgent). A bindings agent of an embedded queue manager runs",
                    "inside the queue manager's process; a client agent runs in a process of its own.",
                    "With -F the agent runs in the foreground (a bindings agent then also hosts its queue",
                    "manager, which must not be running elsewhere)."})
    static final class Start implements Callable<Integer> {
        @Mixin GlobalOptions global;
        @Parameters(index = "0", paramLabel = "AGENT") String agent;
        @Option(names = "-F", description = "Run in the foreground until stopped.") boolean foreground;
        @Option(names = "-p", description = "Configuration options set.") String configurationOptions;

        @Override
        public Integer call() throws Exception {
            Mft.prepare(global);
            DataDirectory dd = global.dataDirectory();
            String coordination = global.configurationOptions(configurationOptions);
            AgentConfig config = loadConfig(dd, coordination, agent);
            global.privateDataDirectory();
            String name = config.agentName();
            Path logDir = dd.agentLogDir(coordination, name);
            Files.createDirectories(logDir);
            if (DirectoryLock.isHeld(logDir.getParent(), LOCK)) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGCL0025E: agent " + name + " is already running");
            }
            boolean hosted = !config.endpoint().clientMode() && config.provider() == MessagingProvider.ARTEMIS;
            if (foreground) {
                return hosted ? hostAndRun(dd, coordination, config, logDir) : runForeground(dd, coordination, config, logDir);
            }
            return hosted ? askHost(dd, coordination, config, logDir) : spawn(dd, coordination, config, logDir);
        }

        private int spawn(DataDirectory dd, String coordination, AgentConfig config, Path logDir) throws Exception {
            Process p = Daemons.startDetached(List.of("agent", "start", config.agentName(), "-F", "-p", coordination,
                    "--data-dir", dd.root().toString()), logDir.resolve("console.log"), logDir.getParent(), LOCK,
                    "agent " + config.agentName());
            System.out.println("BFGCL0030I: Agent " + config.agentName() + " started (process " + p.pid()
                    + ", log " + logDir.resolve("output0.log") + ").");
            return ExitCodes.OK;
        }

        private int askHost(DataDirectory dd, String coordination, AgentConfig config, Path logDir)
                throws Exception {
            QueueManagerSettings qm = QmgrCommands.load(dd, config.agentQMgr());
            if (!QmgrCommands.running(qm)) {
                throw new CommandFailure(ExitCodes.QMGR_UNAVAILABLE, "BFGAG0170W: queue manager "
                        + config.agentQMgr() + " is not running: start it with 'mft qmgr start "
                        + config.agentQMgr() + "'");
            }
            // Only the queue manager's administrator may ask its process to start an agent.
            QueueManagerConnector c = QueueManagerConnector.forAdministration(config.endpoint(), dd.qmgrsDir());
            try (jakarta.jms.Connection connection = c.connect()) {
                Session s = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                TemporaryQueue replies = s.createTemporaryQueue();
                connection.start();
                Message request = s.createMessage();
                request.setStringProperty(HostRequests.OPERATION, HostRequests.START_AGENT);
                request.setStringProperty(HostRequests.AGENT_NAME, config.agentName());
                request.setStringProperty(HostRequests.COORDINATION_QMGR, coordination);
                request.setJMSReplyTo(replies);
                try (MessageProducer p = s.createProducer(s.createQueue(QueueManagerHost.HOST_QUEUE));
                        MessageConsumer consumer = s.createConsumer(replies)) {
                    p.setTimeToLive(QmgrCommands.START_TIMEOUT.toMillis());
                    p.send(request);
                    Message reply = consumer.receive(QmgrCommands.START_TIMEOUT.toMillis());
                    if (reply == null) {
                        throw new CommandFailure(ExitCodes.TIMED_OUT, "queue manager " + config.agentQMgr()
                                + " did not answer the request to start agent " + config.agentName() + " within "
                                + QmgrCommands.START_TIMEOUT.toSeconds() + " s");
                    }
                    int code = reply.getIntProperty(HostRequests.EXIT_CODE);
                    String text = reply instanceof TextMessage t ? t.getText() : "";
                    if (code != 0) {
                        throw new CommandFailure(code, text);
                    }
                    System.out.println(text + " It runs in the process of queue manager " + config.agentQMgr()
                            + "; log " + logDir.resolve("output0.log") + ".");
                    return ExitCodes.OK;
                }
            } catch (JMSException e) {
                throw new CommandFailure(ExitCodes.QMGR_UNAVAILABLE, "cannot reach queue manager "
                        + config.agentQMgr() + ": " + e.getMessage(), e);
            }
        }

        private int hostAndRun(DataDirectory dd, String coordination, AgentConfig config, Path logDir)
                throws Exception {
            LogSetup.consoleLevel(global.verbose ? Level.DEBUG : Level.INFO);
            QueueManagerSettings settings = QmgrCommands.load(dd, config.agentQMgr());
            if (QmgrCommands.running(settings)) {
                throw new CommandFailure(ExitCodes.FAILED, "queue manager " + config.agentQMgr()
                        + " is running in another process: a bindings agent runs inside it, so start the agent"
                        + " without -F ('mft agent start " + config.agentName() + "')");
            }
            QueueManagerHost host = QmgrCommands.hostHere(dd, settings);
            HostRequests.Result r = host.startAgent(coordination, config.agentName());
            if (r.exitCode() != 0) {
                throw new CommandFailure(r.exitCode(), r.message());
            }
            Daemons.markReady(settings.directory(), EmbeddedQueueManager.LOCK_NAME);
            SystemdNotify.ready("Agent " + config.agentName() + " is running in queue manager " + config.agentQMgr());
            while (host.agentNames().contains(config.agentName())) {
                Thread.sleep(200);
            }
            return ExitCodes.OK;
        }

        private int runForeground(DataDirectory dd, String coordination, AgentConfig config, Path logDir)
                throws Exception {
            LogSetup.consoleLevel(global.verbose ? Level.DEBUG : Level.INFO);
            Optional<AgentAssembly> started = AgentAssembly.tryStart(config,
                    dd.agentProperties(coordination, config.agentName()), logDir, AgentCommands::attachAgentLog,
                    CoordinationPublisher.factory(System.getenv()));
            if (started.isEmpty()) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGCL0025E: agent " + config.agentName()
                        + " is already running");
            }
            try (AgentAssembly running = started.get()) {
                Agent agent = running.agent();
                Thread hook = agent.threads().newThread("shutdown", () -> {
                    SystemdNotify.stopping("Agent " + config.agentName() + " is stopping");
                    agent.close();
                    running.closeService();
                    Daemons.clearReady(logDir.getParent(), LOCK);
                });
                Runtime.getRuntime().addShutdownHook(hook);
                Daemons.markReady(logDir.getParent(), LOCK);
                SystemdNotify.ready("Agent " + config.agentName() + " is running");
                while (!agent.awaitStopped(Duration.ofSeconds(1))) {
                    // Serving until a stop request or a signal ends the agent.
                }
                SystemdNotify.stopping("Agent " + config.agentName() + " stopped");
                running.closeService();
                Daemons.clearReady(logDir.getParent(), LOCK);
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException shuttingDown) {
                    // The hook is already running.
                }
                return agent.exitCode();
            }
        }
    }

    @Command(name = "unit", mixinStandardHelpOptions = true,
            footer = {"", "Examples:",
                    "  mft agent unit SRC | sudo tee /etc/systemd/system/openmft-agent@SRC.service.d/openmft.conf",
                    "  mft agent unit SRC -p QM1 --data-dir /var/lib/openmft"},
            description = {"Print the systemd drop-in of an agent for the template unit " + SystemdUnits.AGENT_TEMPLATE
                    + ": its maxRestartCount and maxRestartInterval (Restart=on-failure, StartLimitBurst,",
                    "StartLimitIntervalSec), its sandboxRoot directories (ReadWritePaths) and its queue manager",
                    "unit on this host (After/Wants, or Conflicts for a bindings agent, which hosts it)."})
    static final class Unit implements Callable<Integer> {
        @Mixin GlobalOptions global;
        @Parameters(index = "0", paramLabel = "AGENT") String agent;
        @Option(names = "-p", description = "Configuration options set.") String configurationOptions;

        @Override
        public Integer call() throws Exception {
            Mft.prepare(global);
            DataDirectory dd = global.dataDirectory();
            String coordination = global.configurationOptions(configurationOptions);
            AgentConfig config = loadConfig(dd, coordination, agent);
            String qmgr = config.agentQMgr();
            boolean local = SystemdUnits.localQueueManager(dd, config.provider(), qmgr);
            SystemdUnits.QueueManagerLink link = !local ? SystemdUnits.QueueManagerLink.NONE
                    : config.endpoint().clientMode() ? SystemdUnits.QueueManagerLink.AFTER
                    : SystemdUnits.QueueManagerLink.HOSTS;
            System.out.print(SystemdUnits.agentDropIn(config.agentName(),
                    dd.agentProperties(coordination, config.agentName()), config.maxRestartCount(),
                    config.maxRestartInterval().toSeconds(), qmgr, link,
                    SystemdUnits.sandboxEntries(config.sandboxRoot())));
            return ExitCodes.OK;
        }
    }

    @Command(name = "stop", aliases = "fteStopAgent", mixinStandardHelpOptions = true,
            footer = {"", "Examples:", "  fteStopAgent SRC            (running transfers finish first)", "  fteStopAgent -i SRC         (immediately)"},
            description = "Stop an agent (fteStopAgent): running transfers finish first unless -i is given.")
    static final class Stop implements Callable<Integer> {
        @Mixin GlobalOptions global;
        @Parameters(index = "0", paramLabel = "AGENT") String agent;
        @Option(names = "-i", description = "Stop immediately; interrupted transfers resume at the next start.")
        boolean immediate;
        @Option(names = "-m", description = "The agent's queue manager, when it is not the command queue manager"
                + " (reached through a channel).")
        String agentQMgr;
        @Option(names = "-p", description = "Configuration options set.") String configurationOptions;
        @Option(names = "--wait", defaultValue = "60",
                description = "Seconds to wait for the agent to confirm it stopped (default: ${DEFAULT-VALUE}).")
        int waitSeconds;

        @Override
        public Integer call() throws Exception {
            Mft.prepare(global);
            if (waitSeconds < 1) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGCL0001E: --wait must be at least 1 second");
            }
            DataDirectory dd = global.dataDirectory();
            String coordination = global.configurationOptions(configurationOptions);
            String name = validName(agent);
            Path lockDir = dd.agentLogDir(coordination, name).getParent();
            boolean localConfig = Files.exists(dd.agentProperties(coordination, name));
            if (localConfig && !DirectoryLock.isHeld(lockDir, LOCK)) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGCL0026E: agent " + name + " is not running");
            }
            OptionalLong pid = DirectoryLock.holderPid(lockDir, LOCK);
            client(dd, coordination).stopAgent(name, agentQMgr, immediate, Duration.ofSeconds(waitSeconds));
            // A client agent's own process ends shortly after the reply; a hosted agent shares its
            // queue manager's process, which keeps running.
            if (pid.isPresent() && pid.getAsLong() != hostPid(dd, coordination, name)) {
                Daemons.awaitExit(pid.getAsLong(), Duration.ofSeconds(30));
            }
            System.out.println("BFGCL0034I: Agent " + name + " has been stopped.");
            return ExitCodes.OK;
        }

        private long hostPid(DataDirectory dd, String coordination, String name) {
            try {
                AgentConfig config = AgentConfig.load(dd.agentProperties(coordination, name), System.getenv());
                return DirectoryLock.holderPid(dd.qmgrDir(config.agentQMgr()), EmbeddedQueueManager.LOCK_NAME)
                        .orElse(-1);
            } catch (Exception e) {
                return -1;
            }
        }
    }

    @Command(name = "ping", aliases = "ftePingAgent", mixinStandardHelpOptions = true,
            footer = {"", "Examples:", "  ftePingAgent SRC", "  ftePingAgent -w 10 DST"},
            description = "Check that an agent is active and answering (ftePingAgent).")
    static final class Ping implements Callable<Integer> {
        @Mixin GlobalOptions global;
        @Parameters(index = "0", paramLabel = "AGENT") String agent;
        @Option(names = "-m", description = "The agent's queue manager.") String agentQMgr;
        @Option(names = "-w", defaultValue = "5", description = "Seconds to wait for the answer (default: ${DEFAULT-VALUE}).")
        int waitSeconds;
        @Option(names = "-p", description = "Configuration options set.") String configurationOptions;

        @Override
        public Integer call() throws Exception {
            Mft.prepare(global);
            if (waitSeconds < 1) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGCL0001E: -w must be at least 1 second");
            }
            DataDirectory dd = global.dataDirectory();
            String coordination = global.configurationOptions(configurationOptions);
            String name = validName(agent);
            PingResult answer = client(dd, coordination).ping(name, agentQMgr, Duration.ofSeconds(waitSeconds));
            System.out.printf("BFGCL0793I: The agent %s on queue manager %s responded to the ping in %.3f"
                    + " seconds.%n", name, answer.queueManager(), answer.roundTrip().toNanos() / 1e9);
            return ExitCodes.OK;
        }
    }

    /** The client API on the command and coordination configuration of {@code coordination}. */
    static MftClient client(DataDirectory dd, String coordination) throws MftClientException {
        return MftClient.connect(ClientSettings.fromDataDirectory(dd.root(), coordination));
    }
}
