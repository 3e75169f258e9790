package org.openmft.agent.qmgr;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A listener other machines can reach needs TLS, or the administrator's explicit word. */
class ListenerPolicyTest {
    @Test
    void onlyLoopbackAddressesCountAsLoopback() {
        assertThat(ListenerPolicy.isLoopback("127.0.0.1")).isTrue();
        assertThat(ListenerPolicy.isLoopback("127.0.0.2")).isTrue();
        assertThat(ListenerPolicy.isLoopback("::1")).isTrue();
        assertThat(ListenerPolicy.isLoopback("0.0.0.0")).isFalse();
        assertThat(ListenerPolicy.isLoopback("::")).isFalse();
        assertThat(ListenerPolicy.isLoopback("192.0.2.10")).isFalse();
        assertThat(ListenerPolicy.isLoopback("no-such-host.invalid")).isFalse();
    }

    @Test
    void aPlaintextListenerOffLoopbackIsRefusedUnlessTlsOrExplicitlyAllowed() {
        assertThat(ListenerPolicy.refusal("QM1", "127.0.0.1", 1414, false, false)).isEmpty();
        assertThat(ListenerPolicy.refusal("QM1", "0.0.0.0", 1414, true, false)).isEmpty();
        assertThat(ListenerPolicy.refusal("QM1", "0.0.0.0", 1414, false, true)).isEmpty();
        assertThat(ListenerPolicy.refusal("QM1", "0.0.0.0", 1414, false, false)).get().asString()
                .contains("QM1", "0.0.0.0:1414", "without TLS", "--tls-generate", "--allow-plaintext-network");
    }

    @Test
    void everyStartOfAnAllowedPlaintextNetworkListenerIsWarnedAbout(@org.junit.jupiter.api.io.TempDir
            java.nio.file.Path dir) {
        assertThat(ListenerPolicy.warning(new QueueManagerSettings("QM1", dir, "0.0.0.0", 1414, null, true)))
                .get().asString().contains("WITHOUT TLS");
        assertThat(ListenerPolicy.warning(new QueueManagerSettings("QM1", dir, "127.0.0.1", 1414, null, true)))
                .isEmpty();
    }
}
