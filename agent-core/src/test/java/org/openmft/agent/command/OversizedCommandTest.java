package org.openmft.agent.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.jms.BytesMessage;
import jakarta.jms.Destination;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.core.client.impl.ClientMessageImpl;
import org.apache.activemq.artemis.jms.client.ActiveMQBytesMessage;
import org.apache.activemq.artemis.jms.client.ActiveMQDestination;
import org.apache.activemq.artemis.jms.client.ActiveMQTextMessage;
import org.apache.activemq.artemis.reader.TextMessageUtil;
import org.junit.jupiter.api.Test;
import org.openmft.agent.AgentListener;
import org.openmft.agent.ResultCode;
import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.messaging.MessageSizes;

/**
 * A command message over the limit is refused from its size alone: with real Artemis messages as a
 * consumer receives them, the text is never turned into a String, the copy on the reject queue
 * keeps no body, and the requester gets result 43.
 */
class OversizedCommandTest {
    private static final int LIMIT = 1024;

    /** A text message as the Artemis JMS client hands it to a consumer. */
    private static ActiveMQTextMessage receivedText(String text, AtomicInteger getTextCalls) throws Exception {
        ClientMessageImpl core = new ClientMessageImpl(ActiveMQTextMessage.TYPE, true, 0, 0, (byte) 4, 1024);
        TextMessageUtil.writeBodyText(core.getBodyBuffer(), SimpleString.of(text));
        core.putStringProperty("customer", "kept");
        ActiveMQTextMessage m = new ActiveMQTextMessage(core, null) {
            @Override
            public String getText() {
                getTextCalls.incrementAndGet();
                return super.getText();
            }
        };
        m.setJMSReplyTo(ActiveMQDestination.createQueue("REQUESTER.REPLIES"));
        m.doBeforeReceive();
        return m;
    }

    private static ActiveMQBytesMessage receivedBytes(int length) throws Exception {
        ClientMessageImpl core = new ClientMessageImpl(ActiveMQBytesMessage.TYPE, true, 0, 0, (byte) 4, 1024);
        core.getBodyBuffer().writeBytes(new byte[length]);
        ActiveMQBytesMessage m = (ActiveMQBytesMessage) org.apache.activemq.artemis.jms.client.ActiveMQMessage
                .createMessage(core, null);
        m.doBeforeReceive();
        return m;
    }

    @Test
    void artemisSaysTheSizeOfTextAndBytesWithoutDecoding() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        assertThat(MessageSizes.minimumBodyBytes(receivedText("x".repeat(5000), calls))).isEqualTo(5000);
        assertThat(MessageSizes.minimumBodyBytes(receivedText("中".repeat(100), calls)))
                .as("a character is at least one UTF-8 byte").isEqualTo(100);
        assertThat(MessageSizes.minimumBodyBytes(receivedBytes(777))).isEqualTo(777);
        assertThat(calls).hasValue(0);
    }

    @Test
    void anOversizedTextMessageIsRejectedWithoutReadingItsText() throws Exception {
        AtomicInteger getText = new AtomicInteger();
        FakeSession session = new FakeSession();
        List<Integer> rejected = new ArrayList<>();
        AgentListener listener = new AgentListener() {
            @Override
            public void requestRejected(String agent, String requestId, int resultCode, String reason) {
                rejected.add(resultCode);
            }
        };
        CommandIntake intake = new CommandIntake("AGENT1", MessagingProvider.ARTEMIS, (d, c) -> {
            throw new AssertionError("an oversized message reaches no handler");
        }, listener, LIMIT, org.openmft.agent.authority.AuthorityCheck.NONE,
                new org.openmft.agent.messaging.Routing(MessagingProvider.ARTEMIS, "QM1"));

        Runnable after = intake.accept(session.proxy, receivedText("y".repeat(LIMIT + 1), getText));

        assertThat(after).isNull();
        assertThat(getText).as("the text is not decoded").hasValue(0);
        assertThat(rejected).containsExactly(ResultCode.MALFORMED_XML.code());
        Sent reject = session.sent.get(0);
        assertThat(reject.queue()).isEqualTo(QueueNames.rejected("AGENT1"));
        assertThat(reject.bodyBytes()).as("the body is not kept").isZero();
        assertThat(reject.properties()).containsEntry("customer", "kept")
                .containsEntry(CommandIntake.REJECT_RESULT_PROPERTY, 43);
        assertThat((String) reject.properties().get(CommandIntake.REJECT_REASON_PROPERTY))
                .contains("at least " + (LIMIT + 1) + " bytes", "limit of " + LIMIT + " bytes");
        Sent reply = session.sent.get(1);
        assertThat(reply.queue()).isEqualTo("REQUESTER.REPLIES");
        assertThat(reply.text()).contains("<status resultCode=\"43\"");
    }

    @Test
    void anOversizedBytesMessageIsRejectedToo() throws Exception {
        FakeSession session = new FakeSession();
        CommandIntake intake = new CommandIntake("AGENT1", MessagingProvider.ARTEMIS, (d, c) -> {
            throw new AssertionError("an oversized message reaches no handler");
        }, AgentListener.NONE, LIMIT, org.openmft.agent.authority.AuthorityCheck.NONE,
                new org.openmft.agent.messaging.Routing(MessagingProvider.ARTEMIS, "QM1"));

        intake.accept(session.proxy, receivedBytes(LIMIT + 1));

        assertThat(session.sent).hasSize(1);
        assertThat(session.sent.get(0).bodyBytes()).isZero();
        assertThat((String) session.sent.get(0).properties().get(CommandIntake.REJECT_REASON_PROPERTY))
                .contains((LIMIT + 1) + " bytes");
    }

    @Test
    void textThatOutgrowsTheLimitAsUtf8IsRejectedWithoutItsBody() throws Exception {
        FakeSession session = new FakeSession();
        CommandIntake intake = new CommandIntake("AGENT1", MessagingProvider.ARTEMIS, (d, c) -> {
            throw new AssertionError("an oversized message reaches no handler");
        }, AgentListener.NONE, LIMIT, org.openmft.agent.authority.AuthorityCheck.NONE,
                new org.openmft.agent.messaging.Routing(MessagingProvider.ARTEMIS, "QM1"));

        // 600 characters, 1800 bytes as UTF-8.
        intake.accept(session.proxy, receivedText("中".repeat(600), new AtomicInteger()));

        assertThat(session.sent.get(0).bodyBytes()).isZero();
        assertThat((String) session.sent.get(0).properties().get(CommandIntake.REJECT_REASON_PROPERTY))
                .contains("1800 bytes as UTF-8");
    }

    /** What was sent, and where. */
    record Sent(String queue, int bodyBytes, String text, Map<String, Object> properties) {
    }

    /** A session that creates recording messages and producers; nothing else is needed by the reject path. */
    static final class FakeSession {
        final List<Sent> sent = new ArrayList<>();
        final Session proxy = (Session) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {Session.class}, (p, method, args) -> switch (method.getName()) {
                    case "createBytesMessage" -> message(BytesMessage.class);
                    case "createTextMessage" -> message(TextMessage.class, (String) args[0]);
                    case "createQueue" -> ActiveMQDestination.createQueue((String) args[0]);
                    case "createProducer" -> producer((Destination) args[0]);
                    default -> throw new UnsupportedOperationException(method.getName());
                });

        private Object message(Class<?> type, String... text) {
            Map<String, Object> properties = new HashMap<>();
            int[] bytes = {0};
            return Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {type, Recorded.class},
                    (p, method, args) -> switch (method.getName()) {
                        case "writeBytes" -> {
                            bytes[0] += ((byte[]) args[0]).length;
                            yield null;
                        }
                        case "setStringProperty", "setIntProperty", "setObjectProperty" -> {
                            properties.put((String) args[0], args[1]);
                            yield null;
                        }
                        case "setJMSCorrelationID" -> null;
                        case "recorded" -> new Sent(null, bytes[0], text.length == 0 ? null : text[0], properties);
                        default -> throw new UnsupportedOperationException(method.getName());
                    });
        }

        private Object producer(Destination to) {
            return Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {MessageProducer.class},
                    (p, method, args) -> switch (method.getName()) {
                        case "send" -> {
                            Sent s = (Sent) ((Recorded) args[0]).recorded();
                            sent.add(new Sent(((jakarta.jms.Queue) to).getQueueName(), s.bodyBytes(), s.text(),
                                    s.properties()));
                            yield null;
                        }
                        case "close" -> null;
                        default -> throw new UnsupportedOperationException(method.getName());
                    });
        }
    }

    /** Lets the fake producer read what a fake message recorded. */
    public interface Recorded {
        /** @return the {@link Sent} (as Object: a proxy cannot name a type private to the test) */
        Object recorded();
    }
}
