package org.openmft.coordination.logger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.openmft.coordination.logger.Logs.T0;
import static org.openmft.coordination.logger.Logs.cancelled;
import static org.openmft.coordination.logger.Logs.completed;
import static org.openmft.coordination.logger.Logs.completedWithCalls;
import static org.openmft.coordination.logger.Logs.monitorLog;
import static org.openmft.coordination.logger.Logs.scheduleLog;
import static org.openmft.coordination.logger.Logs.id;
import static org.openmft.coordination.logger.Logs.item;
import static org.openmft.coordination.logger.Logs.malformed;
import static org.openmft.coordination.logger.Logs.progress;
import static org.openmft.coordination.logger.Logs.record;
import static org.openmft.coordination.logger.Logs.refusal;
import static org.openmft.coordination.logger.Logs.started;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.LoggerProperties.FileLoggerMode;
import org.openmft.coordination.logger.StoreOutcome.Status;
import org.openmft.xml.log.NotAuthorizedLog;

class FileLogStoreTest {

    @TempDir
    Path dir;

    private FileLogStore open(FileLoggerMode mode, long size, int count, int keys) throws LogStoreException {
        return FileLogStore.open(dir, "lgr1", mode, size, count, keys);
    }

    private List<String> lines(Path file) throws IOException {
        return Files.readAllLines(file);
    }

    private List<Path> logFiles() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".log")).sorted().toList();
        }
    }

    private List<String> allLines() throws IOException {
        List<String> all = new ArrayList<>();
        for (Path file : logFiles()) {
            all.addAll(lines(file));
        }
        return all;
    }

    private static List<Status> statuses(List<StoreOutcome> outcomes) {
        return outcomes.stream().map(StoreOutcome::status).toList();
    }

    @Test
    void oneLinePerRecordInIbmsLayout() throws Exception {
        String id = id(1);
        try (FileLogStore store = open(FileLoggerMode.CIRCULAR, 1 << 20, 3, 100)) {
            List<StoreOutcome> outcomes = store.storeAll(List.of(
                    record(started(id, "SRC", "DST", T0)),
                    record(progress(id, "SRC", "DST", T0.plusSeconds(1), 0, item("/in/a.txt", "/out/a.txt", 0),
                            item("/in/b.txt", "/out/b.txt", 1))),
                    record(completed(id, "SRC", "DST", T0.plusSeconds(2), 20, "BFGRP0034I: The file transfer\n"
                            + "request has completed with problems.")),
                    record(cancelled(id(2), "SRC", "DST", T0.plusSeconds(3)))));
            assertThat(statuses(outcomes)).containsOnly(Status.STORED);
            assertThat(store.currentFile()).isEqualTo(dir.resolve("LGR10.log"));
        }
        assertThat(lines(dir.resolve("LGR10.log"))).containsExactly(
                "2026-11-20T10:15:30;" + id + ";[TSTR];   ;SRC;QM_SRC;;DST;QM_DST;alice;nightly;;;",
                "2026-11-20T10:15:31;" + id + ";[TPRO];0  ;/in/a.txt;1000;file;leave ;;;;;;/out/a.txt;1000;file;error;"
                        + ";;;;;;;",
                "2026-11-20T10:15:31;" + id + ";[TPRO];1  ;/in/b.txt;1000;file;leave ;;;;;;/out/b.txt;1000;file;error;"
                        + ";;;;;;BFGIO0006E: exists;",
                "2026-11-20T10:15:32;" + id + ";[TCOM];20 ;SRC;QM_SRC;;DST;QM_DST;;alice;nightly;"
                        + "BFGRP0034I: The file transfer request has completed with problems.;;",
                "2026-11-20T10:15:33;" + id(2) + ";[TCAN];41 ;SRC;QM_SRC;;DST;QM_DST;;alice;nightly;"
                        + "BFGTR0063I: The transfer was cancelled.;");
    }

    @Test
    void callsSchedulesAndMonitorsGetIbmsLineTypesInIbmsInsertOrder() throws Exception {
        String id = id(1);
        String five = FileLogFormat.fixed("5", 48);
        String mon = id(30);
        LogRecord submit = record(scheduleLog(5, "submit", "SRC", T0));
        try (FileLogStore store = open(FileLoggerMode.CIRCULAR, 1 << 20, 3, 100)) {
            List<StoreOutcome> outcomes = store.storeAll(List.of(
                    record(completedWithCalls(id, "SRC", "DST", T0)), submit,
                    record(scheduleLog(5, "expire", "SRC", T0.plusSeconds(1))), submit,
                    record(monitorLog("MON1", 30, "create", 0, T0)), record(monitorLog("MON1", 30, "stop", 0, T0)),
                    record(monitorLog("MON1", 30, "triggerFail", 106, T0))));
            assertThat(statuses(outcomes)).containsExactly(Status.STORED, Status.STORED, Status.STORED,
                    Status.DUPLICATE, Status.STORED, Status.STORED, Status.STORED);
        }
        assertThat(allLines()).containsExactly(
                "2026-11-20T10:15:30;" + id + ";[TCOM];0  ;SRC;QM_SRC;;DST;QM_DST;;alice;nightly;;;",
                "2026-11-20T10:15:30;" + id + ";[TCAL];4  ;SRC;QM_SRC;nightly;executable;check.sh;-v a b;success;"
                        + "preSourceCall;1;",
                "2026-11-20T10:15:30;" + id + ";[TCAL];2  ;DST;QM_DST;nightly;executable;/opt/bin/notify;;failure;"
                        + "postDestinationCall;0;",
                "2026-11-20T10:15:30;" + five + ";[SSIN];0  ;SRC;submit;alice;UTC;;3;2030-01-01T11:00;hours;2;;"
                        + "NIGHTLY;",
                "2026-11-20T10:15:30;" + five + ";[SSTR];SRC;QM_SRC;DST;QM_DST;",
                "2026-11-20T10:15:30;" + five + ";[SSTS];/in/a.txt;;text;/out/a.txt;;",
                "2026-11-20T10:15:30;" + five + ";[SSTS];/in/b.bin;;binary;/out/;;",
                "2026-11-20T10:15:31;" + five + ";[SEXP];0  ;SRC;expire;alice;schedule 5 expire;",
                "2026-11-20T10:15:30;" + mon + ";[MCRT];MON1;SRC;QM_SRC;create;",
                "2026-11-20T10:15:30;" + mon + ";[MACT];0  ;MON1;SRC;QM_SRC;stop;",
                "2026-11-20T10:15:30;" + mon + ";[MFIR];106;MON1;SRC;QM_SRC;triggerFail;BFGDM0107E: failed;");
    }

    @Test
    void aMalformedMessageHasNoLineTypeAndIsRejectedAlone() throws Exception {
        try (FileLogStore store = open(FileLoggerMode.CIRCULAR, 1 << 20, 3, 100)) {
            List<StoreOutcome> outcomes = store.storeAll(List.of(record(malformed(id(1), T0)),
                    record(started(id(2), "A", "B", T0))));
            assertThat(statuses(outcomes)).containsExactly(Status.REJECTED, Status.STORED);
            assertThat(outcomes.get(0).reason()).contains("no line type", "'malformed'");
        }
        assertThat(allLines()).hasSize(1);
    }

    @Test
    void aRefusalIsOneAuthLineWithoutTheRefusedRequestAndIsWrittenOnce() throws Exception {
        NotAuthorizedLog ours = refusal(id(3), "SRC", "mallory", "transfer", T0);
        // IBM's names no agent in the message (the topic does) and may carry no user.
        NotAuthorizedLog ibms = new NotAuthorizedLog("3.00", id(4), "sourceAgent", T0.plusSeconds(1), null, null,
                "administration", 53, List.of("BFGCH0083E: The user does not\nhave the authority (ADMINISTRATION)."));
        LogRecord a = record(ours, "SRC");
        LogRecord b = record(ibms, "PAY.SRC");
        try (FileLogStore store = open(FileLoggerMode.CIRCULAR, 1 << 20, 3, 100)) {
            assertThat(statuses(store.storeAll(List.of(a, b, a)))).containsExactly(Status.STORED, Status.STORED,
                    Status.DUPLICATE);
        }
        try (FileLogStore restarted = open(FileLoggerMode.CIRCULAR, 1 << 20, 3, 100)) {
            assertThat(statuses(restarted.storeAll(List.of(b)))).containsExactly(Status.DUPLICATE);
        }
        assertThat(allLines()).containsExactly(
                "2026-11-20T10:15:30;" + id(3) + ";[AUTH];53 ;not_authorized;transfer;;mallory;"
                        + ours.supplements().get(0) + ";",
                "2026-11-20T10:15:31;" + id(4) + ";[AUTH];53 ;not_authorized;administration;;;"
                        + "BFGCH0083E: The user does not have the authority (ADMINISTRATION).;");
    }

    @Test
    void circularKeepsAtMostFileCountFilesOfAtMostFileSize() throws Exception {
        long size = 400;
        int count = 3;
        List<LogRecord> records = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            records.add(record(started(id(i), "SRC", "DST", T0.plusSeconds(i))));
        }
        try (FileLogStore store = open(FileLoggerMode.CIRCULAR, size, count, 100)) {
            for (LogRecord r : records) {
                store.storeAll(List.of(r));
            }
        }
        assertThat(logFiles()).extracting(f -> f.getFileName().toString())
                .containsExactly("LGR10.log", "LGR11.log", "LGR12.log");
        for (Path file : logFiles()) {
            assertThat(Files.size(file)).as(file.toString()).isLessThanOrEqualTo(size).isPositive();
        }
        List<String> kept = allLines();
        assertThat(kept).anyMatch(l -> l.contains(id(59))).noneMatch(l -> l.contains(id(0) + ";"));
        assertThat(kept.size()).isLessThan(60);
    }

    @Test
    void afterARestartCircularContinuesTheNewestFile() throws Exception {
        // A [TSTR] line of these records is 120 bytes: three fit in 400.
        try (FileLogStore store = open(FileLoggerMode.CIRCULAR, 400, 3, 100)) {
            for (int i = 0; i < 5; i++) {
                store.storeAll(List.of(record(started(id(i), "SRC", "DST", T0))));
            }
            assertThat(store.currentFile()).isEqualTo(dir.resolve("LGR11.log"));
        }
        try (FileLogStore store = open(FileLoggerMode.CIRCULAR, 400, 3, 100)) {
            assertThat(store.currentFile()).isEqualTo(dir.resolve("LGR11.log"));
            store.storeAll(List.of(record(started(id(5), "SRC", "DST", T0))));
        }
        assertThat(lines(dir.resolve("LGR11.log"))).hasSize(3).last().asString().contains(id(5));
        assertThat(allLines()).hasSize(6);
    }

    @Test
    void afterARestartCircularContinuesAFileItWrappedRoundTo() throws Exception {
        try (FileLogStore store = open(FileLoggerMode.CIRCULAR, 400, 3, 100)) {
            for (int i = 0; i < 10; i++) {
                store.storeAll(List.of(record(started(id(i), "SRC", "DST", T0))));
            }
            assertThat(store.currentFile()).isEqualTo(dir.resolve("LGR10.log"));
        }
        try (FileLogStore store = open(FileLoggerMode.CIRCULAR, 400, 3, 100)) {
            assertThat(store.currentFile()).isEqualTo(dir.resolve("LGR10.log"));
            store.storeAll(List.of(record(started(id(10), "SRC", "DST", T0))));
        }
        assertThat(lines(dir.resolve("LGR10.log"))).hasSize(2).first().asString().contains(id(9));
        assertThat(allLines()).hasSize(8);
    }

    @Test
    void withoutItsSideFileCircularFindsTheNewestFileByItsTime() throws Exception {
        try (FileLogStore store = open(FileLoggerMode.CIRCULAR, 400, 3, 100)) {
            for (int i = 0; i < 8; i++) {
                store.storeAll(List.of(record(started(id(i), "SRC", "DST", T0))));
            }
        }
        Files.delete(dir.resolve("LGR1.current"));
        Files.setLastModifiedTime(dir.resolve("LGR11.log"), FileTime.from(Instant.now().plusSeconds(60)));
        try (FileLogStore store = open(FileLoggerMode.CIRCULAR, 400, 3, 100)) {
            assertThat(store.currentFile()).isEqualTo(dir.resolve("LGR11.log"));
        }
        assertThat(dir.resolve("LGR1.current")).hasContent("1");
    }

    @Test
    void linearNumbersOnAndDeletesNothing() throws Exception {
        try (FileLogStore store = open(FileLoggerMode.LINEAR, 200, 2, 100)) {
            for (int i = 0; i < 10; i++) {
                store.storeAll(List.of(record(started(id(i), "SRC", "DST", T0))));
            }
        }
        try (FileLogStore store = open(FileLoggerMode.LINEAR, 200, 2, 100)) {
            assertThat(store.currentFile()).isEqualTo(dir.resolve("LGR19.log"));
            store.storeAll(List.of(record(started(id(10), "SRC", "DST", T0))));
        }
        assertThat(logFiles()).hasSize(11);
        assertThat(allLines()).hasSize(11);
    }

    @Test
    void aLineLongerThanFileSizeGetsAFileOfItsOwn() throws Exception {
        try (FileLogStore store = open(FileLoggerMode.LINEAR, 10, 2, 100)) {
            store.storeAll(List.of(record(started(id(1), "SRC", "DST", T0)), record(started(id(2), "SRC", "DST", T0))));
        }
        assertThat(logFiles()).hasSize(2);
        assertThat(lines(dir.resolve("LGR10.log"))).hasSize(1);
    }

    @Test
    void noDuplicateLineInABatchOrAfterARestart() throws Exception {
        LogRecord a = record(started(id(1), "SRC", "DST", T0));
        LogRecord b = record(completed(id(1), "SRC", "DST", T0, 0));
        try (FileLogStore store = open(FileLoggerMode.CIRCULAR, 1 << 20, 3, 100)) {
            assertThat(statuses(store.storeAll(List.of(a, b, a)))).containsExactly(Status.STORED, Status.STORED,
                    Status.DUPLICATE);
            assertThat(statuses(store.storeAll(List.of(b)))).containsExactly(Status.DUPLICATE);
        }
        try (FileLogStore restarted = open(FileLoggerMode.CIRCULAR, 1 << 20, 3, 100)) {
            assertThat(statuses(restarted.storeAll(List.of(a, b)))).containsExactly(Status.DUPLICATE,
                    Status.DUPLICATE);
        }
        assertThat(allLines()).hasSize(2);
        assertThat(dir.resolve("LGR1.keys")).isRegularFile();
    }

    @Test
    void theSideFileStaysSmallAndKeepsTheLastKeys() throws Exception {
        int keep = 5;
        List<LogRecord> records = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            records.add(record(started(id(i), "SRC", "DST", T0)));
        }
        try (FileLogStore store = open(FileLoggerMode.CIRCULAR, 1 << 20, 3, keep)) {
            for (int i = 0; i < records.size(); i += 3) {
                store.storeAll(records.subList(i, Math.min(i + 3, records.size())));
            }
        }
        assertThat(lines(dir.resolve("LGR1.keys")).size()).isLessThanOrEqualTo(2 * keep);
        try (FileLogStore restarted = open(FileLoggerMode.CIRCULAR, 1 << 20, 3, keep)) {
            assertThat(statuses(restarted.storeAll(records.subList(records.size() - keep, records.size()))))
                    .containsOnly(Status.DUPLICATE);
            assertThat(statuses(restarted.storeAll(List.of(records.get(0))))).containsExactly(Status.STORED);
        }
    }

    @Test
    void withoutDedupeKeysEveryDeliveryIsWritten() throws Exception {
        LogRecord a = record(started(id(1), "SRC", "DST", T0));
        try (FileLogStore store = open(FileLoggerMode.CIRCULAR, 1 << 20, 3, 0)) {
            store.storeAll(List.of(a));
        }
        try (FileLogStore store = open(FileLoggerMode.CIRCULAR, 1 << 20, 3, 0)) {
            assertThat(statuses(store.storeAll(List.of(a)))).containsExactly(Status.STORED);
        }
        assertThat(allLines()).hasSize(2);
        assertThat(dir.resolve("LGR1.keys")).doesNotExist();
    }

    @Test
    void queriesAreNotSupported() throws Exception {
        try (FileLogStore store = open(FileLoggerMode.CIRCULAR, 1 << 20, 3, 100)) {
            assertThatThrownBy(() -> store.transfers(TransferQuery.latest(10)))
                    .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("DATABASE logger");
            assertThatThrownBy(() -> store.transfer(id(1))).isInstanceOf(UnsupportedOperationException.class);
        }
    }

    @Test
    void widthsPadAndCut() {
        assertThat(FileLogFormat.fixed("0", 3)).isEqualTo("0  ");
        assertThat(FileLogFormat.fixed("1234", 3)).isEqualTo("123");
        assertThat(FileLogFormat.fixed(null, 2)).isEqualTo("  ");
    }
}
