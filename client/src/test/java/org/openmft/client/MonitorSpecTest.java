package org.openmft.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/** The monitor builder checks everything and names what is wrong; a built monitor reads back from its XML. */
class MonitorSpecTest {
    private static MonitorSpec.Builder valid() throws MftClientException {
        return MonitorSpec.builder().agent("agent1").name("drop").directory("/srv/in")
                .task(TransferSpec.builder().sourceAgent("AGENT1").destinationAgent("AGENT2")
                        .file("${FilePath}", "/in/${FileName}").build());
    }

    @Test
    void aBuiltMonitorIsIbmsDocumentAndReadsBack() throws Exception {
        MonitorSpec spec = valid().trigger("noSizeChange=2,*.csv").exclude("*.tmp").pollInterval(Duration.ofHours(2))
                .batchSize(5).recursionLevel(1).jobName("NIGHTLY").replace(true).build();
        assertThat(spec.agent()).isEqualTo("AGENT1");
        assertThat(spec.name()).isEqualTo("DROP");
        String xml = spec.toXml();
        assertThat(xml).contains("<pollInterval units=\"hours\">2</pollInterval>", "<fileSizeSame polls=\"2\">",
                "*.tmp", "<batch maxSize=\"5\"/>", "${FilePath}", "NIGHTLY", "overwrite=\"true\"",
                "clearHistory=\"true\"");
        assertThat(MonitorSpec.fromXml(xml).toXml()).isEqualTo(xml);
        assertThat(valid().pollInterval(Duration.ofSeconds(90)).build().toXml())
                .contains("<pollInterval units=\"seconds\">90</pollInterval>");
        assertThat(valid().build().toXml()).as("fteCreateMonitor's defaults")
                .contains("<pollInterval units=\"minutes\">1</pollInterval>", "<pattern>*</pattern>");
    }

    @Test
    void whatIsWrongIsNamed() {
        assertThatThrownBy(() -> valid().agent(null).build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("agent is required");
        assertThatThrownBy(() -> valid().agent("BAD NAME").build()).hasMessageStartingWith("agent: ");
        assertThatThrownBy(() -> valid().name("A*").build()).hasMessageContaining("'*'");
        assertThatThrownBy(() -> valid().trigger("sometimes,*").build()).hasMessageContaining("-tr sometimes,*");
        assertThatThrownBy(() -> valid().pollInterval(Duration.ofMillis(1500)).build())
                .hasMessageContaining("whole number of seconds");
        assertThatThrownBy(() -> valid().task("<notARequest/>").build()).isInstanceOfSatisfying(
                MftClientException.class, e -> assertThat(e.code()).isEqualTo(1)).hasMessageContaining("BFGCL0003E");
        assertThatThrownBy(() -> MonitorSpec.fromXml(TransferSpec.builder().sourceAgent("A").destinationAgent("B")
                .file("/a", "/b").build().toXml())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a monitor definition");
    }
}
