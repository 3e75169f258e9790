package org.openmft.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;

import javax.security.auth.x500.X500Principal;

import org.openmft.agent.config.DataDirectory;
import org.openmft.agent.credentials.Credentials;
import org.openmft.agent.host.QueueManagerHost;
import org.openmft.agent.lifecycle.AgentThreads;
import org.openmft.agent.qmgr.DirectoryLock;
import org.openmft.agent.qmgr.EmbeddedQueueManager;
import org.openmft.agent.qmgr.GeneratedTls;
import org.openmft.agent.qmgr.ListenerPolicy;
import org.openmft.agent.qmgr.ListenerTls;
import org.openmft.agent.qmgr.QueueManagerException;
import org.openmft.agent.qmgr.QueueManagerSettings;
import org.openmft.agent.qmgr.security.QueueManagerUsers;
import org.openmft.agent.tls.TlsSettingException;
import org.openmft.coordination.publish.CoordinationPublisher;

import ch.qos.logback.classic.Level;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code mft qmgr}: embedded Artemis queue managers, the default transport.
 */
@Command(name = "qmgr", description = "Create, start, stop, delete and list embedded queue managers, and manage"
        + " their users and channels.",
        mixinStandardHelpOptions = true,
        subcommands = {QmgrCommands.Create.class, QmgrCommands.Start.class, QmgrCommands.Stop.class,
                QmgrCommands.Delete.class, QmgrCommands.ListQmgrs.class, QmgrCommands.ClientCert.class,
                QmgrUserCommands.class, QmgrChannelCommands.class})
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
            footer = {"", "Examples:", "  mft qmgr create QM1",
                    "  mft qmgr create QM2 --port 1415 --bind 0.0.0.0 --tls-generate --tls-names mft1.example.com,10.0.0.5",
                    "  mft qmgr create QM3 --bind 0.0.0.0 --tls-generate --tls-client-auth",
                    "  mft qmgr create QM4 --bind 0.0.0.0 --tls-keystore /etc/mft/qm4.p12 --tls-keystore-credentials"
                            + " /etc/mft/qm4.p12.pw"},
            description = {"Create an embedded queue manager (like crtmqm).",
                    "A listener on an address other than loopback must use TLS (--tls-generate or --tls-keystore),"
                            + " unless --allow-plaintext-network is given."})
    static final class Create implements Callable<Integer> {
        @Mixin GlobalOptions global;
        @Parameters(index = "0", paramLabel = "QMGR", description = "Queue manager name.") String name;
        @Option(names = "--port", defaultValue = "1414", description = "TCP listener port (default: ${DEFAULT-VALUE}).")
        int port;
        @Option(names = "--bind", defaultValue = QueueManagerSettings.DEFAULT_BIND_ADDRESS,
                description = "Address the listener binds to (default: ${DEFAULT-VALUE}).")
        String bind;
        @Option(names = "--tls-generate", description = "Generate a private CA and a certificate for the listener"
                + " (in the queue manager's tls directory, files 0600, passwords in <store>.pw); agents trust"
                + " tls/trust.p12.")
        boolean tlsGenerate;
        @Option(names = "--tls-names", split = ",", paramLabel = "NAME",
                description = "Host names and IP addresses clients connect to, put in the generated certificate"
                        + " (default: localhost, 127.0.0.1, ::1, this host's name and the --bind address).")
        List<String> tlsNames;
        @Option(names = "--tls-subject", paramLabel = "DN",
                description = "Subject of the generated certificate (default: CN=<QMGR>,O=OpenMFT); agents can check"
                        + " it with agentSslPeerName.")
        String tlsSubject;
        @Option(names = "--tls-keystore", paramLabel = "FILE",
                description = "Use this existing key store (PKCS12 or JKS) with the listener's key and certificate.")
        Path tlsKeyStore;
        @Option(names = "--tls-keystore-credentials", paramLabel = "FILE",
                description = "File holding the key store password: its first line, or an MQMFTCredentials.xml"
                        + " <file> entry.")
        Path tlsKeyStoreCredentials;
        @Option(names = "--tls-truststore", paramLabel = "FILE",
                description = "Trust store of the CAs whose client certificates are accepted (mutual TLS).")
        Path tlsTrustStore;
        @Option(names = "--tls-truststore-credentials", paramLabel = "FILE",
                description = "File holding the trust store password.")
        Path tlsTrustStoreCredentials;
        @Option(names = "--tls-client-auth", description = "Require client certificates (mutual TLS).")
        boolean tlsClientAuth;
        @Option(names = "--allow-plaintext-network", description = "Accept a listener without TLS on an address other"
                + " than loopback; every start logs a warning.")
        boolean allowPlaintextNetwork;

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
            checkTlsOptions();
            boolean tls = tlsGenerate || tlsKeyStore != null;
            Optional<String> refused = ListenerPolicy.refusal(name, bind, port, tls, allowPlaintextNetwork);
            if (refused.isPresent()) {
                throw new CommandFailure(ExitCodes.CONFIGURATION, refused.get());
            }
            ListenerTls listenerTls = null;
            if (tlsGenerate) {
                X500Principal subject;
                try {
                    subject = new X500Principal(tlsSubject == null ? "CN=" + name + ",O=OpenMFT" : tlsSubject);
                } catch (IllegalArgumentException e) {
                    throw new CommandFailure(ExitCodes.FAILED, "--tls-subject " + tlsSubject
                            + " is not a distinguished name: " + e.getMessage());
                }
                listenerTls = GeneratedTls.generate(dir, name, subject, tlsNames == null ? defaultNames() : tlsNames,
                        tlsClientAuth);
            } else if (tlsKeyStore != null) {
                listenerTls = new ListenerTls(tlsKeyStore.toAbsolutePath(), tlsKeyStoreCredentials.toAbsolutePath(),
                        tlsTrustStore == null ? null : tlsTrustStore.toAbsolutePath(),
                        tlsTrustStoreCredentials == null ? null : tlsTrustStoreCredentials.toAbsolutePath(),
                        tlsClientAuth, null, null);
                try {
                    listenerTls.open(dir);
                } catch (TlsSettingException e) {
                    throw new CommandFailure(ExitCodes.CONFIGURATION, "cannot use the given stores for queue manager "
                            + name + ": " + e.getMessage());
                }
            }
            QueueManagerSettings settings;
            try {
                settings = new QueueManagerSettings(name, dir, bind, port, listenerTls, allowPlaintextNetwork);
            } catch (IllegalArgumentException e) {
                throw new CommandFailure(ExitCodes.FAILED, e.getMessage());
            }
            settings.store();
            QueueManagerUsers users = QueueManagerUsers.of(name, dir);
            Credentials admin = users.initialize().orElseThrow(() -> new CommandFailure(ExitCodes.FAILED,
                    "queue manager " + name + " already has users in " + users.directory()));
            System.out.println("Queue manager " + name + " created in " + dir + " (listener " + bind + ":" + port
                    + (tls ? ", TLS" + (tlsClientAuth ? " with client certificates required" : "") : "")
                    + "). Start it with 'mft qmgr start " + name + "'.");
            System.out.println("Its administrator is user " + admin.user() + ", with a generated password in "
                    + users.administratorCredentialsFile() + " (readable by you only): your commands on this host"
                    + " use it; add users with 'mft qmgr user add " + name + " <USER> --role requester'.");
            if (tlsGenerate) {
                Path tlsDir = dir.resolve(ListenerTls.GENERATED_DIRECTORY);
                System.out.println("Client agents trust its CA with agentSslTrustStore=" + tlsDir.resolve("trust.p12")
                        + ", agentSslTrustStoreType=pkcs12 and agentSslTrustStoreCredentialsFile="
                        + tlsDir.resolve("trust.p12.pw") + (tlsClientAuth ? "; issue their client certificates with"
                                + " 'mft qmgr client-cert " + name + " --subject CN=<AGENT> --out <file>.p12'." : "."));
            } else if (allowPlaintextNetwork && !ListenerPolicy.isLoopback(bind)) {
                System.out.println("WARNING: the listener on " + bind + " does not use TLS (--allow-plaintext-network).");
            }
            return ExitCodes.OK;
        }

        private void checkTlsOptions() throws CommandFailure {
            if (tlsGenerate && (tlsKeyStore != null || tlsTrustStore != null)) {
                throw new CommandFailure(ExitCodes.FAILED, "--tls-generate makes its own stores: do not give"
                        + " --tls-keystore or --tls-truststore with it");
            }
            if (!tlsGenerate && tlsKeyStore == null && (tlsTrustStore != null || tlsClientAuth || tlsNames != null
                    || tlsSubject != null || tlsKeyStoreCredentials != null)) {
                throw new CommandFailure(ExitCodes.FAILED, "TLS options need --tls-generate or --tls-keystore");
            }
            if (tlsKeyStore != null && tlsKeyStoreCredentials == null) {
                throw new CommandFailure(ExitCodes.FAILED, "--tls-keystore needs --tls-keystore-credentials, the file"
                        + " holding its password");
            }
            if (tlsKeyStore != null && tlsClientAuth && (tlsTrustStore == null || tlsTrustStoreCredentials == null)) {
                throw new CommandFailure(ExitCodes.FAILED, "--tls-client-auth with --tls-keystore needs --tls-truststore"
                        + " and --tls-truststore-credentials: the CAs whose client certificates are accepted");
            }
        }

        private List<String> defaultNames() {
            Set<String> names = new LinkedHashSet<>(List.of("localhost", "127.0.0.1", "::1"));
            try {
                names.add(InetAddress.getLocalHost().getHostName());
            } catch (java.io.IOException e) {
                // No name for this host: clients use an address or localhost.
            }
            if (!"0.0.0.0".equals(bind) && !"::".equals(bind)) {
                names.add(bind);
            }
            return new ArrayList<>(names);
        }
    }

    @Command(name = "client-cert", mixinStandardHelpOptions = true,
            footer = {"", "Examples:", "  mft qmgr client-cert QM1 --subject CN=AGENT1,O=OpenMFT --out /etc/mft/agent1.p12"},
            description = {"Issue a client certificate from the CA a queue manager generated (--tls-generate), for"
                    + " mutual TLS.", "Writes a PKCS12 key store and its password in <file>.pw, both 0600; point"
                    + " agentSslKeyStore and agentSslKeyStoreCredentialsFile at them."})
    static final class ClientCert implements Callable<Integer> {
        @Mixin GlobalOptions global;
        @Parameters(index = "0", paramLabel = "QMGR") String name;
        @Option(names = "--subject", required = true, paramLabel = "DN", description = "Subject, such as CN=AGENT1,O=OpenMFT.")
        String subject;
        @Option(names = "--out", required = true, paramLabel = "FILE", description = "The key store to write.")
        Path out;
        @Option(names = "--validity-days", defaultValue = "825", description = "Days the certificate is valid"
                + " (default: ${DEFAULT-VALUE}).")
        int validityDays;

        @Override
        public Integer call() throws Exception {
            Mft.prepare(global);
            QueueManagerSettings settings = load(global.dataDirectory(), name);
            if (Files.exists(out)) {
                throw new CommandFailure(ExitCodes.FAILED, out + " exists: choose another --out");
            }
            X500Principal principal;
            try {
                principal = new X500Principal(subject);
            } catch (IllegalArgumentException e) {
                throw new CommandFailure(ExitCodes.FAILED, "--subject " + subject + " is not a distinguished name: "
                        + e.getMessage());
            }
            if (validityDays < 1) {
                throw new CommandFailure(ExitCodes.FAILED, "--validity-days must be at least 1");
            }
            try {
                GeneratedTls.issueClient(settings.directory(), principal, out.toAbsolutePath(),
                        Duration.ofDays(validityDays));
            } catch (IOException e) {
                throw new CommandFailure(ExitCodes.FAILED, e.getMessage());
            }
            System.out.println("Client certificate " + principal.getName() + " written to " + out + " (password in "
                    + out + ".pw).");
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
            Optional<String> refused = ListenerPolicy.refusal(name, settings.bindAddress(), settings.port(),
                    settings.tlsEnabled(), settings.allowPlaintextNetwork());
            if (refused.isPresent()) {
                throw new CommandFailure(ExitCodes.CONFIGURATION, refused.get());
            }
            // metrics.* of qmgr.properties: an endpoint that would not be secure stops here (78).
            org.openmft.agent.metrics.QueueManagerMetrics.settings(settings.directory());
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
                    + settings.bindAddress() + ":" + settings.port() + (settings.tlsEnabled() ? ", TLS" : "") + ").");
            ListenerPolicy.warning(settings).ifPresent(w -> System.out.println("WARNING: " + w));
            return ExitCodes.OK;
        }

        private int runForeground(DataDirectory dd, QueueManagerSettings settings) throws Exception {
            LogSetup.consoleLevel(global.verbose ? Level.DEBUG : Level.INFO);
            hostHere(dd, settings);
            Daemons.markReady(settings.directory(), EmbeddedQueueManager.LOCK_NAME);
            SystemdNotify.ready("Queue manager " + name + " is running (listener " + settings.bindAddress() + ":"
                    + settings.port() + ")");
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
        // metrics.* of qmgr.properties: refused (78) before the queue manager starts when not secure.
        var metrics = org.openmft.agent.metrics.QueueManagerMetrics.settings(settings.directory());
        EmbeddedQueueManager qm = EmbeddedQueueManager.start(settings);
        QueueManagerHost host;
        try {
            if (metrics != null) {
                qm.serveMetrics(metrics);
            }
            host = new QueueManagerHost(qm, dd, AgentCommands::attachAgentLog,
                    CoordinationPublisher.factory(System.getenv()));
        } catch (QueueManagerException | org.openmft.agent.config.ConfigurationException e) {
            qm.close();
            throw e;
        }
        Runtime.getRuntime().addShutdownHook(AgentThreads.forProcess(settings.name()).newThread("shutdown", () -> {
            SystemdNotify.stopping("Queue manager " + settings.name() + " is stopping");
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
                System.out.printf("%-24s %-10s %-8s %s:%d%s%n", s.name(), pid.isPresent() ? "RUNNING" : "STOPPED",
                        pid.isPresent() ? Long.toString(pid.getAsLong()) : "-", s.bindAddress(), s.port(),
                        s.tlsEnabled() ? " TLS" : "");
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
