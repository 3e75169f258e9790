package org.openmft.xml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class QueueSourceXmlTest {
    private final RequestParser parser = new RequestParser();
    private static final String FILE = "<destination type=\"file\" exist=\"error\"><file>/in/out.dat</file></destination>";

    private TransferItem item(String source, String destination) throws MalformedRequestException {
        TransferRequest r = (TransferRequest) parser.parse(Documents.item("", source, destination));
        return r.transferSet().items().get(0);
    }

    @Test
    void aQueueSourceAsIbmWritesItIsReadAndWrittenBackUnchanged() throws Exception {
        // The shape of IBM's queue monitor examples and of fteCreateTransfer -sq -gt.
        TransferItem item = item("<source disposition=\"leave\" type=\"queue\"><queue useGroups=\"true\""
                + " groupId=\"${GROUPID}\" waitTime=\"30\" delimiter=\"\\n\" delimiterType=\"text\""
                + " delimiterPosition=\"prefix\">START_QUEUE@QM1</queue></source>", FILE);
        QueueSource q = item.source().queue();
        assertThat(q.queue()).isEqualTo("START_QUEUE");
        assertThat(q.qmgr()).isEqualTo("QM1");
        assertThat(q.useGroups()).isTrue();
        assertThat(q.groupId()).isEqualTo("${GROUPID}");
        assertThat(q.waitTimeSeconds()).isEqualTo(30);
        assertThat(q.delimiterPosition()).isEqualTo("prefix");
        assertThat(q.delimiterBytes(StandardCharsets.UTF_8)).containsExactly('\n');
        assertThat(item.source().path()).isEqualTo("START_QUEUE@QM1");
        assertThat(item.source().hasWildcard()).isFalse();

        TransferRequest r = (TransferRequest) parser.parse(Documents.item("",
                "<source type=\"queue\"><queue delimiter=\"x0D0A\" delimiterType=\"binary\">IN.Q</queue></source>",
                FILE));
        String written = new DocumentWriter().write(r);
        assertThat(written).contains("<source type=\"queue\" disposition=\"leave\"><queue useGroups=\"false\""
                + " delimiter=\"x0D0A\" delimiterType=\"binary\" delimiterPosition=\"postfix\">IN.Q</queue></source>");
        assertThat(parser.parse(written)).isEqualTo(r);
        assertThat(r.transferSet().items().get(0).source().queue().delimiterBytes(StandardCharsets.UTF_8))
                .containsExactly(0x0D, 0x0A);
    }

    @Test
    void aPlainQueueSourceWaitsForNothingAndHasNoDelimiter() throws Exception {
        QueueSource q = item("<source type=\"queue\"><queue>IN.Q</queue></source>", FILE).source().queue();
        assertThat(q.waitTimeSeconds()).isEqualTo(-1);
        assertThat(q.useGroups()).isFalse();
        assertThat(q.delimiterBytes(StandardCharsets.UTF_8)).isNull();
        assertThat(q.attributes()).containsOnlyKeys("useGroups");
    }

    @Test
    void textDelimitersTakeJavaEscapes() {
        QueueSource q = QueueSource.of("Q", java.util.Map.of("delimiter", "\\u007d\\n", "delimiterType", "text"));
        assertThat(new String(q.delimiterBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8)).isEqualTo("}\n");
        assertThatThrownBy(() -> QueueSource.of("Q", java.util.Map.of("delimiter", "\\q")))
                .hasMessageContaining("not a Java escape");
        assertThatThrownBy(() -> QueueSource.of("Q", java.util.Map.of("delimiter", "\\u00")))
                .hasMessageContaining("incomplete");
    }

    @Test
    void badQueueSourcesAreRefusedNamingWhatIsWrong() {
        String q = "<source type=\"queue\"><queue %s>IN.Q</queue></source>";
        assertThatThrownBy(() -> item(q.formatted("useGroups=\"maybe\""), FILE))
                .isInstanceOf(MalformedRequestException.class).hasMessageContaining("useGroups=\"maybe\"");
        assertThatThrownBy(() -> item(q.formatted("waitTime=\"soon\""), FILE)).hasMessageContaining("waitTime");
        assertThatThrownBy(() -> item(q.formatted("waitTime=\"-3\""), FILE)).hasMessageContaining("negative");
        assertThatThrownBy(() -> item(q.formatted("delimiter=\"zz\" delimiterType=\"binary\""), FILE))
                .hasMessageContaining("not hex bytes");
        assertThatThrownBy(() -> item(q.formatted("delimiterPosition=\"middle\" delimiter=\"a\""), FILE))
                .hasMessageContaining("delimiterPosition");
        assertThatThrownBy(() -> item(q.formatted("colour=\"red\""), FILE)).hasMessageContaining("colour");
        assertThatThrownBy(() -> item("<source type=\"queue\"><file>/a</file></source>", FILE))
                .hasMessageContaining("needs a <queue>");
        assertThatThrownBy(() -> item("<source type=\"file\"><queue>Q</queue></source>", FILE))
                .hasMessageContaining("does not go with a <queue>");
        assertThatThrownBy(() -> item("<source type=\"queue\" recursive=\"true\"><queue>Q</queue></source>", FILE))
                .hasMessageContaining("recursive");
        assertThatThrownBy(() -> item("<source type=\"queue\"><queue>Q</queue></source>",
                "<destination type=\"directory\"><file>/in</file></destination>"))
                .hasMessageContaining("destination type must be file");
        assertThatThrownBy(() -> item("<source type=\"queue\"><queue>Q</queue></source>",
                "<destination><queue>OUT</queue></destination>")).hasMessageContaining("result 64");
    }
}
