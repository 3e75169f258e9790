package org.openmft.coordination.logger;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * A child process for {@link EmbeddedDatabaseOwnershipTest}: another process on the same logger
 * database, as {@code mft transfer list} or a second logger would be. It prints one line per step
 * ({@code key=value}) and, where it holds something, waits for a line on its standard input before
 * letting go.
 *
 * <ul>
 * <li>{@code read <dir> <waitMillis>}: prints {@code connecting}, then {@link EmbeddedDatabase#connect}
 *     with that wait, counts the transfers, prints {@code url=}, {@code readOnly=}, {@code count=}
 *     or {@code failed=}.
 * <li>{@code hold <dir>}: connects as {@code read} does and keeps the connection: {@code holding},
 *     then {@code released} after the input line.
 * <li>{@code own <dir>}: opens the store as the logger does: {@code port=}, then {@code released}.
 * </ul>
 */
public final class DatabaseProcess {

    private DatabaseProcess() {
    }

    /**
     * Runs one mode.
     *
     * @param args the mode and its arguments
     * @throws Exception when something fails that is not reported as {@code failed=}
     */
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[1]);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        switch (args[0]) {
            case "read" -> {
                say("connecting");
                try (Connection c = EmbeddedDatabase.connect(dir, Duration.ofMillis(Long.parseLong(args[2])))) {
                    say("url=" + c.getMetaData().getURL());
                    say("readOnly=" + c.isReadOnly());
                    say("count=" + transfers(c));
                } catch (SQLException e) {
                    say("failed=" + e.getMessage().replace('\n', ' '));
                }
            }
            case "hold" -> {
                try (Connection c = EmbeddedDatabase.connect(dir)) {
                    say("url=" + c.getMetaData().getURL());
                    say("holding");
                    in.readLine();
                }
                say("released");
            }
            case "own" -> {
                JdbcLogStore store = JdbcLogStore.openH2(dir);
                try {
                    say("port=" + EmbeddedDatabaseOwner.presence(dir).address().port());
                    in.readLine();
                } finally {
                    store.close();
                }
                say("released");
            }
            default -> throw new IllegalArgumentException("unknown mode " + args[0]);
        }
    }

    private static int transfers(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("select count(*) from FTELOG.TRANSFER")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static void say(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
