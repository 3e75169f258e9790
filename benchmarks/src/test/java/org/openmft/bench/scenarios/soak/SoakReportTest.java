package org.openmft.bench.scenarios.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.openmft.bench.report.CsvTable;

class SoakReportTest {
    @Test
    void theAgentsLogLinesAreSummed() {
        AgentLogTotals t = new AgentLogTotals();
        t.accept("SRC", "11:15:20.430 INFO  SourceTransfer - Transfer abc: 2120822 bytes were sent more than once"
                + " (resends after lost acknowledgements, gaps or restarts)");
        t.accept("SRC", "11:15:21.000 INFO  SourceTransfer - Transfer abd: 100 bytes were sent more than once (...)");
        t.accept("DST", "11:15:20.420 INFO  DestinationTransfer - Transfer abc: 1738300 bytes were received twice"
                + " (duplicates dropped) and 12582912 bytes written before a restart were discarded");
        t.accept("DST", "11:15:19.636 INFO  DestinationTransfer - BFGTR0091I: Transfer abc: resumed as destination at"
                + " chunk 50, item 0 (/out/t00018/0-big-01.bin) at byte 13107200; 9437184 bytes written after the last"
                + " checkpoint are discarded and will be sent again");
        t.accept("SRC", "11:15:08.840 INFO  TransferEngine - Transfer abc: resuming after a restart (4 files to DST)");
        t.accept("SRC", "11:15:07.510 WARN  Agent - BFGAG0183I: Agent SRC lost its connection to queue manager QM: x");
        t.accept("SRC", "11:15:09.068 INFO  TransferEngine - Transfer abc ended with result 0: BFGRP0032I: done.");
        t.accept("SRC", "11:15:10.068 INFO  TransferEngine - Transfer abc ended with result 0: BFGRP0032I: done.");
        t.accept("SRC", "11:22:27.158 ERROR client - AMQ214016: Failed to create netty connection");

        assertThat(t.bytesSentTwice).isEqualTo(2_120_922);
        assertThat(t.bytesReceivedTwice).isEqualTo(1_738_300);
        assertThat(t.bytesDiscardedAtEnd).isEqualTo(12_582_912);
        assertThat(t.destinationResumes).isEqualTo(1);
        assertThat(t.bytesDiscardedAtResume).isEqualTo(9_437_184);
        assertThat(t.sourceResumes).isEqualTo(1);
        assertThat(t.connectionLosses).containsEntry("SRC", 1);
        assertThat(t.endedWith).containsEntry("abc", "0");
        assertThat(t.endedMoreThanOnce).containsEntry("abc", 2);
        assertThat(t.errorLines).isEqualTo(1);
    }

    @Test
    void aRunPassesOnlyWhenEveryTransferAndEveryFaultDid() {
        SoakResult r = result();
        assertThat(r.ok()).isTrue();
        String md = new SoakReport(r).markdown();
        assertThat(md).startsWith(SoakReport.BEGIN).endsWith(SoakReport.END + "\n").contains("| verdict | **passed** |",
                "| transfers requested / ended intact | 2 / 2 |", "| bytes lost | **0** |");

        r.faults.get(0).survived = false;
        assertThat(r.ok()).isFalse();
        assertThat(r.verdict()).contains("1 of 1 faults not survived");

        SoakResult lost = result();
        lost.failed.add(new SoakResult.FailedTransfer(3, "abc", "result 40"));
        lost.submitted = 3;
        lost.bytesLost = 10;
        assertThat(lost.ok()).isFalse();
        assertThat(new SoakReport(lost).markdown()).contains("**FAILED**", "transfer #3 (`abc`): result 40");
    }

    @Test
    void theFaultsCsvReadsBackFieldByFieldWhateverTheTextsHold() {
        SoakResult r = result();
        SoakResult.Fault f = r.faults.get(0);
        f.detail = "cut SRC, then \"DST\"";
        f.problem = "not back\nafter 60 s";
        SoakResult.Fault open = new SoakResult.Fault(2, SoakScenario.FaultKind.KILL_QUEUE_MANAGER, 9.0, List.of());
        open.recoverySeconds = Double.NaN;
        r.faults.add(open);

        List<CSVRecord> rows = CsvTable.read(SoakReport.faultsCsv(r.faults));
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).get("detail")).isEqualTo("cut SRC, then \"DST\"");
        assertThat(rows.get(0).get("problem")).isEqualTo("not back after 60 s");
        assertThat(rows.get(0).get("in_flight")).isEqualTo("2");
        assertThat(rows.get(0).get("recovery_seconds")).isEqualTo("7.500");
        assertThat(rows.get(1).get("recovery_seconds")).as("unknown: empty").isEmpty();
        assertThat(rows.get(1).get("problem")).isEmpty();
    }

    private static SoakResult result() {
        SoakResult r = new SoakResult(SoakScenario.Settings.quick(1));
        r.started = Instant.parse("2026-11-22T12:00:00Z");
        r.machine = Map.of("cores (available to the JVM)", "2");
        r.submitted = 2;
        r.completed = 2;
        r.transferSeconds = new double[] {1.0, 2.0};
        SoakResult.Fault f = new SoakResult.Fault(1, SoakScenario.FaultKind.KILL_QUEUE_MANAGER, 3.0, List.of(1, 2));
        f.recoverySeconds = 7.5;
        f.survived = true;
        r.faults.add(f);
        return r;
    }
}
