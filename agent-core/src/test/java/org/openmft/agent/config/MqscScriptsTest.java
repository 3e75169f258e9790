package org.openmft.agent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

class MqscScriptsTest {

    private static final String WORK = "DEFPRTY(0) DEFSOPT(SHARED) GET(ENABLED) MAXDEPTH(5000) MAXMSGL(4194304) "
            + "MSGDLVSQ(PRIORITY) PUT(ENABLED) RETINTVL(999999999) SHARE NOTRIGGER USAGE(NORMAL) REPLACE";
    private static final String AUTH = "DEFPRTY(0) DEFSOPT(SHARED) GET(ENABLED) MAXDEPTH(0) MAXMSGL(0) "
            + "MSGDLVSQ(PRIORITY) PUT(ENABLED) RETINTVL(999999999) SHARE NOTRIGGER USAGE(NORMAL) REPLACE";

    /** Joins MQSC '+' continuations, as runmqsc does, and maps each defined queue to its attributes. */
    private static Map<String, String> defines(String script) {
        String joined = script.replaceAll(" \\+\\n\\s*", " ");
        Map<String, String> result = new LinkedHashMap<>();
        Matcher m = Pattern.compile("(?m)^DEFINE QLOCAL\\(([^)]+)\\) (.*)$").matcher(joined);
        while (m.find()) {
            result.put(m.group(1), m.group(2));
        }
        return result;
    }

    private static List<String> allQueues(String agent) {
        List<String> all = new ArrayList<>(QueueNames.agentQueues(agent));
        all.add(QueueNames.ha(agent));
        all.addAll(QueueNames.authQueues(agent));
        return all;
    }

    @Test
    void createDefinesEveryQueueWithIbmsAttributes() {
        String script = MqscScripts.createScript("agent1");
        Map<String, String> defines = defines(script);

        assertEquals(allQueues("AGENT1"), List.copyOf(defines.keySet()));
        for (String queue : QueueNames.agentQueues("AGENT1")) {
            assertEquals(WORK, defines.get(queue), queue);
        }
        assertEquals(WORK, defines.get("SYSTEM.FTE.HA.AGENT1"));
        for (String queue : QueueNames.authQueues("AGENT1")) {
            assertEquals(AUTH, defines.get(queue), queue);
        }
    }

    @Test
    void createStartsWithCommentsOnly() {
        String script = MqscScripts.createScript("agent1");
        List<String> head = script.lines().takeWhile(line -> !line.isEmpty()).toList();
        assertTrue(head.size() >= 3);
        assertTrue(head.stream().allMatch(line -> line.startsWith("*")), "MQSC comments start with '*': " + head);
        assertTrue(script.contains("AGENT1_create.mqsc"));
        assertTrue(script.endsWith("\n"));
    }

    @Test
    void deleteDeletesEveryQueue() {
        String script = MqscScripts.deleteScript("agent1");
        List<String> deleted = script.lines().filter(line -> line.startsWith("DELETE"))
                .map(line -> line.replaceAll("^DELETE QLOCAL\\((.+)\\)$", "$1")).toList();
        assertEquals(allQueues("AGENT1"), deleted);
        assertTrue(script.lines().allMatch(line -> line.isEmpty() || line.startsWith("*") || line.startsWith("DELETE ")),
                script);
    }

    @Test
    void scriptsAreDeterministic() {
        assertEquals(MqscScripts.createScript("a"), MqscScripts.createScript("A"));
    }

    @Test
    void badAgentNameIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> MqscScripts.createScript("a;DELETE QLOCAL(X)"));
    }

    @Test
    void coordinationDefinesIbmsPublishSubscribeObjects() {
        String script = MqscScripts.coordinationScript("COORD1");
        List<String> commands = script.lines().filter(l -> !l.isEmpty() && !l.startsWith("*")).toList();
        assertEquals(List.of(
                "DEFINE TOPIC('SYSTEM.FTE') TOPICSTR('SYSTEM.FTE') NPMSGDLV(ALLAVAIL) PMSGDLV(ALLAVAIL) REPLACE",
                "DEFINE QLOCAL(SYSTEM.FTE) LIKE(SYSTEM.BROKER.DEFAULT.STREAM) REPLACE",
                "DISPLAY NAMELIST(SYSTEM.QPUBSUB.QUEUE.NAMELIST)",
                "ALTER NAMELIST(SYSTEM.QPUBSUB.QUEUE.NAMELIST) NAMES(SYSTEM.BROKER.DEFAULT.STREAM,"
                        + "SYSTEM.BROKER.ADMIN.STREAM,SYSTEM.FTE)",
                "DISPLAY QMGR PSMODE",
                "ALTER QMGR PSMODE(ENABLED)"), commands);
        assertTrue(script.contains("runmqsc COORD1 < COORD1.mqsc"));
        assertEquals(script, MqscScripts.coordinationScript("COORD1"), "no time stamps");
        assertThrows(IllegalArgumentException.class, () -> MqscScripts.coordinationScript("BAD NAME"));
        assertThrows(IllegalArgumentException.class, () -> MqscScripts.coordinationScript("Q\nALTER QMGR"));
    }

    @Test
    void aChannelIsASenderReceiverPairWithItsTransmissionQueueNamedAfterTheRemoteQueueManager() {
        MqscScripts.ChannelScripts c = MqscScripts.channelScripts("QMA", "QMB", "mftb.example.com", 1415,
                "ANY_TLS13_OR_HIGHER", "mftchl");
        String sender = String.join(" ", c.sender().lines().filter(l -> !l.startsWith("*")).toList());
        assertTrue(sender.contains("DEFINE QLOCAL('QMB') USAGE(XMITQ)"), sender);
        assertTrue(sender.contains("TRIGDATA('QMA.TO.QMB')"), sender);
        assertTrue(sender.contains("DEFINE CHANNEL('QMA.TO.QMB') CHLTYPE(SDR) TRPTYPE(TCP) CONNAME('mftb.example.com(1415)')"),
                sender);
        assertTrue(sender.contains("XMITQ('QMB') SSLCIPH(ANY_TLS13_OR_HIGHER)"), sender);
        String receiver = String.join(" ", c.receiver().lines().filter(l -> !l.startsWith("*")).toList());
        assertTrue(receiver.contains("DEFINE CHANNEL('QMA.TO.QMB') CHLTYPE(RCVR)"), receiver);
        assertTrue(receiver.contains("SSLCAUTH(REQUIRED)"), receiver);
        assertTrue(receiver.contains("SET CHLAUTH('QMA.TO.QMB') TYPE(QMGRMAP) QMNAME('QMA') USERSRC(MAP) MCAUSER('mftchl')"),
                receiver);
        assertEquals(c, MqscScripts.channelScripts("QMA", "QMB", "mftb.example.com", 1415, "ANY_TLS13_OR_HIGHER",
                "mftchl"), "no time stamps");
    }

    @Test
    void aChannelScriptRefusesWhatMqscCannotTakeAsGiven() {
        assertThrows(IllegalArgumentException.class, () -> MqscScripts.channelScripts("QMA", "QM B", "h", 1414,
                "ANY_TLS12_OR_HIGHER", "u"));
        assertThrows(IllegalArgumentException.class, () -> MqscScripts.channelScripts("QMA", "QMB", "h') REPLACE",
                1414, "ANY_TLS12_OR_HIGHER", "u"));
        assertThrows(IllegalArgumentException.class, () -> MqscScripts.channelScripts("QMA", "QMB", "h", 0,
                "ANY_TLS12_OR_HIGHER", "u"));
        assertThrows(IllegalArgumentException.class, () -> MqscScripts.channelScripts("QMA", "QMB", "h", 1414,
                "ANY_TLS12_OR_HIGHER", "a_user_longer_than_twelve"));
        assertThrows(IllegalArgumentException.class, () -> MqscScripts.channelScripts("QUEUEMGR.ONE", "QUEUEMGR.TWO",
                "h", 1414, "ANY_TLS12_OR_HIGHER", "u"), "a channel name over 20 characters");
    }

    @Test
    void severalChannelsGetIbmsQueueManagerAliasesEachWithItsOwnTransmissionQueueAndChannels() {
        MqscScripts.ChannelScripts c = MqscScripts.channelScripts("QMA", "QMB", "mftb", 1414, "ANY_TLS12_OR_HIGHER",
                "mftchl", 3);
        String sender = String.join(" ", c.sender().lines().filter(l -> !l.startsWith("*")).toList());
        assertTrue(sender.contains("DEFINE QREMOTE('SYSTEM.FTE.QMB_1') RNAME(' ') RQMNAME('QMB') XMITQ('QMB')"), sender);
        for (int n = 2; n <= 3; n++) {
            assertTrue(sender.contains("DEFINE QREMOTE('SYSTEM.FTE.QMB_" + n + "') RNAME(' ') RQMNAME('QMB') XMITQ('QMB_"
                    + n + "')"), sender);
            assertTrue(sender.contains("DEFINE QLOCAL('QMB_" + n + "') USAGE(XMITQ)"), sender);
            assertTrue(sender.contains("DEFINE CHANNEL('QMA.TO.QMB_" + n + "') CHLTYPE(SDR)"), sender);
            assertTrue(sender.contains("XMITQ('QMB_" + n + "') SSLCIPH(ANY_TLS12_OR_HIGHER)"), sender);
        }
        assertTrue(!sender.contains("SYSTEM.FTE.QMB_4"), sender);
        String receiver = String.join(" ", c.receiver().lines().filter(l -> !l.startsWith("*")).toList());
        for (String channel : java.util.List.of("QMA.TO.QMB", "QMA.TO.QMB_2", "QMA.TO.QMB_3")) {
            assertTrue(receiver.contains("DEFINE CHANNEL('" + channel + "') CHLTYPE(RCVR)"), receiver);
            assertTrue(receiver.contains("SET CHLAUTH('" + channel + "') TYPE(QMGRMAP) QMNAME('QMA')"), receiver);
        }
        assertEquals(MqscScripts.channelScripts("QMA", "QMB", "mftb", 1414, "ANY_TLS12_OR_HIGHER", "mftchl"),
                MqscScripts.channelScripts("QMA", "QMB", "mftb", 1414, "ANY_TLS12_OR_HIGHER", "mftchl", 1),
                "one channel: no alias");
        assertThrows(IllegalArgumentException.class, () -> MqscScripts.channelScripts("QMA", "QMB", "h", 1414,
                "ANY_TLS12_OR_HIGHER", "u", 17));
        MqscScripts.channelScripts("QMAAAAA", "QMBBBBBB", "h", 1414, "ANY_TLS12_OR_HIGHER", "u", 1);
        assertThrows(IllegalArgumentException.class, () -> MqscScripts.channelScripts("QMAAAAA", "QMBBBBBB", "h", 1414,
                "ANY_TLS12_OR_HIGHER", "u", 2), "QMAAAAA.TO.QMBBBBBB_2 is over 20 characters");
    }

    @Test
    void aHeartbeatIsWrittenAsHbintOnEverySenderAndReceiver() {
        MqscScripts.ChannelScripts c = MqscScripts.channelScripts("QMA", "QMB", "mftb", 1414, "ANY_TLS12_OR_HIGHER",
                "mftchl", 2, 5);
        for (String script : java.util.List.of(c.sender(), c.receiver())) {
            java.util.List<String> channels = script.lines().filter(l -> l.startsWith("DEFINE CHANNEL")).toList();
            assertEquals(2, channels.size(), script);
            String joined = String.join(" ", script.lines().filter(l -> !l.startsWith("*")).toList());
            assertEquals(2, joined.split("HBINT\\(5\\) REPLACE", -1).length - 1, joined);
        }
        assertTrue(!MqscScripts.channelScripts("QMA", "QMB", "mftb", 1414, "ANY_TLS12_OR_HIGHER", "mftchl", 2)
                .sender().contains("HBINT"), "no heartbeat given: IBM's default, nothing written");
        assertThrows(IllegalArgumentException.class, () -> MqscScripts.channelScripts("QMA", "QMB", "h", 1414,
                "ANY_TLS12_OR_HIGHER", "u", 1, 1_000_000));
        assertThrows(IllegalArgumentException.class, () -> MqscScripts.channelScripts("QMA", "QMB", "h", 1414,
                "ANY_TLS12_OR_HIGHER", "u", 1, -1));
    }

    @Test
    void aMultiHopRouteIsIbmsQueueManagerAliasAQremoteWithABlankRnameOverTheTransmissionQueueToTheHop() {
        String script = MqscScripts.aliasScript("QMA", "QMB", "QMC");
        java.util.List<String> commands = script.lines().filter(l -> !l.isBlank() && !l.startsWith("*")).toList();
        assertEquals(java.util.List.of("DEFINE QREMOTE('QMB') RNAME(' ') RQMNAME('QMB') XMITQ('QMC') REPLACE"),
                commands);
        assertTrue(script.contains("runmqsc QMA < QMA.TO.QMB.alias.mqsc"), script);
        assertEquals(script, MqscScripts.aliasScript("QMA", "QMB", "QMC"), "no time stamps");
        assertThrows(IllegalArgumentException.class, () -> MqscScripts.aliasScript("QMA", "QMB", "QMB"));
        assertThrows(IllegalArgumentException.class, () -> MqscScripts.aliasScript("QMA", "QMA", "QMC"));
        assertThrows(IllegalArgumentException.class, () -> MqscScripts.aliasScript("QMA", "QMB", "QM C') REPLACE"));
    }
}
