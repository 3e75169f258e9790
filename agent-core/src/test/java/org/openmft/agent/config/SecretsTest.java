package org.openmft.agent.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

/** What may be logged: passwords in URLs and secret keys are masked, everything else stays readable. */
class SecretsTest {

    @Test
    void masksPasswordSettingsOfJdbcUrls() {
        assertThat(Secrets.maskCredentials("jdbc:postgresql://db:5432/mft?user=mft&password=s3cret&ssl=true"))
                .isEqualTo("jdbc:postgresql://db:5432/mft?user=mft&password=********&ssl=true");
        assertThat(Secrets.maskCredentials("jdbc:h2:tcp://h/x;USER=sa;PASSWORD=s3cret;AUTO_SERVER=TRUE"))
                .isEqualTo("jdbc:h2:tcp://h/x;USER=sa;PASSWORD=********;AUTO_SERVER=TRUE");
        assertThat(Secrets.maskCredentials("Server=db;Pwd=abc;Database=x")).isEqualTo("Server=db;Pwd=********;Database=x");
        assertThat(Secrets.maskCredentials("jdbc:x://h/db?passwd=a b")).isEqualTo("jdbc:x://h/db?passwd=******** b");
    }

    @Test
    void masksThePasswordOfUserInfoButKeepsUserAndHost() {
        assertThat(Secrets.maskCredentials("jdbc:postgresql://mft:s3cret@db.example.org:5432/mft"))
                .isEqualTo("jdbc:postgresql://mft:********@db.example.org:5432/mft");
        assertThat(Secrets.maskCredentials("see https://u:p%40ss@h/x and ftp://anon@h/"))
                .isEqualTo("see https://u:********@h/x and ftp://anon@h/");
    }

    @Test
    void leavesTextWithoutSecretsAlone() {
        for (String text : new String[] {"jdbc:postgresql://db:5432/mft", "jdbc:h2:file:/d/logger;WRITE_DELAY=0",
                "127.0.0.1:1414", "host:port@", "passwordless=yes", ""}) {
            assertThat(Secrets.maskCredentials(text)).isEqualTo(text);
        }
        assertThat(Secrets.maskCredentials(null)).isNull();
    }

    @Test
    void theLoggedConfigurationMasksSecretKeysAndPasswordsInUrls() throws ConfigurationException {
        LoggerConfig config = LoggerConfig.from(Map.of("wmqfte.logger.type", "DATABASE", "wmqfte.queue.manager", "C",
                "wmqfte.database.type", "postgresql", "openmft.database.url",
                "jdbc:postgresql://mft:urlpw@db:5432/mft?password=querypw", "openmft.database.password", "keypw"),
                "L1", Map.of());
        String text = config.describe();
        assertThat(text).doesNotContain("urlpw", "querypw", "keypw")
                .contains("openmft.database.password=********")
                .contains("openmft.database.url=jdbc:postgresql://mft:********@db:5432/mft?password=********");
        assertThat(LoggerProperties.OPENMFT_DATABASE_PASSWORD.secret()).isTrue();
        assertThat(LoggerProperties.OPENMFT_DATABASE_USER.secret()).isFalse();
    }

    @Test
    void ignoredKeysShownInTheLoggedConfigurationAreMaskedToo() throws ConfigurationException {
        AgentConfig config = AgentConfig.from(Map.of("agentName", "A1", "agentQMgr", "QM1", "logTransfer",
                "jdbc:x://u:pw@h/db"), Map.of());
        assertThat(config.describe()).contains("logTransfer=jdbc:x://u:********@h/db (ignored: not supported yet)")
                .doesNotContain(":pw@");
    }
}
