package org.openmft.cli.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.DataDirectory;
import org.openmft.coordination.logger.EmbeddedDatabase;
import org.openmft.coordination.logger.JdbcLogStore;

/**
 * Secure defaults through the real launchers: a security key OpenMFT does not support yet stops the
 * agent, the logger and the commands with exit code 78 instead of running unprotected; the data
 * directory is owner-only (and an older, open one is tightened); the logger's embedded database
 * refuses the empty password on its server port and its files are unreadable by another local
 * user, while its owner's {@code mft transfer list} works.
 *
 * <p>The data directory sits in a directory everyone may enter, so that what keeps others out is
 * what OpenMFT did, not JUnit's own owner-only temporary directory.
 */
class SecureDefaultsIT {
    private static final String JVM_OPTIONS = "-Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC";
    private static final Pattern ID = Pattern.compile("The request ID is: ([0-9a-f]{48})");

    @TempDir
    Path tmp;
    Path data;
    Distribution mft;

    @BeforeEach
    void openParent() throws IOException {
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
        data = tmp.resolve("data");
    }

    @AfterEach
    void tearDown() throws Exception {
        if (mft != null) {
            mft.close();
        }
    }

    private static String mode(Path p) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }

    private static void append(Path file, String line) throws IOException {
        Files.writeString(file, Files.readString(file) + line + "\n");
    }

    @Test
    void unsupportedSecurityKeysStopEveryProcessWithExitCode78() throws Exception {
        mft = new Distribution(data).jvmOptions(JVM_OPTIONS);
        int port = Distribution.freePort();
        mft.mft("qmgr", "create", "QM1", "--port", String.valueOf(port)).expect(0);
        mft.run("fteSetupCoordination", "-coordinationQMgr", "QM1").expect(0);
        mft.run("fteSetupCommands", "-connectionQMgr", "QM1").expect(0);
        // A client agent runs in a process of its own: 'fteStartAgent -F' is that process.
        mft.run("fteCreateAgent", "-agentName", "TLS1", "-agentQMgr", "QM1", "-agentQMgrHost", "127.0.0.1",
                "-agentQMgrPort", String.valueOf(port)).expect(0);
        mft.run("fteCreateLogger", "LOG1").expect(0);
        Path agentProperties = data.resolve("config/QM1/agents/TLS1/agent.properties");

        append(agentProperties, "authorityChecking=false");
        append(agentProperties, "agentSslFipsRequired=false");
        append(agentProperties, "adminGroup=mqm");
        for (String[] start : List.of(new String[] {"fteStartAgent", "-F", "TLS1"},
                new String[] {"fteStartAgent", "TLS1"})) {
            String out = mft.run(start[0], java.util.Arrays.copyOfRange(start, 1, start.length)).expect(78).output();
            assertThat(out).contains(agentProperties + ": adminGroup=mqm is not supported yet")
                    .doesNotContain("authorityChecking", "agentSslFipsRequired");
        }
        assertThat(data.resolve("config/QM1/agents/TLS1/agent.properties")).exists();
        assertThat(Files.exists(data.resolve("logs/QM1/agents/TLS1/agent.lock")))
                .as("the agent never got as far as taking its lock").isFalse();

        Path loggerProperties = data.resolve("config/QM1/loggers/LOG1/logger.properties");
        append(loggerProperties, "wmqfte.database.credentials=/etc/openmft/MQMFTCredentials.xml");
        assertThat(mft.run("fteStartLogger", "-F", "LOG1").expect(78).output()).contains(loggerProperties
                + ": wmqfte.database.credentials=/etc/openmft/MQMFTCredentials.xml: the credentials file does not exist");

        Path commandProperties = data.resolve("config/QM1/command.properties");
        // A credentials file that other users may read is refused, naming it, before anything connects.
        Path open = data.resolve("MQMFTCredentials.xml");
        Files.copy(data.resolve("config/QM1/agents/TLS1/MQMFTCredentials.xml"), open);
        Files.setPosixFilePermissions(open, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        append(commandProperties, "connectionQMgrAuthenticationCredentialsFile=" + open);
        assertThat(mft.run("ftePingAgent", "TLS1").expect(78).output()).contains(commandProperties
                + ": connectionQMgrAuthenticationCredentialsFile=" + open + ": the credentials file may be read or"
                + " changed by other users of this machine (rw-r--r--)").contains("chmod 600 " + open);

        Path coordinationProperties = data.resolve("config/QM1/coordination.properties");
        append(coordinationProperties, "coordinationCredentialsKeyFile=/etc/openmft/mft.key");
        assertThat(mft.run("fteListAgents").expect(78).output()).contains(coordinationProperties
                + ": coordinationCredentialsKeyFile=/etc/openmft/mft.key: the credentials key file cannot be read");
    }

    @Test
    void theDataDirectoryIsOwnerOnlyAndAnOpenOneIsTightened() throws Exception {
        Files.createDirectory(data);
        Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwxr-xr-x"));
        mft = new Distribution(data).jvmOptions(JVM_OPTIONS);
        String out = mft.mft("qmgr", "create", "QM1", "--port", String.valueOf(Distribution.freePort()))
                .expect(0).output();
        assertThat(out).contains("The data directory " + data + " was open to other users (rwxr-xr-x); it is now "
                + "rwx------ (owner only)");
        assertThat(mode(data)).isEqualTo("rwx------");
        assertThat(mft.run("fteSetupCoordination", "-coordinationQMgr", "QM1").expect(0).output())
                .as("said once, when it was tightened").doesNotContain("was open to other users");

        // A data directory that does not exist yet is created owner-only, parents included.
        Path fresh = tmp.resolve("fresh/data");
        Distribution other = new Distribution(fresh).jvmOptions(JVM_OPTIONS);
        other.run("fteSetupCoordination", "-coordinationQMgr", "QM9").expect(0);
        assertThat(mode(fresh)).isEqualTo("rwx------");
        assertThat(mode(fresh.getParent())).isEqualTo("rwx------");
        other.close();
    }

    @Test
    void theLoggerDatabaseIsPasswordProtectedAndPrivateButItsOwnerReadsIt() throws Exception {
        mft = new Distribution(data).jvmOptions(JVM_OPTIONS);
        mft.createQueueManager("QM1");
        mft.run("fteCreateAgent", "-agentName", "AGENT1", "-agentQMgr", "QM1", "--sandbox-dir",
                tmp.resolve("in").toString()).expect(0);
        mft.run("fteCreateAgent", "-agentName", "AGENT2", "-agentQMgr", "QM1", "--sandbox-dir",
                tmp.resolve("out").toString()).expect(0);
        mft.run("fteCreateLogger", "LOG1").expect(0);
        mft.mft("qmgr", "start", "QM1").expect(0);
        mft.run("fteStartAgent", "AGENT1").expect(0);
        mft.run("fteStartAgent", "AGENT2").expect(0);
        mft.run("fteStartLogger", "LOG1").expect(0);

        Path loggerDir = DataDirectory.of(data).loggerLogDir("QM1", "LOG1");
        Path passwordFile = EmbeddedDatabase.passwordFile(loggerDir);
        Path databaseFile = loggerDir.resolve("logger.mv.db");
        assertThat(mode(data)).isEqualTo("rwx------");
        assertThat(mode(loggerDir)).isEqualTo("rwx------");
        assertThat(mode(passwordFile)).isEqualTo("rw-------");
        assertThat(Files.readString(passwordFile).strip()).hasSizeGreaterThanOrEqualTo(40);
        assertThat(databaseFile).exists();

        Path src = Files.createDirectories(tmp.resolve("in")).resolve("f1");
        Files.write(src, new byte[4096]);
        Files.createDirectories(tmp.resolve("out"));
        Path request = mft.request("req.xml", src.toString(), tmp.resolve("out/f1").toString(), "file",
                "overwrite", false);
        String submitted = mft.mft("transfer", "submit", request.toString(), "-w").expect(0).output();
        Matcher m = ID.matcher(submitted);
        assertThat(m.find()).as("transfer id in %s", submitted).isTrue();
        String id = m.group(1);

        // (3) The owner's 'mft transfer list' reads the database while the logger serves it.
        Distribution.await("transfer " + id + " in 'mft transfer list'", Duration.ofSeconds(60),
                () -> mft.mft("transfer", "list").output().contains(id));
        assertThat(mft.mft("transfer", "list", "--state", "SUCCESSFUL").expect(0).output()).contains(id);

        // (1) The logger alone has the file open and serves it on a loopback port, whose number and key
        // are in logger.server (rw-------); a connection with the empty password is refused, the
        // owner's is not, and the port cannot be reached on the machine's other addresses.
        Path serverFile = EmbeddedDatabase.serverFile(loggerDir);
        assertThat(mode(serverFile)).isEqualTo("rw-------");
        Properties server = new Properties();
        try (InputStream in = Files.newInputStream(serverFile)) {
            server.load(in);
        }
        assertThat(server.getProperty("key")).as("the key in %s", serverFile).hasSizeGreaterThanOrEqualTo(40);
        int port = Integer.parseInt(server.getProperty("port"));
        String url = "jdbc:h2:tcp://127.0.0.1:" + port + "/" + server.getProperty("key");
        SQLException refused = assertThrows(SQLException.class, () -> DriverManager.getConnection(url, "", "").close());
        assertThat(refused.getSQLState()).as(refused.toString()).isEqualTo("28000");
        SQLException refusedSa = assertThrows(SQLException.class,
                () -> DriverManager.getConnection(url, "sa", "").close());
        assertThat(refusedSa.getSQLState()).as(refusedSa.toString()).isEqualTo("28000");
        for (java.net.NetworkInterface ni : java.util.Collections.list(java.net.NetworkInterface.getNetworkInterfaces())) {
            for (java.net.InetAddress a : java.util.Collections.list(ni.getInetAddresses())) {
                if (!a.isLoopbackAddress() && !a.isLinkLocalAddress()) {
                    try (java.net.Socket s = new java.net.Socket()) {
                        assertThrows(IOException.class, () -> s.connect(new java.net.InetSocketAddress(a, port), 5000),
                                "the logger database server reached on " + a);
                    }
                }
            }
        }
        try (Connection c = EmbeddedDatabase.connect(loggerDir); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("select count(*) from FTELOG.TRANSFER")) {
            assertThat(c.getMetaData().getURL()).as("a reader while the logger runs").isEqualTo(url);
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(1);
        }
        SQLException held = assertThrows(SQLException.class,
                () -> DriverManager.getConnection(JdbcLogStore.h2Url(loggerDir), "", Files.readString(passwordFile)
                        .strip()).close());
        assertThat(held.getErrorCode()).as("the file itself, while the logger has it: %s", held).isEqualTo(90020);

        // (2) Another local user can read none of it: not the password, not the database.
        String user = otherUser();
        assertThat(runAs(user, "cat", "/proc/self/status").exitCode()).as("runuser works").isZero();
        for (Path p : List.of(passwordFile, databaseFile, serverFile)) {
            Distribution.Result r = runAs(user, "cat", p.toString());
            assertThat(r.exitCode()).as("%s read by %s: %s", p, user, r.output()).isNotZero();
            assertThat(r.output()).contains("Permission denied");
        }
        Distribution.Result listing = runAs(user, "ls", loggerDir.toString());
        assertThat(listing.exitCode()).as(listing.output()).isNotZero();
        assertThat(listing.output()).contains("Permission denied");

        mft.run("fteStopLogger", "LOG1").expect(0);
        assertThat(mft.mft("transfer", "list").expect(0).output()).as("also with the logger stopped").contains(id);
    }

    private static String otherUser() throws Exception {
        return LocalUsers.otherUser();
    }

    private static Distribution.Result runAs(String user, String... command) throws Exception {
        return LocalUsers.runAs(user, command);
    }
}
