package org.openmft.bench;

import org.openmft.bench.measure.ThreadCpuSampler;
import org.openmft.bench.scenarios.protection.ProtectionSuite;
import org.openmft.bench.scenarios.soak.SoakScenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

class BenchmarkRunnerTest {
    @Test
    void defaultsWriteTheCommittedReport() {
        BenchmarkRunner.Options o = BenchmarkRunner.parse(new String[0]);
        assertThat(o.scale()).isEqualTo(Scale.FULL);
        assertThat(o.report()).isEqualTo(Path.of("docs", "performance.md"));
        assertThat(o.agentProperties()).containsEntry("agentChunkSize", "262144").hasSize(1);
    }

    @Test
    void theGoalsFiguresLiveBesideTheirReportNotUnderTarget() {
        assertThat(BenchmarkRunner.headlineFile(Path.of("docs", "performance.md"), "full"))
                .isEqualTo(Path.of("docs", "performance-headline-full.json"));
        Path quick = BenchmarkRunner.parse(new String[] {"--quick"}).report();
        assertThat(BenchmarkRunner.headlineFile(quick, "quick"))
                .isEqualTo(quick.resolveSibling("performance-quick-headline-quick.json"));
    }

    @Test
    void quickDoesNotOverwriteTheCommittedReport() {
        BenchmarkRunner.Options o = BenchmarkRunner.parse(new String[] {"--quick", "--repetitions", "2"});
        assertThat(o.scale().name()).isEqualTo("quick");
        assertThat(o.scale().repetitions()).isEqualTo(2);
        assertThat(o.report()).isEqualTo(Path.of("benchmarks", "target", "results", "performance-quick.md"));
    }

    @Test
    void agentPropertiesPassThroughButTheChunkSizeIsFixed() {
        assertThat(BenchmarkRunner.parse(new String[] {"--agent", "agentWindowSize=50"}).agentProperties())
                .containsEntry("agentWindowSize", "50");
        assertThatThrownBy(() -> BenchmarkRunner.parse(new String[] {"--agent", "agentChunkSize=65536"}))
                .hasMessageContaining("fixed");
        assertThatThrownBy(() -> BenchmarkRunner.parse(new String[] {"--agent", "novalue"}))
                .hasMessageContaining("KEY=VALUE");
        assertThatThrownBy(() -> BenchmarkRunner.parse(new String[] {"--bogus"})).hasMessageContaining("--bogus");
        assertThat(BenchmarkRunner.parse(new String[] {"--help"})).isNull();
    }

    @Test
    void freePageReportingIsHeldOnlyWhenAskedFor() {
        assertThat(BenchmarkRunner.parse(new String[0]).holdPageReporting()).isFalse();
        assertThat(BenchmarkRunner.parse(new String[] {"--scenario", "transfer", "--hold-page-reporting"})
                .holdPageReporting()).isTrue();
    }

    @Test
    void theCoordinationScenarioRunsAloneOrWithTheOthers() {
        assertThat(BenchmarkRunner.parse(new String[0]).which()).isEqualTo(BenchmarkRunner.Which.ALL);
        BenchmarkRunner.Options o = BenchmarkRunner.parse(new String[] {"--scenario", "coordination",
            "--coordination-agents", "200"});
        assertThat(o.which()).isEqualTo(BenchmarkRunner.Which.COORDINATION);
        assertThat(o.coordinationAgents()).isEqualTo(200);
        assertThatThrownBy(() -> BenchmarkRunner.parse(new String[] {"--scenario", "x"}))
                .hasMessageContaining("--scenario");
        assertThatThrownBy(() -> BenchmarkRunner.parse(new String[] {"--coordination-agents", "3"}))
                .hasMessageContaining("even");
    }

    @Test
    void aSectionRunsAloneByItsNameOrWithEveryOther() {
        BenchmarkRunner.Options o = BenchmarkRunner.parse(new String[] {"--scenario", "seed003", "--repetitions", "2"});
        assertThat(o.which()).isEqualTo(BenchmarkRunner.Which.SECTION);
        assertThat(o.section()).isEqualTo("seed003");
        assertThat(o.repetitions()).isEqualTo(2);
        assertThat(o.which().transfer()).isFalse();
        assertThat(o.which().coordination()).isFalse();
        Section seed003 = Sections.named("seed003").orElseThrow();
        Section micro = Sections.named("micro").orElseThrow();
        assertThat(o.which().runs(seed003, o.section())).isTrue();
        assertThat(o.which().runs(micro, o.section())).isFalse();
        assertThat(BenchmarkRunner.Which.ALL.runs(micro, null)).isTrue();
        assertThat(BenchmarkRunner.Which.SOAK.runs(micro, null)).isFalse();
        assertThat(Sections.all()).extracting(Section::name).containsExactly("seed000", "seed000-channels", "latency",
                "seed002", "channel-options", "seed003", "protection", "compression", "micro", "queueio", "monitor", "memory");
        assertThatThrownBy(() -> BenchmarkRunner.parse(new String[] {"--scenario", "section"}))
                .hasMessageContaining("all, transfer, coordination (seed001), file-shapes (seed000),"
                        + " file-shapes-channels (seed000-channels), latency, chunk-sizes (seed002), channel-options,"
                        + " file-sizes (seed003), protection, compression, micro, queueio, monitor, memory or soak");
        // The names that say what a section measures, and IBM's report numbers that users' scripts use.
        for (String[] names : new String[][] {{"file-shapes", "seed000"}, {"file-shapes-channels", "seed000-channels"},
                {"chunk-sizes", "seed002"}, {"file-sizes", "seed003"}}) {
            for (String name : names) {
                assertThat(BenchmarkRunner.parse(new String[] {"--scenario", name}).section()).isEqualTo(names[1]);
            }
        }
        assertThat(BenchmarkRunner.parse(new String[] {"--scenario", "seed001"}).which())
                .isEqualTo(BenchmarkRunner.Which.COORDINATION);
        assertThat(BenchmarkRunner.parse(new String[] {"--scenario", "latency", "--quick"}).section())
                .isEqualTo("latency");
        assertThat(BenchmarkRunner.imagesDir(Path.of("docs", "performance.md")))
                .isEqualTo(Path.of("docs", "img").toAbsolutePath());
    }

    @Test
    void theProtectionScenarioRunsAloneQuickOrWithEveryOther() {
        BenchmarkRunner.Options o = BenchmarkRunner.parse(new String[] {"--scenario", "protection", "--quick"});
        assertThat(o.which()).isEqualTo(BenchmarkRunner.Which.SECTION);
        assertThat(o.section()).isEqualTo("protection");
        assertThat(o.scale()).isEqualTo(Scale.QUICK);
        assertThat(o.which().transfer()).isFalse();
        Section protection = Sections.named("protection").orElseThrow();
        assertThat(protection).isInstanceOf(ProtectionSuite.class);
        assertThat(o.which().runs(protection, o.section())).isTrue();
        assertThat(o.which().runs(Sections.named("seed003").orElseThrow(), o.section())).isFalse();
        assertThat(BenchmarkRunner.Which.ALL.runs(protection, null)).isTrue();
        assertThat(BenchmarkRunner.usage()).contains("protection");
    }

    @Test
    void theSoakRunsAloneWithItsSeed() {
        BenchmarkRunner.Options o = BenchmarkRunner.parse(new String[] {"--scenario", "soak", "--quick", "--seed", "7"});
        assertThat(o.which()).isEqualTo(BenchmarkRunner.Which.SOAK);
        assertThat(o.which().soak()).isTrue();
        assertThat(o.which().transfer()).isFalse();
        assertThat(o.which().coordination()).isFalse();
        assertThat(o.seed()).isEqualTo(7);
        assertThat(BenchmarkRunner.Which.ALL.soak()).as("the soak is not part of every run").isFalse();
        assertThatThrownBy(() -> BenchmarkRunner.parse(new String[] {"--seed", "x"})).hasMessageContaining("--seed");
    }

    @Test
    void withoutASeedCiRunsTheFixedOne() {
        assertThat(SoakScenario.defaultSeed(java.util.Map.of("CI", "true"))).isEqualTo(SoakScenario.CI_SEED);
        assertThat(SoakScenario.defaultSeed(java.util.Map.of("CI", "1"))).isEqualTo(SoakScenario.CI_SEED);
        if (System.getenv("CI") != null && !System.getenv("CI").isBlank() && !"false".equalsIgnoreCase(System.getenv("CI"))) {
            assertThat(BenchmarkRunner.parse(new String[] {"--scenario", "soak"}).seed()).isEqualTo(SoakScenario.CI_SEED);
        }
    }

    @Test
    void threadNamesAreGrouped() {
        assertThat(ThreadCpuSampler.group("openmft-SRCB-transfer-0c2430a")).isEqualTo("openmft-SRCB-transfer");
        assertThat(ThreadCpuSampler.group("Thread-5 (activemq-q-m-b-e-n-c-h)")).isEqualTo("Artemis server executor");
        assertThat(ThreadCpuSampler.group(
                "Thread-8 (activemq-org.apache.activemq.artemis.core.remoting.impl.invm.-in-v-m-connector)"))
                .isEqualTo("Artemis in-VM connector");
        assertThat(ThreadCpuSampler.group("GC Thread#3")).isEqualTo("GC Thread");
    }
}
