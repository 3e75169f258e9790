package org.openmft.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;
import org.openmft.cli.ProgressRenderer.Style;
import org.openmft.client.ProgressEvent;

/**
 * The progress display alone: a sequence of publications and a hand-moved clock in, the bar or
 * lines out, with their throttling.
 */
class ProgressRendererTest {
    static final long MIB = 1L << 20;
    static final Instant T0 = Instant.parse("2026-11-20T10:15:30Z");
    static final String ID = "414d5120514d31202020202020202020000000000000000a";

    /** A clock the test moves. */
    static final class HandClock extends Clock {
        Instant now = T0;

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    final HandClock clock = new HandClock();
    final StringWriter text = new StringWriter();

    ProgressRenderer renderer(Style style, SourceEstimate estimate) {
        return new ProgressRenderer(style, new PrintWriter(text), clock, estimate, 80);
    }

    /** A publication {@code seconds} into the transfer; its time is T0 plus those seconds. */
    static ProgressEvent progress(double seconds, long bytes, int item, int items, long itemDone, long itemSize,
            String source) {
        return new ProgressEvent(ID, "AGENT1", "AGENT2",
                T0.plusMillis((long) (seconds * 1000)), bytes, seconds, item, items, itemDone, itemSize, source,
                source == null ? null : "/in/x");
    }

    @Test
    void plainLinesSayPercentBytesRateAndItem() {
        ProgressRenderer r = renderer(Style.LINES, new SourceEstimate(10, 1024 * MIB));
        clock.advance(Duration.ofSeconds(1));
        r.accept(progress(2, 420 * MIB, 3, 10, 20 * MIB, 100 * MIB, "/data/out/name.bin"));
        assertThat(text.toString()).isEqualTo("[10:15:31] 41% 420 MiB of 1.0 GiB, 220 MB/s, item 3 of 10: name.bin"
                + System.lineSeparator());
    }

    @Test
    void plainLinesAreThrottledToOneEveryFiveSeconds() {
        ProgressRenderer r = renderer(Style.LINES, new SourceEstimate(1, 100 * MIB));
        for (int s = 0; s <= 12; s++) {
            r.accept(progress(s, s * MIB, 1, 1, s * MIB, 100 * MIB, "/a.bin"));
            clock.advance(Duration.ofSeconds(1));
        }
        r.finish();
        // At 0, 5 and 10 seconds; finish adds nothing to plain lines.
        assertThat(text.toString().lines()).hasSize(3)
                .allMatch(l -> l.matches("\\[10:15:(30|35|40)\\] \\d+% .*"));
        assertThat(text.toString()).doesNotContain("\r");
    }

    @Test
    void theBarIsRedrawnInPlaceAtMostFourTimesASecond() {
        ProgressRenderer r = renderer(Style.BAR, new SourceEstimate(1, 100 * MIB));
        r.accept(progress(0.1, 1 * MIB, 1, 1, 1 * MIB, 100 * MIB, "/big.bin"));
        clock.advance(Duration.ofMillis(100));
        r.accept(progress(0.2, 2 * MIB, 1, 1, 2 * MIB, 100 * MIB, "/big.bin"));
        clock.advance(Duration.ofMillis(100));
        r.accept(progress(0.3, 3 * MIB, 1, 1, 3 * MIB, 100 * MIB, "/big.bin"));
        assertThat(count(text.toString(), '\r')).isEqualTo(1);
        clock.advance(Duration.ofMillis(50));
        r.accept(progress(1.0, 50 * MIB, 1, 1, 50 * MIB, 100 * MIB, "/big.bin"));
        assertThat(count(text.toString(), '\r')).isEqualTo(2);
        clock.advance(Duration.ofMillis(10));
        r.accept(progress(2.0, 100 * MIB, 1, 1, 100 * MIB, 100 * MIB, "/big.bin"));
        assertThat(count(text.toString(), '\r')).isEqualTo(2);
        assertThat(text.toString()).doesNotContain("\n");
        // The held-back last state is drawn when the wait ends, and the line is ended.
        r.finish();
        String out = text.toString();
        assertThat(count(out, '\r')).isEqualTo(3);
        assertThat(out).endsWith(System.lineSeparator());
        String last = out.substring(out.lastIndexOf('\r') + 1).strip();
        assertThat(last).isEqualTo("[################] 100% 100 MiB/100 MiB 55 MB/s ETA 0:00 1/1 files big.bin");
        String first = out.substring(1, out.indexOf('\r', 1));
        assertThat(first).startsWith("[                ]   1% 1.0 MiB/100 MiB 10 MB/s ETA 0:10 0/1 files big.bin");
    }

    @Test
    void aSuccessfulTransferEndsWithAFullBar() {
        ProgressRenderer r = renderer(Style.BAR, new SourceEstimate(3, 300 * MIB));
        r.accept(progress(3, 234 * MIB, 3, 3, 34 * MIB, 100 * MIB, "/in/c.bin"));
        r.finish(true);
        String out = text.toString();
        assertThat(out.substring(out.lastIndexOf('\r') + 1).strip())
                .isEqualTo("[################] 100% 300 MiB/300 MiB 82 MB/s ETA 0:00 3/3 files c.bin");
        // A failed one keeps the last state it was told.
        text.getBuffer().setLength(0);
        ProgressRenderer failed = renderer(Style.BAR, new SourceEstimate(3, 300 * MIB));
        failed.accept(progress(3, 234 * MIB, 3, 3, 34 * MIB, 100 * MIB, "/in/c.bin"));
        failed.finish(false);
        assertThat(count(text.toString(), '\r')).isEqualTo(1);
        assertThat(text.toString()).contains(" 78% 234 MiB/300 MiB");
    }

    @Test
    void theBarFitsTheTerminalAndShortensLongNames() {
        ProgressRenderer r = new ProgressRenderer(Style.BAR, new PrintWriter(text), clock,
                new SourceEstimate(3, 3 * 1024 * MIB), 80);
        String name = "/data/out/" + "a_very_long_file_name_".repeat(5) + "end.bin";
        r.accept(progress(10, 1024 * MIB, 2, 3, 10 * MIB, 1024 * MIB, name));
        String bar = text.toString().substring(1);
        // One column short of the width, so that the terminal never wraps it.
        assertThat(bar).hasSize(79).isEqualTo("[#####           ]  33% 1.0 GiB/3.0 GiB 107 MB/s ETA 0:20 1/3 files"
                + " a_ve....bin");
    }

    @Test
    void aShorterRedrawBlanksWhatTheLongerOneLeft() {
        ProgressRenderer r = renderer(Style.BAR, SourceEstimate.UNKNOWN);
        r.accept(progress(1, 5 * MIB, 1, 2, 5 * MIB, 10 * MIB, "/a_rather_long_name.bin"));
        int firstLength = text.toString().length();
        clock.advance(Duration.ofSeconds(1));
        r.accept(progress(2, 12 * MIB, 2, 2, 2 * MIB, 10 * MIB, "/b.bin"));
        String second = text.toString().substring(firstLength);
        assertThat(second.length()).isEqualTo(firstLength);
        assertThat(second).startsWith("\r12 MiB 7.3 MB/s 1/2 files b.bin").endsWith(" ");
    }

    @Test
    void withoutAKnownTotalBytesAndRateAreShownWithoutPercentOrEta() {
        ProgressRenderer r = renderer(Style.LINES, SourceEstimate.UNKNOWN);
        r.accept(progress(4, 400 * MIB, 2, 5, 1, 2, "C:\\data\\x.dat"));
        assertThat(text.toString().strip()).isEqualTo("[10:15:30] 400 MiB, 105 MB/s, item 2 of 5: x.dat");
        ProgressRenderer bar = renderer(Style.BAR, SourceEstimate.UNKNOWN);
        assertThat(bar.bar(progress(4, 400 * MIB, 2, 5, 1, 2, "/x.dat"))).isEqualTo("400 MiB 105 MB/s 1/5 files x.dat").doesNotContain("%", "ETA");
    }

    @Test
    void theTotalIsTrustedOnlyWhileItAgreesWithTheAgent() {
        ProgressRenderer r = renderer(Style.LINES, new SourceEstimate(5, 500 * MIB));
        // The agent counts 3 items, this host 5: the estimate is not about the same files.
        assertThat(r.total(progress(1, MIB, 1, 3, MIB, 10 * MIB, "/a"))).isEqualTo(-1);
        // One item: its size is the total, whatever this host knows.
        assertThat(r.total(progress(1, MIB, 1, 1, MIB, 10 * MIB, "/a"))).isEqualTo(10 * MIB);
        assertThat(r.total(progress(1, MIB, 1, 5, MIB, 10 * MIB, "/a"))).isEqualTo(500 * MIB);
        // More sent than the estimate: it was wrong.
        assertThat(r.total(progress(1, 501 * MIB, 1, 5, MIB, 10 * MIB, "/a"))).isEqualTo(-1);
    }

    @Test
    void theRateIsTheRecentOneNotTheAverageSinceTheStart() {
        ProgressRenderer r = renderer(Style.BAR, SourceEstimate.UNKNOWN);
        // A slow first 20 seconds, then 100 MB/s.
        long b = 10_000_000;
        for (int s = 20; s <= 40; s++) {
            r.accept(progress(s, b, 1, 1, b, -1, "/a"));
            b += 100_000_000;
        }
        assertThat(ProgressRenderer.rate(r.rate(progress(40, b - 100_000_000, 1, 1, 0, -1, "/a"))))
                .isEqualTo("100 MB/s");
        // A restart from a checkpoint (fewer bytes than before) starts the measurement again.
        r.accept(progress(41, 5_000_000, 1, 1, 0, -1, "/a"));
        assertThat(r.rate(progress(41, 5_000_000, 1, 1, 0, -1, "/a"))).isCloseTo(5_000_000 / 41.0,
                org.assertj.core.data.Offset.offset(1.0));
    }

    @Test
    void aNoteEndsTheBarLineFirst() {
        ProgressRenderer r = renderer(Style.BAR, SourceEstimate.UNKNOWN);
        r.accept(progress(1, MIB, 1, 1, MIB, 2 * MIB, "/a"));
        r.note("Progress is no longer shown: the connection failed.");
        String nl = System.lineSeparator();
        assertThat(text.toString()).endsWith("a" + nl + "Progress is no longer shown: the connection failed." + nl);
        r.finish();
        assertThat(text.toString()).endsWith("failed." + nl);
    }

    @Test
    void offShowsNothingAndNothingShownMeansNothingToEnd() {
        ProgressRenderer off = renderer(Style.OFF, SourceEstimate.UNKNOWN);
        off.accept(progress(1, MIB, 1, 1, MIB, 2 * MIB, "/a"));
        off.finish();
        renderer(Style.BAR, SourceEstimate.UNKNOWN).finish();
        assertThat(text.toString()).isEmpty();
    }

    @Test
    void unitsAndTimes() {
        assertThat(ProgressRenderer.size(0)).isEqualTo("0 B");
        assertThat(ProgressRenderer.size(1023)).isEqualTo("1023 B");
        assertThat(ProgressRenderer.size(9 * 1024 + 512)).isEqualTo("9.5 KiB");
        assertThat(ProgressRenderer.size(420 * MIB)).isEqualTo("420 MiB");
        assertThat(ProgressRenderer.size(1024 * MIB - 1)).isEqualTo("1.0 GiB");
        assertThat(ProgressRenderer.rate(-1)).isEqualTo("-- MB/s");
        assertThat(ProgressRenderer.rate(2_500_000)).isEqualTo("2.5 MB/s");
        assertThat(ProgressRenderer.rate(210_400_000)).isEqualTo("210 MB/s");
        assertThat(ProgressRenderer.rate(64_000)).isEqualTo("64 kB/s");
        assertThat(ProgressRenderer.eta(0, -1)).isEqualTo("0:00");
        assertThat(ProgressRenderer.eta(100, 0)).isEqualTo("--:--");
        assertThat(ProgressRenderer.eta(125_000_000, 1_000_000)).isEqualTo("2:05");
        assertThat(ProgressRenderer.eta(3_725_000_000L, 1_000_000)).isEqualTo("1:02:05");
        assertThat(ProgressRenderer.shorten("abcdefghij", 7)).isEqualTo("ab...ij");
        assertThat(ProgressRenderer.fileName("/a/b/")).isEqualTo("b");
        assertThat(ProgressRenderer.fileName(null)).isNull();
    }

    private static long count(String s, char c) {
        return s.chars().filter(ch -> ch == c).count();
    }
}
