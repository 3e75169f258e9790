package org.openmft.coordination.logger;

import java.sql.Connection;
import java.sql.Statement;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/** The contract on a real PostgreSQL server, a fresh database per test. */
@ExtendWith(PostgresExtension.class)
class PostgresLogStoreIT extends JdbcLogStoreContract {

    private String url;

    @BeforeEach
    void database(PostgresServer server) throws Exception {
        url = server.createDatabase();
    }

    @Override
    String url() {
        return url;
    }

    @Override
    String user() {
        return PostgresServer.USER;
    }

    @Override
    String password() {
        return "";
    }

    @Override
    void cutConnections() throws Exception {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute("SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity "
                    + "WHERE datname = current_database() AND pid <> pg_backend_pid()");
        }
    }
}
