package org.openmft.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * Every event of {@link AgentListener} is forwarded: a default method left out of
 * {@link ForwardingAgentListener} silently drops its event for the coordination publisher (the
 * program calls' results once were, and with them the calls in the transfer log).
 */
class ForwardingAgentListenerTest {

    @Test
    void everyEventIsForwarded() throws Exception {
        List<String> missing = new ArrayList<>();
        for (Method m : AgentListener.class.getMethods()) {
            if (!m.isDefault()) {
                continue;
            }
            Method forwarding = ForwardingAgentListener.class.getMethod(m.getName(), m.getParameterTypes());
            if (forwarding.getDeclaringClass() != ForwardingAgentListener.class) {
                missing.add(m.getName());
            }
        }
        assertThat(missing).as("events ForwardingAgentListener does not forward").isEmpty();
    }
}
