package org.openmft.coordination.logger;

import static org.openmft.coordination.logger.Logs.T0;
import static org.openmft.coordination.logger.Logs.id;
import static org.openmft.coordination.logger.Logs.record;
import static org.openmft.coordination.logger.Logs.started;

import java.nio.file.Path;
import java.util.List;

/**
 * A child process for {@link H2LogStoreTest}: stores batches in the default H2 store and, as soon as
 * the last {@code storeAll} returns, halts the JVM without closing anything, as {@code kill -9} would.
 */
public final class StoreThenHalt {

    static final int TRANSFERS = 20;
    static final int HALTED = 3;
    static final String STORED = "stored";

    private StoreThenHalt() {
    }

    /**
     * Stores and halts.
     *
     * @param args the database directory
     * @throws Exception when storing fails (the exit code is then not {@link #HALTED})
     */
    public static void main(String[] args) throws Exception {
        JdbcLogStore store = JdbcLogStore.openH2(Path.of(args[0]));
        for (int i = 0; i < TRANSFERS; i++) {
            store.storeAll(List.of(record(started(id(i), "A", "B", T0))));
        }
        System.out.println(STORED);
        System.out.flush();
        Runtime.getRuntime().halt(HALTED);
    }
}
