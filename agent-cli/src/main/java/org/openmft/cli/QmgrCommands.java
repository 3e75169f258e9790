package org.openmft.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;

import org.openmft.agent.config.DataDirectory;
import org.openmft.agent.host.QueueManagerHost;
import org.openmft.agent.lifecycle.AgentThreads;
import org.openmft.agent.qmgr.DirectoryLock;
import org.openmft.agent.qmgr.EmbeddedQueueManager;
import org.openmft.agent.qmgr.QueueManagerException;
import org.openmft.agent.qmgr.QueueManagerSettings;
import org.openmft.coordination.publish.CoordinationPublisher;

import ch.qos.logback.classic.Level;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code mft qmgr}: embedded Artemis queue managers, the default transport.
 */
@Command(name = "qmgr", description = "Create, start, stop, delete and list embedded queue managers.",
        mixinStandardHelpOptions = true,
        subcommands = {QmgrCommands.Create.class, QmgrCommands.Start.class, QmgrCommands.Stop.class,
                QmgrCommands.Delete.class, QmgrCommands.ListQmgrs.class})
final class QmgrCommands {
    static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

    private QmgrCommands() {
    }

    static Path qmgrDir(DataDirectory dd, String name) throws CommandFailure {
        try {
            QueueManagerSettings.validateName(name);
        } catch (IllegalArgumentException e) {
            throw new CommandFailure(ExitCodes.FAILED, e.getMessage());
        }
        return dd.qmgrDir(name);
    }

    static QueueManagerSettings load(DataDirectory dd, String name) throws CommandFailure {
        Path dir = qmgrDir(dd, name);
        if (!Files.exists(dir.resolve(QueueManagerSettings.FILE_NAME))) {
            throw new CommandFailure(ExitCodes.FAILED, "queue manager " + name + " does not exist in " + dd.root()
                    + ": create it with 'mft qmgr create " + name + "'");
        }
        try {
            return QueueManagerSettings.load(dir);
        } catch (IOException | IllegalArgumentException e) {
            throw new CommandFailure(ExitCodes.CONFIGURATION, "cannot read queue manager " + name + ": "
                    + e.getMessage());
        }
    }

    static boolean running(QueueManagerSettings s) throws IOException {
        return DirectoryLock.isHeld(s.directory(), EmbeddedQueueManager.LOCK_NAME);
    }

    @Command(name = "create", mixinStandardHelpOptions = true,
            footer = {"", "Examples:", "  mft qmgr create QM1", "  mft qmgr create QM2 --port 1415 --bind 0.0.0.0"},
            description = "Create an embedded queue manager (like crtmqm).")
    static final class Create implements Callable<Integer> {
        @Mixin GlobalOptions global;
        @Parameters(index = "0", paramLabel = "QMGR", description = "Queue manager name.") String name;
        @Option(names = "--port", defaultValue = "1414", description = "TCP listener port (default: ${DEFAULT-VALUE}).")
        int port;
        @Option(names = "--bind", defaultValue = QueueManagerSettings.DEFAULT_BIND_ADDRESS,
                description = "Address the listener binds to (default: ${DEFAULT-VALUE}).")
        String bind;

        @Override
        public Integer call() throws Exception {
            Mft.prepare(global);
            DataDirectory dd = global.privateDataDirectory();
            Path dir = qmgrDir(dd, name);
            if (Files.exists(dir.resolve(QueueManagerSettings.FILE_NAME))) {
                throw new CommandFailure(ExitCodes.FAILED, "queue manager " + name + " already exists in " + dir);
            }
            for (QueueManagerSettings other : all(dd)) {
                if (other.port() == port) {
                    throw new CommandFailure(ExitCodes.FAILED, "port " + port + " is already used by queue manager "
                            + other.name() + ": choose another with --port");
                }
            }
            QueueManagerSettings settings;
            try {
                settings = new QueueManagerSettings(name, dir, bind, port);
            } catch (IllegalArgumentException e) {
                throw new CommandFailure(ExitCodes.FAILED, e.getMessage());
            }
            settings.store();
            System.out.println("Queue manager " + name + " created in " + dir + " (listener " + bind + ":" + port
                    + "). Start it with 'mft qmgr start " + name + "'.");
            return ExitCodes.OK;
        }
    }

    @Command(name = "start", mixinStandardHelpOptions = true,
            footer = {"", "Examples:", "  mft qmgr start QM1", "  mft qmgr start QM1 -F      (foreground)"},
            description = "Start a queue manager in the background (like strmqm), or in the foreground with -F.")
    static final class Start implements Callable<Integer> {
        @Mixin GlobalOptions global;
        @Parameters(index = "0", paramLabel = "QMGR") String name;
        @Option(names = "-F", description = "Run in the foreground until stopped (Ctrl-C or 'mft qmgr stop').")
        boolean foreground;

        @Override
        public Integer call() throws Exception {
            Mft.prepare(global);
            DataDirectory dd = global.dataDirectory();
            QueueManagerSettings settings = load(dd, name);
            global.privateDataDirectory();
            if (running(settings)) {
                throw new CommandFailure(ExitCodes.FAILED, "queue manager " + name + " is already running"
                        + DirectoryLock.holderPid(settings.directory(), EmbeddedQueueManager.LOCK_NAME).stream()
                                .mapToObj(p -> " (process " + p + ")").findFirst().orElse(""));
            }
            return foreground ? runForeground(dd, settings) : startBackground(dd, settings);
        }

        private int startBackground(DataDirectory dd, QueueManagerSettings settings) throws Exception {
            Path console = dd.qmgrLogDir(name).resolve("console.log");
            Process p = Daemons.spawn(List.of("qmgr", "start", name, "-F", "--data-dir", dd.root().toString()),
                    console);
            Optional<String> failure = Daemons.awaitReady(p, settings.directory(), EmbeddedQueueManager.LOCK_NAME,
                    console, START_TIMEOUT);
            if (failure.isPresent()) {
                throw new CommandFailure(ExitCodes.QMGR_UNAVAILABLE, "queue manager " + name + " did not start: "
                        + failure.get());
            }
            System.out.println("Queue manager " + name + " started (process " + p.pid() + ", listener "
                    + settings.bindAddress() + ":" + settings.port() + ").");
            return ExitCodes.OK;
        }

        private int runForeground(DataDirectory dd, QueueManagerSettings settings) throws Exception {
            LogSetup.consoleLevel(global.verbose ? Level.DEBUG : Level.INFO);
            hostHere(dd, settings);
            Daemons.markReady(settings.directory(), EmbeddedQueueManager.LOCK_NAME);
            // Serves until a signal ends the JVM; the shutdown hook stops everything cleanly.
            new CountDownLatch(1).await();
            return ExitCodes.OK;
        }
    }

    /**
     * Runs a queue manager, and the host of its bindings agents, in this process until the JVM
     * ends: a shutdown hook stops the agents, then the queue manager, cleanly.
     */
    static QueueManagerHost hostHere(DataDirectory dd, QueueManagerSettings settings) throws Exception {
        Path logDir = dd.qmgrLogDir(settings.name());
        Files.createDirectories(logDir);
        var hostLog = LogSetup.addDaemonLog(logDir, null, 5, 1);
        EmbeddedQueueManager qm = EmbeddedQueueManager.start(settings);
        QueueManagerHost host;
        try {
            host = new QueueManagerHost(qm, dd, AgentCommands::attachAgentLog,
                    CoordinationPublisher.factory(System.getenv()));
        } catch (QueueManagerException e) {
            qm.close();
            throw e;
        }
        Runtime.getRuntime().addShutdownHook(AgentThreads.forProcess(settings.name()).newThread("shutdown", () -> {
            Daemons.clearReady(settings.directory(), EmbeddedQueueManager.LOCK_NAME);
            host.close();
            qm.close();
            LogSetup.remove(hostLog);
        }));
        return host;
    }

    @Command(name = "stop", mixinStandardHelpOptions = true,
            footer = {"", "Examples:", "  mft qmgr stop QM1"},
            description = "Stop a running queue manager and the agents it hosts (like endmqm).")
    static final class Stop implements Callable<Integer> {
        @Mixin GlobalOptions global;
        @Parameters(index = "0", paramLabel = "QMGR") String name;

        @Override
        public Integer call() throws Exception {
            Mft.prepare(global);
            QueueManagerSettings settings = load(global.dataDirectory(), name);
            OptionalLong pid = DirectoryLock.holderPid(settings.directory(), EmbeddedQueueManager.LOCK_NAME);
            if (pid.isEmpty()) {
                throw new CommandFailure(ExitCodes.FAILED, "queue manager " + name + " is not running");
            }
            if (!Daemons.terminate(pid.getAsLong(), STOP_TIMEOUT)) {
                throw new CommandFailure(ExitCodes.FAILED, "queue manager " + name + " (process " + pid.getAsLong()
                        + ") has not stopped within " + STOP_TIMEOUT.toSeconds() + " s");
            }
            System.out.println("Queue manager " + name + " stopped.");
            return ExitCodes.OK;
        }
    }

    @Command(name = "delete", mixinStandardHelpOptions = true,
            footer = {"", "Examples:", "  mft qmgr delete QM2"},
            description = "Delete a stopped queue manager and all its messages (like dltmqm).")
    static final class Delete implements Callable<Integer> {
        @Mixin GlobalOptions global;
        @Parameters(index = "0", paramLabel = "QMGR") String name;

        @Override
        public Integer call() throws Exception {
            Mft.prepare(global);
            QueueManagerSettings settings = load(global.dataDirectory(), name);
            if (running(settings)) {
                throw new CommandFailure(ExitCodes.FAILED, "queue manager " + name
                        + " is running: stop it first with 'mft qmgr stop " + name + "'");
            }
            try (Stream<Path> walk = Files.walk(settings.directory())) {
                for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
            System.out.println("Queue manager " + name + " deleted.");
            return ExitCodes.OK;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
            footer = {"", "Examples:", "  mft qmgr list"}, description = "List the queue managers of this"
            + " data directory with their state (like dspmq).")
    static final class ListQmgrs implements Callable<Integer> {
        @Mixin GlobalOptions global;

        @Override
        public Integer call() throws Exception {
            Mft.prepare(global);
            List<QueueManagerSettings> all = all(global.dataDirectory());
            if (all.isEmpty()) {
                System.out.println("No queue managers in " + global.dataDirectory().root());
                return ExitCodes.OK;
            }
            System.out.printf("%-24s %-10s %-8s %s%n", "QMNAME", "STATUS", "PID", "LISTENER");
            for (QueueManagerSettings s : all) {
                OptionalLong pid = DirectoryLock.holderPid(s.directory(), EmbeddedQueueManager.LOCK_NAME);
                System.out.printf("%-24s %-10s %-8s %s:%d%n", s.name(), pid.isPresent() ? "RUNNING" : "STOPPED",
                        pid.isPresent() ? Long.toString(pid.getAsLong()) : "-", s.bindAddress(), s.port());
            }
            return ExitCodes.OK;
        }
    }

    static List<QueueManagerSettings> all(DataDirectory dd) throws IOException {
        Path root = dd.qmgrsDir();
        List<QueueManagerSettings> result = new ArrayList<>();
        if (!Files.isDirectory(root)) {
            return result;
        }
        try (Stream<Path> dirs = Files.list(root)) {
            for (Path d : dirs.sorted().toList()) {
                if (Files.exists(d.resolve(QueueManagerSettings.FILE_NAME))) {
                    try {
                        result.add(QueueManagerSettings.load(d));
                    } catch (IOException | IllegalArgumentException e) {
                        // A damaged entry is skipped; 'qmgr start' on it reports the problem.
                    }
                }
            }
        }
        return result;
    }
}
