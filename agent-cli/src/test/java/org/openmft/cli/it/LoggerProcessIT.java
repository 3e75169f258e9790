package org.openmft.cli.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.DataDirectory;
import org.openmft.coordination.logger.EmbeddedDatabase;

/**
 * A database logger run through the real launchers as its own process: killed with SIGKILL in the
 * middle of a stream of transfers and started again, it stores every record of every transfer
 * exactly once, and its metrics endpoint ({@code openmft.metrics.port}) counts what it stored.
 */
class LoggerProcessIT {
    private static final Pattern ID = Pattern.compile("The request ID is: ([0-9a-f]{48})");

    @TempDir
    Path data;
    Distribution mft;

    @AfterEach
    void tearDown() throws Exception {
        mft.close();
    }

    private String transfer(int n) throws Exception {
        Path src = data.resolve("in/f" + n);
        Files.createDirectories(src.getParent());
        Files.createDirectories(data.resolve("out"));
        Files.write(src, new byte[1000 + n]);
        Path req = mft.request("req" + n + ".xml", src.toString(), data.resolve("out/f" + n).toString(), "file",
                "overwrite", false);
        String out = mft.mft("transfer", "submit", req.toString(), "-w").expect(0).output();
        Matcher m = ID.matcher(out);
        assertThat(m.find()).as("transfer id in %s", out).isTrue();
        return m.group(1);
    }

    /** The log actions stored for a transfer, in the order they were stored, for failure messages. */
    private static List<String> actions(Path databaseDir, String id) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = EmbeddedDatabase.connect(databaseDir); PreparedStatement st = c.prepareStatement(
                "select LOG_ACTION from FTELOG.LOG_RECORD where TRANSFER_ID = ? order by RECORD_KEY")) {
            st.setString(1, id);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }

    private int count(Path databaseDir, String sql, String id) throws Exception {
        try (Connection c = EmbeddedDatabase.connect(databaseDir); PreparedStatement st = c.prepareStatement(sql)) {
            st.setString(1, id);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? rs.getInt(1) : 0;
            }
        }
    }

    @Test
    void aLoggerKilledMidStreamAndRestartedStoresEveryRecordOnce() throws Exception {
        mft = new Distribution(data);
        mft.createQueueManager("QM1");
        mft.run("fteCreateAgent", "-agentName", "AGENT1", "-agentQMgr", "QM1", "--sandbox-dir", data.toString())
                .expect(0);
        mft.run("fteCreateAgent", "-agentName", "AGENT2", "-agentQMgr", "QM1", "--sandbox-dir", data.toString())
                .expect(0);
        mft.mft("qmgr", "start", "QM1").expect(0);
        mft.run("fteStartAgent", "AGENT1").expect(0);
        mft.run("fteStartAgent", "AGENT2").expect(0);
        assertThat(mft.run("fteCreateLogger", "LOG1").expect(0).output()).contains("LOG1");
        int metricsPort;
        try (var socket = new java.net.ServerSocket(0)) {
            metricsPort = socket.getLocalPort();
        }
        Path properties = DataDirectory.of(data).loggerProperties("QM1", "LOG1");
        Files.writeString(properties, Files.readString(properties) + "openmft.metrics.port=" + metricsPort + "\n");
        mft.run("fteStartLogger", "LOG1").expect(0);
        mft.run("fteStartLogger", "LOG1").expect(1);

        Path loggerDir = Path.of("logs", "QM1", "loggers", "LOG1");
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            if (i == 3) {
                long pid = mft.pid(loggerDir, "logger");
                assertThat(pid).isPositive();
                new ProcessBuilder("kill", "-9", Long.toString(pid)).start().waitFor();
                Distribution.await("the logger process gone", Duration.ofSeconds(20), () -> !Distribution.alive(pid));
            }
            if (i == 6) {
                mft.run("fteStartLogger", "LOG1").expect(0);
            }
            ids.add(transfer(i));
        }
        Path database = DataDirectory.of(data).loggerLogDir("QM1", "LOG1");
        for (String id : ids) {
            Distribution.await("transfer " + id + " in the database", Duration.ofSeconds(60), () -> {
                try {
                    return count(database, "select count(*) from FTELOG.TRANSFER"
                            + " where TRANSFER_ID = ? and STATE = 'SUCCESSFUL'", id) == 1;
                } catch (Exception e) {
                    return false;
                }
            });
        }
        // The logger started again stored the records of the five transfers it was not there for (3 each).
        String scrape = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create("http://127.0.0.1:" + metricsPort + "/metrics")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString()).body();
        Matcher stored = Pattern.compile("(?m)^openmft_logger_publications_total\\{logger=\"LOG1\",status=\"stored\","
                + "type=\"transfer\"} ([0-9.E]+)$").matcher(scrape);
        assertThat(stored.find()).as("transfer records stored, in %s", scrape).isTrue();
        assertThat(Double.parseDouble(stored.group(1))).isGreaterThanOrEqualTo(15.0);
        assertThat(scrape).contains("openmft_logger_connected{logger=\"LOG1\"} 1");
        mft.run("fteStopLogger", "LOG1").expect(0);
        for (String id : ids) {
            assertThat(count(database, "select count(*) from FTELOG.LOG_RECORD where TRANSFER_ID = ?", id))
                    .as("records of %s: started, progress, completed, once each; stored: %s", id,
                            actions(database, id))
                    .isEqualTo(3);
            assertThat(count(database, "select count(*) from FTELOG.TRANSFER_ITEM where TRANSFER_ID = ?", id))
                    .as("items of %s", id).isEqualTo(1);
        }
        mft.run("fteStopLogger", "LOG1").expect(1);
    }

    /**
     * The queue manager and the logger killed together while transfers move data: client agents in
     * processes of their own outlive the queue manager, reconnect and finish, and after both are
     * started again every record of every transfer is in the database exactly once.
     */
    @Test
    void aQueueManagerAndALoggerKilledWhileTransfersFlowLoseNoRecordAndStoreNoneTwice() throws Exception {
        mft = new Distribution(data);
        int port = mft.createQueueManager("QM1");
        for (String agent : new String[] {"AGENT1", "AGENT2"}) {
            mft.run("fteCreateAgent", "-agentName", agent, "-agentQMgr", "QM1", "-agentQMgrHost", "127.0.0.1",
                    "-agentQMgrPort", String.valueOf(port), "--sandbox-dir", data.toString()).expect(0);
            Path props = data.resolve("config/QM1/agents/" + agent + "/agent.properties");
            Files.writeString(props, Files.readString(props) + "transferAckTimeout=2000\ntransferAckTimeoutRetries=1\n");
        }
        mft.mft("qmgr", "start", "QM1").expect(0);
        mft.run("fteStartAgent", "AGENT1").expect(0);
        mft.run("fteStartAgent", "AGENT2").expect(0);
        mft.run("fteCreateLogger", "LOG1").expect(0);
        mft.run("fteStartLogger", "LOG1").expect(0);

        // Six transfers of 64 MiB each, submitted at once: they run while the kill comes.
        Path in = Files.createDirectories(data.resolve("in"));
        Path out = Files.createDirectories(data.resolve("out"));
        List<String> ids = new ArrayList<>();
        byte[] block = new byte[1 << 20];
        for (int i = 0; i < 6; i++) {
            Path src = in.resolve("f" + i);
            java.util.Arrays.fill(block, (byte) i);
            try (var o = Files.newOutputStream(src)) {
                for (int mib = 0; mib < 64; mib++) {
                    o.write(block);
                }
            }
            String output = mft.run("fteCreateTransfer", "-sa", "AGENT1", "-sm", "QM1", "-da", "AGENT2", "-dm", "QM1",
                    "-df", out.resolve("f" + i).toString(), "-de", "overwrite", src.toString()).expect(0).output();
            Matcher m = ID.matcher(output);
            assertThat(m.find()).as("transfer id in %s", output).isTrue();
            ids.add(m.group(1));
        }
        Path database = DataDirectory.of(data).loggerLogDir("QM1", "LOG1");
        // Data is moving: a destination file is being written and not every transfer has ended.
        Distribution.await("a transfer writing its destination", Duration.ofSeconds(120), () -> {
            try (var files = Files.list(out)) {
                return files.anyMatch(f -> f.getFileName().toString().endsWith(".part") && f.toFile().length() > 0);
            } catch (java.io.IOException e) {
                return false;
            }
        });
        long qm = mft.pid(Path.of("qmgrs/QM1"), "qmgr");
        long logger = mft.pid(Path.of("logs", "QM1", "loggers", "LOG1"), "logger");
        assertThat(Distribution.alive(qm)).as("queue manager process %d", qm).isTrue();
        assertThat(Distribution.alive(logger)).as("logger process %d", logger).isTrue();
        ProcessHandle.of(qm).orElseThrow().destroyForcibly();
        ProcessHandle.of(logger).orElseThrow().destroyForcibly();
        Distribution.await("the queue manager and the logger gone", Duration.ofSeconds(30),
                () -> !Distribution.alive(qm) && !Distribution.alive(logger));
        long endedBeforeTheKill = ids.stream().filter(id -> agentLog("AGENT1").contains("Transfer " + id + " ended"))
                .count();
        assertThat(endedBeforeTheKill).as("transfers still running at the kill").isLessThan(ids.size());

        mft.mft("qmgr", "start", "QM1").expect(0);
        mft.run("fteStartLogger", "LOG1").expect(0);
        for (String id : ids) {
            Distribution.await("transfer " + id + " to end", Duration.ofSeconds(300),
                    () -> agentLog("AGENT1").contains("Transfer " + id + " ended with result"));
            assertThat(agentLog("AGENT1")).contains("Transfer " + id + " ended with result 0");
            Distribution.await("transfer " + id + " in the database", Duration.ofSeconds(120), () -> {
                try {
                    return count(database, "select count(*) from FTELOG.TRANSFER"
                            + " where TRANSFER_ID = ? and STATE = 'SUCCESSFUL'", id) == 1;
                } catch (Exception e) {
                    return false;
                }
            });
        }
        mft.run("fteStopLogger", "LOG1").expect(0);
        for (String id : ids) {
            assertThat(count(database, "select count(*) from FTELOG.LOG_RECORD where TRANSFER_ID = ?", id))
                    .as("records of %s: started, progress, completed, once each; stored: %s", id,
                            actions(database, id))
                    .isEqualTo(3);
            assertThat(count(database, "select count(*) from FTELOG.TRANSFER_ITEM where TRANSFER_ID = ?", id))
                    .as("items of %s", id).isEqualTo(1);
        }
    }

    private String agentLog(String agent) {
        try {
            return Files.readString(data.resolve("logs/QM1/agents/" + agent + "/logs/output0.log"));
        } catch (java.io.IOException e) {
            return "";
        }
    }
}
