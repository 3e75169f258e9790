package org.openmft.bench.scenarios.soak;

import org.openmft.bench.Section;
import org.openmft.bench.measure.MachineInfo;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reports are committed (docs/performance.md): what they say of the machine is its cores, CPU,
 * memory, OS, JVM and file system, never where the run lay (work directory, temporary files, the
 * paths of its JVM options).
 */
class ReportPathsTest {
    @TempDir
    Path work;

    private Map<String, String> machine() {
        return MachineInfo.describe(work, List.of("-Xmx1g", "-Djava.io.tmpdir=" + work.resolve("tmp"),
                "-javaagent:" + work.resolve("agent.jar") + "=x", "-Xlog:gc:file=" + work.resolve("gc.log")));
    }

    @Test
    void theMachineDescriptionNamesNoPathOfTheRun() {
        Map<String, String> m = machine();
        assertThat(m.values()).allSatisfy(v -> assertThat(v).doesNotContain(work.toString()));
        assertThat(m.get("JVM options")).isEqualTo("-Xmx1g -Djava.io.tmpdir=<path> -javaagent:<path>"
                + " -Xlog:gc:file=<path>");
        assertThat(m.get("work directory")).as("file system and free space, and a missing journal's cost")
                .matches("\\S+, \\d+\\.\\d GiB free(; no journal: .+)?");
    }

    @Test
    void aSectionsRunTableNamesNoPathOfTheRun() {
        Section.Context c = new Section.Context(true, null, work.resolve("w"), work.resolve("results"),
                work.resolve("img"), "img", machine(), "abc1234", Map.of(), false, line -> { });
        String table = c.runTable(Instant.parse("2026-01-01T00:00:00Z"), Instant.parse("2026-01-01T00:05:00Z"),
                "quick");
        assertThat(table).contains("| disk | ", "GiB free").doesNotContain(work.toString());
        assertThat(absolutePaths(table)).isEmpty();
    }

    @Test
    void theSoakSectionNamesNoPathOfTheRun() {
        SoakResult r = new SoakResult(SoakScenario.Settings.quick(7));
        r.started = Instant.parse("2026-01-01T00:00:00Z");
        r.machine = machine();
        String md = new SoakReport(r).markdown();
        assertThat(md).contains("seed 7").doesNotContain(work.toString());
        assertThat(absolutePaths(md)).isEmpty();
    }

    /** Tokens that begin with '/' after a space, a backtick, '(' or '=': what an absolute path looks like. */
    static List<String> absolutePaths(String markdown) {
        return java.util.regex.Pattern.compile("(?:^|[\\s`(=])(/[A-Za-z][^\\s`)|]*)", java.util.regex.Pattern.MULTILINE)
                .matcher(markdown).results().map(m -> m.group(1)).toList();
    }
}
