package org.openmft.cli.it;

import java.util.List;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * {@link NetworkHosts} for a test class, removed however its tests end:
 * <pre>
 * &#64;RegisterExtension
 * static final NetworkHostsExtension NET = NetworkHostsExtension.of("A", "B", "C");
 * ... NET.hosts().inHost("A", command) ...
 * </pre>
 * In a static field the hosts are built once before all tests and removed after them; in an
 * instance field, afresh for each test. Where hosts cannot be built, the tests are skipped with the
 * reason.
 */
final class NetworkHostsExtension implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback,
        AfterAllCallback {
    private final List<String> names;
    private NetworkHosts hosts;
    private boolean perClass;

    private NetworkHostsExtension(List<String> names) {
        this.names = names;
    }

    static NetworkHostsExtension of(String... names) {
        return new NetworkHostsExtension(List.of(names));
    }

    /** The hosts of the running test. */
    NetworkHosts hosts() {
        if (hosts == null) {
            throw new IllegalStateException("no network hosts outside a test");
        }
        return hosts;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        perClass = true;
        hosts = NetworkHosts.create(names.toArray(String[]::new));
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        if (!perClass) {
            hosts = NetworkHosts.create(names.toArray(String[]::new));
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (!perClass) {
            closeHosts();
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        closeHosts();
    }

    private void closeHosts() {
        if (hosts != null) {
            hosts.close();
            hosts = null;
        }
    }
}
