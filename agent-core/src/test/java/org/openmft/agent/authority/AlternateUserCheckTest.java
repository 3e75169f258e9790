package org.openmft.agent.authority;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.reflect.Proxy;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.jms.Message;

import org.junit.jupiter.api.Test;
import org.openmft.agent.qmgr.QueueManagerException;

import com.ibm.mq.MQException;
import com.ibm.mq.constants.CMQC;

/**
 * The decisions of IBM MQ's authority check, against a scripted queue manager that answers each open
 * with the reason code a real one gives (IBM MQ itself needs Docker, which this machine may not
 * have: {@code IbmMqConnectionIT} runs the same check against a real one where it can).
 */
class AlternateUserCheckTest {
    /** One open as the queue manager saw it. */
    record Open(int connection, String queue, int options, String user) {
    }

    /** Answers opens from a script: a reason code per queue and user, else success; records every open. */
    static final class ScriptedQueueManager {
        final Map<String, Deque<Integer>> reasons = new HashMap<>();
        final List<Open> opens = new ArrayList<>();
        int connections;
        int closes;

        /** The next opens of {@code queue} by {@code user} (null: the agent itself) fail with these reasons. */
        void fail(String queue, String user, int... codes) {
            Deque<Integer> d = reasons.computeIfAbsent(queue + "/" + user, k -> new ArrayDeque<>());
            for (int c : codes) {
                d.add(c);
            }
        }

        AlternateUserCheck.Opener connect() {
            int id = ++connections;
            return new AlternateUserCheck.Opener() {
                @Override
                public void open(String queue, int options, String alternateUser) throws MQException {
                    opens.add(new Open(id, queue, options, alternateUser));
                    Integer reason = reasons.getOrDefault(queue + "/" + alternateUser, new ArrayDeque<>()).poll();
                    if (reason != null) {
                        throw new MQException(CMQC.MQCC_FAILED, reason, this);
                    }
                }

                @Override
                public void close() {
                    closes++;
                }
            };
        }
    }

    final ScriptedQueueManager qm = new ScriptedQueueManager();
    final AlternateUserCheck check = new AlternateUserCheck(qm::connect, "QM1");

    static Message from(String user) {
        return (Message) Proxy.newProxyInstance(Message.class.getClassLoader(), new Class<?>[] {Message.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("getStringProperty") && "JMSXUserID".equals(args[0])) {
                        return user;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    @Test
    void anAuthorityIsAnAlternateUserOpenOfItsQueueWithItsAccess() throws Exception {
        HeldAuthorities held = check.held(from("alice       "), "agent1");

        assertThat(held.holds(Authority.TRANSFER)).isTrue();
        assertThat(held.holds(Authority.AGENT_SEND)).isTrue();

        int common = CMQC.MQOO_ALTERNATE_USER_AUTHORITY | CMQC.MQOO_FAIL_IF_QUIESCING;
        assertThat(qm.opens).containsExactly(
                new Open(1, "SYSTEM.FTE.AUTHTRN1.AGENT1", common | CMQC.MQOO_BROWSE, "alice"),
                new Open(1, "SYSTEM.FTE.AUTHAGT1.AGENT1", common | CMQC.MQOO_OUTPUT, "alice"));
    }

    @Test
    void notAuthorizedIsNotHeldAndKeepsTheConnection() throws Exception {
        qm.fail("SYSTEM.FTE.AUTHADM1.AGENT1", "bob", CMQC.MQRC_NOT_AUTHORIZED);
        HeldAuthorities held = check.held(from("bob"), "AGENT1");

        assertThat(held.holds(Authority.ADMINISTRATION)).isFalse();
        assertThat(held.holds(Authority.TRANSFER)).isTrue();
        assertThat(qm.connections).isEqualTo(1);
        assertThat(qm.closes).isZero();
    }

    @Test
    void eachAuthorityIsAskedOncePerMessage() throws Exception {
        HeldAuthorities held = check.held(from("alice"), "AGENT1");
        held.holds(Authority.TRANSFER);
        held.holds(Authority.TRANSFER);
        check.held(from("alice"), "AGENT1").holds(Authority.TRANSFER);

        assertThat(qm.opens).hasSize(2);
    }

    @Test
    void aMessageWithoutAUserHoldsNothingAndAsksNothing() throws Exception {
        HeldAuthorities held = check.held(from("   "), "AGENT1");

        assertThat(held.holds(Authority.TRANSFER)).isFalse();
        assertThat(qm.opens).isEmpty();
        assertThat(qm.connections).isZero();
    }

    @Test
    void aLostConnectionIsReplacedOnceAndTheCheckMade() {
        qm.fail("SYSTEM.FTE.AUTHTRN1.AGENT1", "alice", CMQC.MQRC_CONNECTION_BROKEN);

        assertThat(check.holds("alice", "AGENT1", Authority.TRANSFER)).isTrue();
        assertThat(qm.connections).isEqualTo(2);
        assertThat(qm.closes).isEqualTo(1);
    }

    @Test
    void aCheckThatCannotBeMadeRefusesAndTheNextOneConnectsAgain() {
        qm.fail("SYSTEM.FTE.AUTHTRN1.AGENT1", "alice", CMQC.MQRC_CONNECTION_BROKEN, CMQC.MQRC_Q_MGR_NOT_AVAILABLE);

        assertThat(check.holds("alice", "AGENT1", Authority.TRANSFER)).isFalse();
        assertThat(check.holds("alice", "AGENT1", Authority.TRANSFER)).isTrue();
        assertThat(qm.connections).isEqualTo(3);
    }

    @Test
    void aClosedCheckRefusesEverything() {
        check.close();

        assertThat(check.holds("alice", "AGENT1", Authority.TRANSFER)).isFalse();
        assertThat(qm.opens).isEmpty();
    }

    @Test
    void startingNeedsEveryAuthorityQueueAndAlternateUserAuthority() throws Exception {
        check.verify("agentusr", "AGENT1");

        assertThat(qm.opens).extracting(Open::queue).containsExactly("SYSTEM.FTE.AUTHAGT1.AGENT1",
                "SYSTEM.FTE.AUTHTRN1.AGENT1", "SYSTEM.FTE.AUTHSCH1.AGENT1", "SYSTEM.FTE.AUTHMON1.AGENT1",
                "SYSTEM.FTE.AUTHOPS1.AGENT1", "SYSTEM.FTE.AUTHADM1.AGENT1", "SYSTEM.FTE.AUTHTRN1.AGENT1");
        assertThat(qm.opens.get(0).options() & CMQC.MQOO_INQUIRE).isNotZero();
        assertThat(qm.opens.get(0).user()).isNull();
        Open last = qm.opens.get(qm.opens.size() - 1);
        assertThat(last.user()).isEqualTo("agentusr");
        assertThat(last.options() & CMQC.MQOO_ALTERNATE_USER_AUTHORITY).isNotZero();
    }

    @Test
    void aMissingAuthorityQueueStopsTheAgentNamingTheMqsc() {
        qm.fail("SYSTEM.FTE.AUTHOPS1.AGENT1", null, CMQC.MQRC_UNKNOWN_OBJECT_NAME);

        QueueManagerException e = assertThrows(QueueManagerException.class, () -> check.verify("agentusr", "AGENT1"));

        assertThat(e.exitCode()).isEqualTo(QueueManagerException.CONFIGURATION);
        assertThat(e.getMessage()).contains("SYSTEM.FTE.AUTHOPS1.AGENT1 is not defined on queue manager QM1")
                .contains("AGENT1_create.mqsc").contains("MQRC 2085");
    }

    @Test
    void anAgentUserWithoutInquireStopsTheAgentNamingTheSetmqaut() {
        qm.fail("SYSTEM.FTE.AUTHAGT1.AGENT1", null, CMQC.MQRC_NOT_AUTHORIZED);

        QueueManagerException e = assertThrows(QueueManagerException.class, () -> check.verify("agentusr", "AGENT1"));

        assertThat(e.exitCode()).isEqualTo(QueueManagerException.CONFIGURATION);
        assertThat(e.getMessage()).contains("setmqaut -m QM1 -n SYSTEM.FTE.AUTHAGT1.AGENT1 -t queue -p agentusr +inq");
    }

    @Test
    void anAgentUserWithoutAlternateUserAuthorityStopsTheAgentNamingTheSetmqaut() {
        qm.fail("SYSTEM.FTE.AUTHTRN1.AGENT1", "agentusr", CMQC.MQRC_NOT_AUTHORIZED);

        QueueManagerException e = assertThrows(QueueManagerException.class, () -> check.verify("agentusr", "AGENT1"));

        assertThat(e.exitCode()).isEqualTo(QueueManagerException.CONFIGURATION);
        assertThat(e.getMessage()).contains("lacks alternate-user authority on queue manager QM1")
                .contains("setmqaut -m QM1 -t qmgr -p agentusr +altusr");
    }

    @Test
    void aQueueManagerThatCannotBeAskedAtStartIsUnavailableNotMisconfigured() {
        qm.fail("SYSTEM.FTE.AUTHTRN1.AGENT1", null, CMQC.MQRC_CONNECTION_BROKEN);

        QueueManagerException e = assertThrows(QueueManagerException.class, () -> check.verify("agentusr", "AGENT1"));

        assertThat(e.exitCode()).isEqualTo(QueueManagerException.UNAVAILABLE);
        assertThat(e.getMessage()).contains("MQRC 2009");
    }
}
