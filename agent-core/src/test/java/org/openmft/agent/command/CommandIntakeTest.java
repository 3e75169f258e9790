package org.openmft.agent.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.openmft.xml.DocumentWriter;
import org.openmft.xml.Reply;

/**
 * Reasons for a refusal go into a reply document, a message property and an event as they are; the
 * requester is the user the queue manager put in JMSXUserID.
 */
class CommandIntakeTest {

    /** A message that has only the given JMSXUserID. */
    private static jakarta.jms.Message withUser(String user) {
        return (jakarta.jms.Message) java.lang.reflect.Proxy.newProxyInstance(CommandIntakeTest.class.getClassLoader(),
                new Class<?>[] {jakarta.jms.Message.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getStringProperty")) {
                        return "JMSXUserID".equals(args[0]) ? user : null;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    @Test
    void theRequesterIsTheValidatedUserWithoutIbmMqsPadding() throws Exception {
        assertThat(CommandIntake.validatedUser(withUser("alice"))).isEqualTo("alice");
        assertThat(CommandIntake.validatedUser(withUser("mqm         "))).as("MQMD UserIdentifier, 12 characters")
                .isEqualTo("mqm");
        assertThat(CommandIntake.validatedUser(withUser(null))).isNull();
        assertThat(CommandIntake.validatedUser(withUser("   "))).isNull();
    }

    @Test
    void aReasonKeepsWhatXmlCanCarryAndReplacesTheRest() {
        assertThat(CommandIntake.sendable("line 1: bad é 中文 \uD83D\uDE00\ttab\nnext")).isEqualTo(
                "line 1: bad é 中文 \uD83D\uDE00\ttab\nnext");
        assertThat(CommandIntake.sendable("nul\u0000 bell\u0007 lone\uD800 reversed\uDC00 \uFFFE\uFFFF"))
                .isEqualTo("nul\uFFFD bell\uFFFD lone\uFFFD reversed\uFFFD \uFFFD\uFFFD");
        assertThat(CommandIntake.sendable(null)).isEqualTo("the request was refused");
        assertThat(CommandIntake.sendable(" ")).isEqualTo("the request was refused");
    }

    @Test
    void aLongReasonIsCutButNeverInsideACharacter() {
        String reason = "a".repeat(CommandIntake.MAX_REASON_LENGTH - 1) + "\uD83D\uDE00" + "tail";

        String sent = CommandIntake.sendable(reason);

        assertThat(sent).isEqualTo("a".repeat(CommandIntake.MAX_REASON_LENGTH - 1) + "...");
        assertThat(CommandIntake.sendable("b".repeat(10_000))).hasSize(CommandIntake.MAX_REASON_LENGTH + 3);
        // What it is for: the reply cannot refuse it.
        new Reply(DocumentWriter.VERSION, "ID:1", 43, List.of(sent, CommandIntake.sendable("\uDFFF")), List.of());
    }
}
