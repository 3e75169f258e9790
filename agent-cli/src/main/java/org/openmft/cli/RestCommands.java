package org.openmft.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import org.openmft.agent.config.ConfigurationException;
import org.openmft.agent.config.DataDirectory;
import org.openmft.agent.config.PrivateFiles;
import org.openmft.agent.qmgr.DirectoryLock;
import org.openmft.agent.qmgr.QueueManagerException;
import org.openmft.rest.RestConfig;
import org.openmft.rest.RestService;

import ch.qos.logback.classic.Level;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code mft rest start}: the REST API and the web dashboard of a configuration options set
 * ({@link RestService}), a daemon as a logger is ({@code mft logger start}), configured by
 * {@code rest.properties} beside {@code coordination.properties}.
 */
@Command(name = "rest", mixinStandardHelpOptions = true,
        description = "Run the REST API and the web dashboard (IBM MQ's MFT REST API shapes).",
        subcommands = {RestCommands.Start.class, RestCommands.Stop.class})
final class RestCommands {
    /** The name of the server's directory lock and ready marker. */
    static final String LOCK = "rest";
    /** How long {@code mft rest stop} waits for the server to end. */
    static final java.time.Duration STOP_TIMEOUT = java.time.Duration.ofSeconds(30);

    private RestCommands() {
    }

    /** The server's directory (lock, ready marker, logs): {@code rest} beside coordination.properties. */
    static Path directory(DataDirectory dd, String coordination) {
        return dd.configDir(coordination).resolve("rest");
    }

    @Command(name = "start", mixinStandardHelpOptions = true,
            footer = {"", "Examples:", "  mft rest start", "  mft rest start -p QM1 -F    (foreground)"},
            description = {"Start the REST API and dashboard server: it serves /ibmmq/rest/v2/admin/mft/agent and",
                    "/transfer from the logger's database, and the dashboard at /. Settings in rest.properties",
                    "(httpHost, httpPort, httpsPort, openmft.rest.keyStore, ...). With -F it runs in the foreground."})
    static final class Start implements Callable<Integer> {
        @Mixin GlobalOptions global;
        @Option(names = "-F", description = "Run in the foreground until stopped.") boolean foreground;
        @Option(names = "-p", description = "Configuration options set.") String configurationOptions;

        @Override
        public Integer call() throws Exception {
            Mft.prepare(global);
            DataDirectory dd = global.privateDataDirectory();
            String coordination = global.configurationOptions(configurationOptions);
            Path dir = directory(dd, coordination);
            PrivateFiles.ensurePrivateDirectory(dir, "REST API directory");
            if (DirectoryLock.isHeld(dir, LOCK)) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGRE0006E: the REST API of " + coordination
                        + " is already running");
            }
            if (!foreground) {
                Process p = Daemons.startDetached(List.of("rest", "start", "-F", "-p", coordination, "--data-dir",
                        dd.root().toString()), dir.resolve("console.log"), dir, LOCK, "the REST API");
                System.out.println("BFGRE0007I: The REST API of " + coordination + " started (process " + p.pid()
                        + ", log " + dir.resolve("output0.log") + "); stop it with 'mft rest stop -p " + coordination + "'.");
                return ExitCodes.OK;
            }
            return runForeground(dd, coordination, dir);
        }

        @SuppressWarnings("try") // the lock is held by try-with-resources
        private int runForeground(DataDirectory dd, String coordination, Path dir) throws Exception {
            LogSetup.consoleLevel(global.verbose ? Level.DEBUG : Level.INFO);
            Optional<DirectoryLock> lock = DirectoryLock.tryAcquire(dir, LOCK);
            if (lock.isEmpty()) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGRE0006E: the REST API of " + coordination
                        + " is already running");
            }
            var appender = LogSetup.addDaemonLog(dir, "rest", 5, 1);
            try (DirectoryLock held = lock.get()) {
                RestService service;
                try {
                    service = RestService.start(dd, coordination, System.getenv());
                } catch (ConfigurationException e) {
                    throw new CommandFailure(ExitCodes.CONFIGURATION, e.getMessage(), e);
                } catch (QueueManagerException e) {
                    throw new CommandFailure(e.exitCode(), e.getMessage(), e);
                }
                CountDownLatch stopped = new CountDownLatch(1);
                Thread hook = new Thread(() -> {
                    service.close();
                    Daemons.clearReady(dir, LOCK);
                    stopped.countDown();
                }, "openmft-rest-shutdown");
                Runtime.getRuntime().addShutdownHook(hook);
                Daemons.markReady(dir, LOCK);
                System.out.println("BFGRE0008I: The REST API of " + coordination + " is listening on port "
                        + service.port() + " (" + RestConfig.FILE_NAME + ").");
                stopped.await();
                return ExitCodes.OK;
            } finally {
                LogSetup.remove(appender);
            }
        }
    }

    @Command(name = "stop", mixinStandardHelpOptions = true,
            footer = {"", "Examples:", "  mft rest stop", "  mft rest stop -p QM1"},
            description = {"Stop the running REST API and dashboard server of a configuration options set (like",
                    "IBM's endmqweb): it finishes the requests it is answering, closes its port and ends."})
    static final class Stop implements Callable<Integer> {
        @Mixin GlobalOptions global;
        @Option(names = "-p", description = "Configuration options set.") String configurationOptions;

        @Override
        public Integer call() throws Exception {
            Mft.prepare(global);
            String coordination = global.configurationOptions(configurationOptions);
            java.util.OptionalLong pid = DirectoryLock.holderPid(directory(global.dataDirectory(), coordination),
                    LOCK);
            if (pid.isEmpty()) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGRE0009E: the REST API of " + coordination
                        + " is not running");
            }
            if (!Daemons.terminate(pid.getAsLong(), STOP_TIMEOUT)) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGRE0009E: the REST API of " + coordination
                        + " (process " + pid.getAsLong() + ") has not stopped within " + STOP_TIMEOUT.toSeconds()
                        + " s");
            }
            System.out.println("BFGRE0016I: The REST API of " + coordination + " stopped.");
            return ExitCodes.OK;
        }
    }
}
