package org.openmft.agent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class QueueNamesTest {

    @Test
    void namesAreIbms() {
        assertEquals("SYSTEM.FTE.COMMAND.AGENT1", QueueNames.command("agent1"));
        assertEquals("SYSTEM.FTE.DATA.AGENT1", QueueNames.data("agent1"));
        assertEquals("SYSTEM.FTE.REPLY.AGENT1", QueueNames.reply("agent1"));
        assertEquals("SYSTEM.FTE.STATE.AGENT1", QueueNames.state("agent1"));
        assertEquals("SYSTEM.FTE.EVENT.AGENT1", QueueNames.event("agent1"));
        assertEquals("SYSTEM.FTE.HA.AGENT1", QueueNames.ha("agent1"));
        assertEquals("SYSTEM.FTE.CMD.RJCT.AGENT1", QueueNames.rejected("agent1"));
        assertEquals(List.of("SYSTEM.FTE.AUTHAGT1.AGENT1", "SYSTEM.FTE.AUTHTRN1.AGENT1", "SYSTEM.FTE.AUTHSCH1.AGENT1",
                "SYSTEM.FTE.AUTHMON1.AGENT1", "SYSTEM.FTE.AUTHOPS1.AGENT1", "SYSTEM.FTE.AUTHADM1.AGENT1"),
                QueueNames.authQueues("agent1"));
    }

    @Test
    void agentQueuesInOrder() {
        assertEquals(List.of("SYSTEM.FTE.COMMAND.A.B_C", "SYSTEM.FTE.DATA.A.B_C", "SYSTEM.FTE.REPLY.A.B_C",
                "SYSTEM.FTE.STATE.A.B_C", "SYSTEM.FTE.EVENT.A.B_C", "SYSTEM.FTE.CMD.RJCT.A.B_C",
                "SYSTEM.FTE.PUBLISH.A.B_C"),
                QueueNames.agentQueues("a.b_c"));
    }

    @Test
    void everyNameFitsMqsLimitForTheLongestAgentName() {
        String longest = "A234567890123456789012345678";
        assertEquals(28, longest.length());
        List<String> all = new ArrayList<>(QueueNames.agentQueues(longest));
        all.add(QueueNames.ha(longest));
        all.addAll(QueueNames.authQueues(longest));
        for (String name : all) {
            assertTrue(name.length() <= QueueNames.MAX_QUEUE_NAME_LENGTH, name + " is " + name.length() + " chars");
        }
        assertEquals(48, QueueNames.authAgent(longest).length(), "the limit is reached exactly, so 28 is the maximum");
        assertEquals(48, QueueNames.rejected(longest).length());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "A2345678901234567890123456789", "my-agent", "agent 1", "agent/1", "AGENT%1", "ıd"})
    void badAgentNamesAreRefusedWithTheRule(String name) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> QueueNames.command(name));
        assertEquals("agent name '" + name + "' is not valid: an agent name is 1 to 28 characters from A-Z, 0-9, "
                + "'.' and '_' (lower-case letters are upper-cased)", e.getMessage());
    }

    @Test
    void validateUpperCases() {
        assertEquals("MY.AGENT_1", QueueNames.validateAgentName("my.Agent_1"));
        assertThrows(IllegalArgumentException.class, () -> QueueNames.validateAgentName(null));
    }
}
