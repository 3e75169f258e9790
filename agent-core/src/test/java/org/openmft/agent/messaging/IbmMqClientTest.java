package org.openmft.agent.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The IBM MQ provider's presence check: the test class path has IBM's jar, the distribution may not. */
class IbmMqClientTest {
    @Test
    void withTheJarTheProviderIsAvailableAndWithoutItTheErrorNamesWhatToInstall() throws Exception {
        assertThat(IbmMqClient.available()).isTrue();
        IbmMqClient.require("queue manager QM1");
        assertThat(IbmMqClient.missing("queue manager QM1")).startsWith("queue manager QM1 uses the IBM MQ provider")
                .contains(IbmMqClient.ARTIFACT, "-Pibmmq", "lib directory", "does not fall back");
    }
}
