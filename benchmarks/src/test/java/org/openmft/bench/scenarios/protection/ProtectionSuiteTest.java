package org.openmft.bench.scenarios.protection;

import org.openmft.bench.harness.EmbeddedMft;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.AgentConfig;
import org.openmft.agent.protection.MessageProtection;
import org.openmft.agent.protection.ProtectionLevel;

/** How the protection suite sets its agents up and orders its runs; the transfers themselves run in the benchmark. */
class ProtectionSuiteTest {
    @Test
    void eachPolicyRunsFirstInTurn() {
        assertThat(ProtectionSuite.order(0)).containsExactly(ProtectionLevel.NONE, ProtectionLevel.INTEGRITY,
                ProtectionLevel.PRIVACY);
        assertThat(ProtectionSuite.order(1)).containsExactly(ProtectionLevel.INTEGRITY, ProtectionLevel.PRIVACY,
                ProtectionLevel.NONE);
        assertThat(ProtectionSuite.order(2)).containsExactly(ProtectionLevel.PRIVACY, ProtectionLevel.NONE,
                ProtectionLevel.INTEGRITY);
        assertThat(ProtectionSuite.order(3)).isEqualTo(ProtectionSuite.order(0));
    }

    @Test
    void everyAgentAsksForItsPairsPolicyWithKeysItsPartnerTrusts(@TempDir Path keys) throws Exception {
        Map<String, Map<String, String>> agents = ProtectionSuite.agentProperties(Map.of("agentChunkSize", "262144",
                MessageProtection.LEVEL_KEY, "privacy"), keys);

        assertThat(agents).hasSize(6);
        for (ProtectionLevel level : ProtectionLevel.values()) {
            EmbeddedMft.Pair pair = ProtectionSuite.pair(level);
            for (List<String> fromTo : List.of(List.of(pair.source(), pair.destination()),
                    List.of(pair.destination(), pair.source()))) {
                Map<String, String> raw = new HashMap<>(agents.get(fromTo.get(0)));
                assertThat(raw).containsEntry("agentChunkSize", "262144");
                raw.put("agentName", fromTo.get(0));
                raw.put("agentQMgr", EmbeddedMft.QMGR);
                // The agent reads its level and opens its stores, as it does when it starts.
                MessageProtection protection = AgentConfig.from(raw, Map.of()).messageProtection(Clock.systemUTC());
                assertThat(protection.levelFor(fromTo.get(1))).as(fromTo.get(0)).isEqualTo(level);
                if (level == ProtectionLevel.NONE) {
                    assertThat(raw).as("none is an agent never set up for protection")
                            .doesNotContainKey(MessageProtection.KEY_STORE_KEY);
                } else {
                    protection.keys().checkPeer(fromTo.get(1)); // throws unless the partner's certificate is trusted
                }
            }
        }
    }
}
