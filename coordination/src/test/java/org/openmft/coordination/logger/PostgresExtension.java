package org.openmft.coordination.logger;

import java.nio.file.Path;
import java.util.Optional;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives tests a real, throw-away PostgreSQL server ({@link PostgresServer}), one for the whole test
 * run, stopped and deleted when the run ends. Tests take it as a {@link PostgresServer} parameter.
 *
 * <p>When this machine has no PostgreSQL programs the tests are skipped with the reason, unless
 * the environment variable {@value #REQUIRE_ENV} is {@code 1}: then they fail, so that CI cannot
 * pass by skipping them.
 */
public final class PostgresExtension implements BeforeAllCallback, ParameterResolver {

    /** Set to 1 to make a missing PostgreSQL a failure instead of a skip. */
    public static final String REQUIRE_ENV = "OPENMFT_REQUIRE_POSTGRES";

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(PostgresExtension.class);

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        server(context);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == PostgresServer.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return server(context);
    }

    private static PostgresServer server(ExtensionContext context) {
        Optional<Path> bin = PostgresServer.findBinaries();
        if (bin.isEmpty()) {
            String reason = "no PostgreSQL programs (initdb, postgres, pg_ctl) on the PATH, in OPENMFT_POSTGRES_BIN or "
                    + "under /usr/lib/postgresql/<version>/bin; install Debian's postgresql package to run these tests";
            if ("1".equals(System.getenv(REQUIRE_ENV))) {
                throw new ExtensionConfigurationException(REQUIRE_ENV + "=1 but there is " + reason);
            }
            Assumptions.abort(reason);
        }
        // The root store lives for the whole run and closes its AutoCloseable values at the end.
        return context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(PostgresServer.class, k -> {
            try {
                return PostgresServer.start(bin.get());
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                throw new ExtensionConfigurationException("cannot start a PostgreSQL server from " + bin.get(), e);
            }
        }, PostgresServer.class);
    }
}
