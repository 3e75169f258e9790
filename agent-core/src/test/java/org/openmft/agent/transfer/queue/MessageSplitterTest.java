package org.openmft.agent.transfer.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.openmft.xml.QueueDestination;

class MessageSplitterTest {

    private static List<String> split(String data, Map<String, String> attributes, int max, int maxMatch)
            throws Exception {
        QueueDestination rule = QueueDestination.of("Q", attributes);
        List<String> out = new ArrayList<>();
        List<Boolean> lasts = new ArrayList<>();
        byte[] bytes = data.getBytes(StandardCharsets.UTF_8);
        int n = new MessageSplitter(rule, StandardCharsets.UTF_8, max, maxMatch).split(
                new ByteArrayInputStream(bytes), bytes.length, (b, len, index, last) -> {
                    assertThat(index).isEqualTo(out.size());
                    out.add(new String(b, 0, len, StandardCharsets.UTF_8));
                    lasts.add(last);
                });
        assertThat(n).isEqualTo(out.size());
        // Exactly the last one says it is the last.
        for (int i = 0; i < lasts.size(); i++) {
            assertThat(lasts.get(i)).isEqualTo(i == lasts.size() - 1);
        }
        return out;
    }

    private static List<String> split(String data, Map<String, String> attributes) throws Exception {
        return split(data, attributes, 1 << 20, 5);
    }

    @Test
    void withoutARuleTheFileIsOneMessageAndAnEmptyFileOneEmptyMessage() throws Exception {
        assertThat(split("abc", Map.of())).containsExactly("abc");
        assertThat(split("", Map.of())).containsExactly("");
    }

    @Test
    void aFileLongerThanTheLargestMessageFailsUnlessSplit() {
        assertThatThrownBy(() -> split("abcdef", Map.of(), 4, 5))
                .isInstanceOf(MessageSplitter.TooLongException.class).hasMessageContaining("maxInputOutputMessageLength");
    }

    @Test
    void aSmallFileIsHandedOverInABufferOfItsSizeNotTheLargestMessages() throws Exception {
        // maxInputOutputMessageLength of 20 MB must not cost 20 MB per 3-byte file.
        List<Integer> buffers = new ArrayList<>();
        QueueDestination whole = QueueDestination.of("Q", Map.of());
        new MessageSplitter(whole, StandardCharsets.UTF_8, 20 << 20, 5).split(new ByteArrayInputStream(
                new byte[] {1, 2, 3}), 3, (b, len, index, last) -> buffers.add(b.length));
        QueueDestination bySize = QueueDestination.of("Q", Map.of("messageLength", "1000000"));
        new MessageSplitter(bySize, StandardCharsets.UTF_8, 20 << 20, 5).split(new ByteArrayInputStream(
                new byte[10]), 10, (b, len, index, last) -> buffers.add(b.length));
        assertThat(buffers).containsExactly(3, 10);
    }

    @Test
    void aFileWhoseBytesAreNotItsSizeFails() {
        QueueDestination whole = QueueDestination.of("Q", Map.of());
        MessageSplitter splitter = new MessageSplitter(whole, StandardCharsets.UTF_8, 1 << 20, 5);
        assertThatThrownBy(() -> splitter.split(new ByteArrayInputStream(new byte[2]), 3, (b, len, i, last) -> { }))
                .isInstanceOf(java.io.IOException.class).hasMessageContaining("ended");
        assertThatThrownBy(() -> splitter.split(new ByteArrayInputStream(new byte[4]), 3, (b, len, i, last) -> { }))
                .isInstanceOf(java.io.IOException.class).hasMessageContaining("longer");
    }

    @Test
    void fixedLengthGivesFullMessagesAndARemainder() throws Exception {
        assertThat(split("abcdefg", Map.of("messageLength", "3"))).containsExactly("abc", "def", "g");
        assertThat(split("abcdef", Map.of("messageLength", "3"))).containsExactly("abc", "def");
        assertThatThrownBy(() -> split("abcdef", Map.of("messageLength", "8"), 4, 5))
                .isInstanceOf(MessageSplitter.TooLongException.class).hasMessageContaining("-qs");
    }

    @Test
    void aBinaryPostfixDelimiterEndsEachMessageAndIsDroppedUnlessIncluded() throws Exception {
        Map<String, String> crlf = Map.of("delimiter", "0D0A", "delimiterType", "binary");
        assertThat(split("a\r\nbb\r\nc", crlf)).containsExactly("a", "bb", "c");
        assertThat(split("a\r\nbb\r\n", crlf)).containsExactly("a", "bb");
        assertThat(split("a\r\nbb\r\n", Map.of("delimiter", "0x0D,0x0A", "delimiterType", "binary",
                "includeDelimiterInMessage", "true"))).containsExactly("a\r\n", "bb\r\n");
    }

    @Test
    void aPrefixDelimiterStartsEachMessage() throws Exception {
        Map<String, String> hash = Map.of("delimiter", "23", "delimiterType", "binary", "delimiterPosition", "prefix");
        assertThat(split("#a#bb", hash)).containsExactly("a", "bb");
        assertThat(split("x#a", hash)).containsExactly("x", "a");
        assertThat(split("#a#bb", Map.of("delimiter", "23", "delimiterType", "binary", "delimiterPosition", "prefix",
                "includeDelimiterInMessage", "true"))).containsExactly("#a", "#bb");
    }

    @Test
    void aTextDelimiterIsARegularExpressionAcrossReadBoundaries() throws Exception {
        StringBuilder big = new StringBuilder();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            String record = "record-" + i;
            big.append(record).append(i % 2 == 0 ? "\n" : "\r\n");
            expected.add(record);
        }
        assertThat(split(big.toString(), Map.of("delimiter", "\\r?\\n", "delimiterType", "text")))
                .containsExactlyElementsOf(expected);
    }

    @Test
    void aDelimiterMatchLongerThanAllowedFailsTheFile() {
        assertThatThrownBy(() -> split("a;;;;;;;;b", Map.of("delimiter", ";+", "delimiterType", "text"), 100, 3))
                .isInstanceOf(MessageSplitter.TooLongException.class).hasMessageContaining("maxDelimiterMatchLength");
    }

    @Test
    void aMessageBetweenDelimitersLongerThanTheLargestMessageFails() {
        assertThatThrownBy(() -> split("aaaaaaaaaa,b", Map.of("delimiter", "2C", "delimiterType", "binary"), 4, 5))
                .isInstanceOf(MessageSplitter.TooLongException.class);
    }

    @Test
    void theWireFormKeepsEveryOption() {
        QueueDestination d = QueueDestination.of("PAY@QM2", Map.of("persistent", "qdef", "setMqProps", "true",
                "delimiter", "a&b=c", "delimiterType", "text", "delimiterPosition", "prefix",
                "includeDelimiterInMessage", "true"));
        QueueOptions back = QueueOptions.decode(new QueueOptions(d, "IBM-1047", 1234L).encode());
        assertThat(back).isEqualTo(new QueueOptions(d, "IBM-1047", 1234L));
    }

    @Test
    void agentsOwnQueuesAreRefused() {
        assertThat(QueueWriter.refusal("SYSTEM.FTE.DATA.AGENT2")).contains("BFGTR0076E");
        assertThat(QueueWriter.refusal("system.channel.xmit.QM2")).isNotNull();
        assertThat(QueueWriter.refusal("PAYMENTS")).isNull();
        assertThat(QueueWriter.groupId("abc", 1)).startsWith("ID:").hasSize(3 + 48)
                .isEqualTo(QueueWriter.groupId("abc", 1)).isNotEqualTo(QueueWriter.groupId("abc", 2));
    }
}
