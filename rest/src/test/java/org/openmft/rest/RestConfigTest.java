package org.openmft.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.ConfigurationException;

class RestConfigTest {
    @TempDir
    Path dir;

    @Test
    void withoutAFileItServesPlainHttpOnLoopbackOnly() throws Exception {
        RestConfig c = RestConfig.load(dir.resolve(RestConfig.FILE_NAME), Map.of());
        assertThat(c.host()).isEqualTo("127.0.0.1");
        assertThat(c.port()).isEqualTo(9080);
        assertThat(c.tls()).isFalse();
    }

    @Test
    void anotherAddressWithoutAKeyStoreStopsStartUpNamingTheKeys() {
        assertThatThrownBy(() -> RestConfig.from(Map.of("httpHost", "0.0.0.0")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("BFGRE0002E")
                .hasMessageContaining("httpHost=0.0.0.0")
                .hasMessageContaining("openmft.rest.keyStore");
    }

    @Test
    void aKeyStoreTurnsHttpsOnAndNeedsItsPasswordFile() throws Exception {
        assertThatThrownBy(() -> RestConfig.from(Map.of("openmft.rest.keyStore", "/k.p12")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("openmft.rest.keyStoreCredentialsFile");
        RestConfig c = RestConfig.from(Map.of("httpHost", "0.0.0.0", "openmft.rest.keyStore", "/k.p12",
                "openmft.rest.keyStoreCredentialsFile", "/k.pw"));
        assertThat(c.tls()).isTrue();
        assertThat(c.port()).isEqualTo(9443);
    }

    @Test
    void aBadPortIsRefused() {
        assertThatThrownBy(() -> RestConfig.from(Map.of("httpPort", "70000")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("httpPort");
    }
}
