package org.openmft.agent.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.jms.JMSException;

import org.apache.activemq.artemis.api.core.ActiveMQNotConnectedException;
import org.junit.jupiter.api.Test;

import com.ibm.mq.MQException;

class ProviderErrorsTest {
    @Test
    void ibmMqReasonCodesAreNamed() {
        JMSException e = new JMSException("JMSWMQ0018: Failed to connect to queue manager 'QM1'", "JMSWMQ0018");
        e.setLinkedException(new MQException(2, 2059, null));
        assertThat(ProviderErrors.describe(e)).isEqualTo("JMSWMQ0018: Failed to connect to queue manager 'QM1'"
                + " (MQRC 2059)");
    }

    @Test
    void artemisErrorTypesAreNamedThroughCauses() {
        JMSException e = new JMSException("AMQ219007: Cannot connect to server(s)");
        e.initCause(new ActiveMQNotConnectedException("gone"));
        assertThat(ProviderErrors.describe(e)).contains("AMQ219007", "(Artemis NOT_CONNECTED)");
    }

    @Test
    void noReasonIsInventedWhereThereIsNone() {
        JMSException e = new JMSException("plain", "CODE1");
        assertThat(ProviderErrors.describe(e)).isEqualTo("CODE1: plain");
        assertThat(ProviderErrors.reason(e)).isNull();
    }
}
