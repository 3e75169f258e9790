package org.openmft.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.core.spi.FilterReply;

class ArtemisNoiseFilterTest {
    private final ArtemisNoiseFilter filter = new ArtemisNoiseFilter();
    private final Logger artemis = (Logger) LoggerFactory.getLogger("org.apache.activemq.artemis.core.server");

    @Test
    void dropsOnlyArtemisNoExpiryAddressWarnings() {
        assertThat(filter.decide(null, artemis, Level.WARN,
                "AMQ222166: No Expiry Address configured for queue {} in AddressSettings", new Object[] {"Q"}, null))
                .isEqualTo(FilterReply.DENY);
        assertThat(filter.decide(null, artemis, Level.WARN, "AMQ222059: Duplicate message detected", null, null))
                .isEqualTo(FilterReply.NEUTRAL);
        Logger ours = (Logger) LoggerFactory.getLogger("org.openmft.agent.Agent");
        assertThat(filter.decide(null, ours, Level.WARN, "AMQ222166 quoted by us", null, null))
                .isEqualTo(FilterReply.NEUTRAL);
    }

    @Test
    void theDistributionsLoggingConfigurationInstallsIt() {
        var context = (ch.qos.logback.classic.LoggerContext) LoggerFactory.getILoggerFactory();
        assertThat(context.getTurboFilterList()).anyMatch(f -> f instanceof ArtemisNoiseFilter);
    }
}
