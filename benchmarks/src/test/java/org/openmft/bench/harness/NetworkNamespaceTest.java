package org.openmft.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * The benchmarks' second host: a process in the namespace reaches this side over the veth, and
 * closing it ends that process and leaves no namespace or address behind. Needs root.
 */
class NetworkNamespaceTest {
    @Test
    void aProcessInsideReachesThisSideAndIsGoneWithTheNamespace() throws Exception {
        assumeTrue(NetworkNamespace.unavailableReason().isEmpty(),
                () -> "no network namespace here: " + NetworkNamespace.unavailableReason().orElse(""));
        NetworkNamespace ns = NetworkNamespace.create();
        Process inside = null;
        try (ServerSocket server = new ServerSocket()) {
            server.bind(new InetSocketAddress(InetAddress.getByName(ns.hostAddress()), 0));
            server.setSoTimeout(30_000);
            List<String> cmd = new ArrayList<>(ns.commandPrefix());
            // Connects from inside over the veth, then stays until killed.
            cmd.addAll(List.of("bash", "-c", "exec 3<>/dev/tcp/" + ns.hostAddress() + "/" + server.getLocalPort()
                    + "; echo hello >&3; exec sleep 600"));
            inside = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            try (Socket s = server.accept()) {
                assertThat(s.getInetAddress().getHostAddress()).isEqualTo(ns.namespaceAddress());
            }
        } finally {
            ns.close();
        }
        assertThat(inside.waitFor(30, TimeUnit.SECONDS)).as("the process inside was ended").isTrue();
        assertThat(NetworkNamespace.ip("netns", "list")).doesNotContain(ns.name());
        assertThat(NetworkNamespace.ip("-4", "-o", "addr", "show")).doesNotContain(ns.hostAddress() + "/");
    }
}
