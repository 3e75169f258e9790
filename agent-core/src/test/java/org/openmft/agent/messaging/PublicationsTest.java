package org.openmft.agent.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PublicationsTest {

    @Test
    void topicStringsAreIbms() {
        assertThat(Publications.agentStatus("AGENT1")).isEqualTo("SYSTEM.FTE/Agents/AGENT1");
        assertThat(Publications.log("A", "414D")).isEqualTo("SYSTEM.FTE/Log/A/414D");
        assertThat(Publications.transferProgress("A", "414D")).isEqualTo("SYSTEM.FTE/Transfers/A/414D");
    }

    @Test
    void patternsMatchByLevel() {
        assertThat(Publications.matches("SYSTEM.FTE/Log/#", "SYSTEM.FTE/Log/A/1")).isTrue();
        assertThat(Publications.matches("SYSTEM.FTE/Log/#", "SYSTEM.FTE/Log")).isTrue();
        assertThat(Publications.matches("SYSTEM.FTE/Log/#", "SYSTEM.FTE/Logger/A")).isFalse();
        assertThat(Publications.matches("SYSTEM.FTE/Agents/+", "SYSTEM.FTE/Agents/A")).isTrue();
        assertThat(Publications.matches("SYSTEM.FTE/Agents/+", "SYSTEM.FTE/Agents/A/B")).isFalse();
        assertThat(Publications.matches("SYSTEM.FTE/Log/+/1", "SYSTEM.FTE/Log/A/1")).isTrue();
        assertThat(Publications.matches("SYSTEM.FTE/Log/+/1", "SYSTEM.FTE/Log/A/2")).isFalse();
        assertThat(Publications.matches("SYSTEM.FTE/Agents/A", "SYSTEM.FTE/Agents/A")).isTrue();
    }

    @Test
    void selectorsEscapeLikeCharactersAndQuotes() {
        assertThat(Publications.selector("SYSTEM.FTE/Agents/A_1")).isEqualTo("MQTopicString = 'SYSTEM.FTE/Agents/A_1'");
        assertThat(Publications.selector("SYSTEM.FTE/Log/A_%'/#")).isEqualTo(
                "(MQTopicString LIKE 'SYSTEM.FTE/Log/A!_!%''/%' ESCAPE '!' OR MQTopicString = 'SYSTEM.FTE/Log/A_%''')");
        assertThat(Publications.selector("SYSTEM.FTE/Agents/+")).isEqualTo(
                "MQTopicString LIKE 'SYSTEM.FTE/Agents/%' ESCAPE '!'");
    }
}
