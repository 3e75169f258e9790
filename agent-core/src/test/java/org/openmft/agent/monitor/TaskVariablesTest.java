package org.openmft.agent.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openmft.agent.ResultCode;

/** IBM's substitution: names, tokens, batches, refusals. */
class TaskVariablesTest {

    private static final Instant NOW = Instant.parse("2026-11-26T05:37:12.123Z");
    private final TaskVariables windows = new TaskVariables("\\", ZoneOffset.UTC);
    private final TaskVariables unix = new TaskVariables("/", ZoneOffset.ofHours(1));

    private Map<String, String> ibmExample() {
        return windows.metadata(new FileSnapshot("c:\\MONITOR\\REPORTS\\Paris\\Report2009.doc", "Report2009.doc", 7,
                0), "AGENT1", NOW);
    }

    @Test
    void ibmsTokenExamplesGiveIbmsResults() throws Exception {
        Map<String, String> v = ibmExample();
        assertThat(windows.substitute("${FilePath{token=1}{separator=.}}", v)).isEqualTo("c:\\MONITOR\\REPORTS\\Paris\\Report2009");
        assertThat(windows.substitute("${FilePath{token=2}{separator=.}}", v)).isEqualTo("doc");
        assertThat(windows.substitute("${FilePath{token=3}}", v)).isEqualTo("REPORTS");
        assertThat(windows.substitute("${FilePath{token=-2}{separator=\\}}", v)).isEqualTo("Paris");
        assertThat(windows.substitute("${FilePath{token=-4}}", v)).isEqualTo("MONITOR");
    }

    @Test
    void namesAreNotCaseSensitiveAndValuesAreEscaped() throws Exception {
        Map<String, String> v = unix.metadata(new FileSnapshot("/in/a&b<c>.txt", "a&b<c>.txt", 42,
                Instant.parse("2026-01-02T23:30:00Z").toEpochMilli()), "SRC", NOW);
        assertThat(unix.substitute("<file>${filepath}</file> ${FILENAME} ${FileSize} ${agentName}", v))
                .isEqualTo("<file>/in/a&amp;b&lt;c&gt;.txt</file> a&amp;b&lt;c&gt;.txt 42 SRC");
        assertThat(unix.substitute("${LastModifiedDate} ${LastModifiedTime} ${LastModifiedDateUTC} ${LastModifiedTimeUTC}", v))
                .isEqualTo("2026-01-03 00:30:00.000 2026-01-02 23:30:00.000");
        assertThat(unix.substitute("${CurrentTimeStamp} ${CurrentTimeStampUTC}", v))
                .isEqualTo("20261126T063712123 20261126T053712123Z");
    }

    @Test
    void unknownNamesAndBadTokensAreRefusedWithIbmsCodes() {
        Map<String, String> v = ibmExample();
        assertThatThrownBy(() -> windows.substitute("${FileNameWithoutExtension}", v))
                .hasMessageContaining("not a variable of a directory monitor")
                .extracting(e -> ((TaskVariables.TaskException) e).resultCode())
                .isEqualTo(ResultCode.MONITOR_VARIABLE_NOT_FOUND);
        Map<String, String> noFile = windows.metadata(null, "A", NOW);
        assertThatThrownBy(() -> windows.substitute("${FilePath}", noFile)).hasMessageContaining("not provided");
        for (String bad : List.of("${FilePath", "${FilePath{token=9}}", "${FilePath{token=0}}",
                "${FilePath{token=x}}", "${FilePath{separator=.}}", "${FilePath{colour=red}}")) {
            assertThatThrownBy(() -> windows.substitute(bad, v)).as(bad)
                    .extracting(e -> ((TaskVariables.TaskException) e).resultCode())
                    .isEqualTo(ResultCode.MONITOR_VARIABLE_SYNTAX);
        }
    }

    @Test
    void aBatchRepeatsTheItemsThatUseVariables() throws Exception {
        String task = "<request><s>${AgentName}</s><item><f>${FileName}</f></item><item><f>/fixed</f></item></request>";
        List<Map<String, String>> batch = List.of(
                unix.metadata(new FileSnapshot("/in/a", "a", 1, 0), "SRC", NOW),
                unix.metadata(new FileSnapshot("/in/b", "b", 1, 0), "SRC", NOW));
        assertThat(unix.substitute(task, batch)).isEqualTo(
                "<request><s>SRC</s><item><f>a</f></item><item><f>b</f></item><item><f>/fixed</f></item></request>");
    }
}
