package org.openmft.xml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class QueueDestinationXmlTest {
    private final RequestParser parser = new RequestParser();

    private TransferItem item(String destination) throws MalformedRequestException {
        TransferRequest r = (TransferRequest) parser.parse(Documents.item("", Documents.SOURCE, destination));
        return r.transferSet().items().get(0);
    }

    @Test
    void aQueueDestinationIsReadWithIbmsAttributesAndWrittenBackUnchanged() throws Exception {
        TransferItem item = item("<destination type=\"queue\" exist=\"error\"><queue persistent=\"false\""
                + " setMqProps=\"true\" delimiter=\"\\r?\\n\" delimiterType=\"text\" delimiterPosition=\"postfix\""
                + " includeDelimiterInMessage=\"true\" encoding=\"UTF-8\">PAYMENTS@QM2</queue></destination>");
        QueueDestination q = item.destination().queue();
        assertThat(q.queue()).isEqualTo("PAYMENTS");
        assertThat(q.qmgr()).isEqualTo("QM2");
        assertThat(q.persistence()).isEqualTo("false");
        assertThat(q.setMqProps()).isTrue();
        assertThat(q.delimiter()).isEqualTo("\\r?\\n");
        assertThat(q.includeDelimiter()).isTrue();
        assertThat(item.destination().path()).isEqualTo("PAYMENTS@QM2");
        assertThat(item.destination().encoding()).isEqualTo("UTF-8");

        TransferRequest r = (TransferRequest) parser.parse(Documents.item("", Documents.SOURCE,
                "<destination><queue messageLength=\"1024\">Q</queue></destination>"));
        String written = new DocumentWriter().write(r);
        assertThat(written).contains("<queue persistent=\"true\" messageLength=\"1024\">Q</queue>");
        assertThat(parser.parse(written)).isEqualTo(r);
    }

    @Test
    void aWildcardMayGoToAQueue() throws Exception {
        TransferRequest r = (TransferRequest) parser.parse(Documents.item("", "<source><file>/in/*.csv</file></source>",
                "<destination><queue>Q</queue></destination>"));
        assertThat(r.transferSet().items().get(0).destination().queue().spec()).isEqualTo("Q");
    }

    @Test
    void badQueueAttributesAreRefusedNamingThem() {
        assertThatThrownBy(() -> item("<destination><queue persistent=\"maybe\">Q</queue></destination>"))
                .isInstanceOf(MalformedRequestException.class).hasMessageContaining("persistent=\"maybe\"");
        assertThatThrownBy(() -> item("<destination><queue delimiter=\"zz\" delimiterType=\"binary\">Q</queue>"
                + "</destination>")).hasMessageContaining("not hex bytes");
        assertThatThrownBy(() -> item("<destination><queue delimiter=\"(\" delimiterType=\"text\">Q</queue>"
                + "</destination>")).hasMessageContaining("regular expression");
        assertThatThrownBy(() -> item("<destination><queue messageLength=\"10\" delimiter=\"0A\">Q</queue>"
                + "</destination>")).hasMessageContaining("cannot both split");
        assertThatThrownBy(() -> item("<destination><queue colour=\"red\">Q</queue></destination>"))
                .hasMessageContaining("colour");
        assertThatThrownBy(() -> item("<destination><queue>Q@</queue></destination>"))
                .hasMessageContaining("nothing after @");
        assertThatThrownBy(() -> item("<destination type=\"directory\"><queue>Q</queue></destination>"))
                .hasMessageContaining("does not go with a <queue>");
        assertThatThrownBy(() -> QueueDestination.parseSize("12X")).hasMessageContaining("not a size");
        assertThat(QueueDestination.parseSize("1K")).isEqualTo(1024);
        assertThat(QueueDestination.parseSize("2m")).isEqualTo(2L << 20);
    }
}
