package org.openmft.bench.scenarios.channels;

import org.openmft.bench.harness.AgentKeys;
import org.openmft.bench.report.Charts;
import org.openmft.bench.report.Report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.openmft.agent.compression.CompressionMethod;
import org.openmft.bench.micro.CompressionBenchmark.Data;

/**
 * {@code channel-options} written up: compression per method and data across a capped link, several
 * channels on and off across a long one, each against its baseline pair by pair. Pure.
 */
final class ChannelOptionsReport {
    private final List<ChannelRun> runs;
    private final Map<ChannelRun, Long> wireBytes;

    /**
     * @param runs      every measured run
     * @param wireBytes the bytes the relays carried (both directions) during each compression run
     */
    ChannelOptionsReport(List<ChannelRun> runs, Map<ChannelRun, Long> wireBytes) {
        this.runs = List.copyOf(runs);
        this.wireBytes = Map.copyOf(wireBytes);
    }

    /** The median over the runs of {@code cell} and {@code variant} of the bytes on the link over the file's bytes. */
    double wireRatio(String cell, String variant) {
        return ChannelRun.median(runs, cell, variant, r -> {
            Long w = wireBytes.get(r);
            return w == null ? Double.NaN : (double) w / r.bytes();
        });
    }

    String markdown(String runTable, String busyNote, String chart, List<String> failures) {
        StringBuilder md = new StringBuilder("## Compression and several channels between two queue managers\n\n");
        md.append("QMA and QMB joined by channels through relays (as in the latency section), one binary file per run"
                + " from an agent on QMA to one on QMB, without checksum. Every setting has a pair of agents of its"
                + " own on the same queue managers and relays, with the setting on both agents; the order of the"
                + " settings rotates from one repetition to the next. \"against\" divides each run's rate by its"
                + " baseline's in the same repetition; figures are medians over the repetitions. "
                + ChannelReports.RELAYED_IN_ONE_JVM + "\n\n");
        md.append("- **Compression** (`openmft.compression`, IBM MQ's channel COMPMSG done by the agents): each"
                + " direction capped at ").append(ChannelOptionsSuite.CAP_MEGABITS).append(" Mbit/s by the relay"
                + " (its `setBandwidth`), no added delay; text-like data (CSV rows of a payments file) and random"
                + " data (what encrypted or already compressed files look like). \"on the link\" is what the relays"
                + " carried both ways (chunks, acknowledgements, protocol and channel headers) over the file's"
                + " bytes.\n");
        md.append("- **Several channels** (`").append(ChannelOptionsSuite.MULTI_KEY).append("`): two parallel channels"
                + " each way (`--channels 2`), every connection capped at ").append(ChannelOptionsSuite.CAP_MEGABITS)
                .append(" Mbit/s each way (the relay's cap is per connection, as a per-flow shaper's), ")
                .append(ChannelOptionsSuite.MULTI_RTT_MILLIS).append(" ms round trip, random data; with the key false"
                + " the agents use the first channel only. `")
                .append(ChannelOptionsSuite.MULTI_KEY).append("` is ")
                .append(AgentKeys.status(ChannelOptionsSuite.MULTI_KEY)).append(".");
        if (!AgentKeys.honoured(ChannelOptionsSuite.MULTI_KEY)) {
            md.append(" Both rows ran one channel here; the table is to be regenerated once several channels are"
                    + " merged.");
        }
        md.append("\n\n").append(busyNote).append("\n\n").append(runTable).append('\n');
        md.append("### Compression across a ").append(ChannelOptionsSuite.CAP_MEGABITS).append(" Mbit/s link\n\n");
        md.append("| data | openmft.compression | Transfer Time | MB/s | MB/s of each run | against none | on the link"
                + " / file | CPU s source | CPU s destination |\n");
        md.append("|---|---|---|---|---|---|---|---|---|\n");
        for (Data d : Data.values()) {
            String cell = ChannelOptionsSuite.compressionCell(d);
            String none = ChannelOptionsSuite.compression(CompressionMethod.NONE);
            for (CompressionMethod m : ChannelOptionsSuite.METHODS) {
                String v = ChannelOptionsSuite.compression(m);
                md.append("| ").append(d.name().toLowerCase(java.util.Locale.ROOT)).append(" | ").append(m.word())
                        .append(" | ").append(ChannelReports.ibmTime(ChannelRun.median(runs, cell, v, ChannelRun::seconds)))
                        .append(" | **").append(Report.fmt(ChannelRun.median(runs, cell, v, ChannelRun::mbPerSecond), 1))
                        .append("** | ").append(ChannelRun.rates(runs, cell, v)).append(" | ")
                        .append(m == CompressionMethod.NONE ? "baseline"
                                : ChannelReports.times(ChannelRun.medianRatio(runs, cell, v, none)))
                        .append(" | ").append(Report.fmt(wireRatio(cell, v), 3)).append(" | ")
                        .append(Report.fmt(ChannelRun.median(runs, cell, v, r -> r.cpu().source() / 1e9), 2)).append(" | ")
                        .append(Report.fmt(ChannelRun.median(runs, cell, v, r -> r.cpu().destination() / 1e9), 2))
                        .append(" |\n");
            }
        }
        md.append("\n### Several channels across a ").append(ChannelOptionsSuite.MULTI_RTT_MILLIS)
                .append(" ms round trip, ").append(ChannelOptionsSuite.CAP_MEGABITS).append(" Mbit/s per connection\n\n");
        md.append("| ").append(ChannelOptionsSuite.MULTI_KEY).append(" | Transfer Time | MB/s | MB/s of each run | against"
                + " false |\n|---|---|---|---|---|\n");
        for (boolean on : ChannelOptionsSuite.MULTI) {
            String v = ChannelOptionsSuite.multi(on);
            String cell = ChannelOptionsSuite.MULTI_CELL;
            md.append("| ").append(on).append(" | ")
                    .append(ChannelReports.ibmTime(ChannelRun.median(runs, cell, v, ChannelRun::seconds))).append(" | **")
                    .append(Report.fmt(ChannelRun.median(runs, cell, v, ChannelRun::mbPerSecond), 1)).append("** | ")
                    .append(ChannelRun.rates(runs, cell, v)).append(" | ")
                    .append(on ? ChannelReports.times(ChannelRun.medianRatio(runs, cell, v, ChannelOptionsSuite.multi(false)))
                            : "baseline")
                    .append(" |\n");
        }
        md.append('\n');
        md.append(ChannelReports.end(chart, failures, ChannelOptionsSuite.NAME, "The full scale moves 256 MiB per run (3"
                + " repetitions); `--quick` moves 8 MiB once per setting, a check rather than figures."));
        return md.toString();
    }

    /** MB/s per data and compression method across the capped link. */
    String chart(Path images, String imagesLink) throws IOException {
        List<String> categories = new ArrayList<>();
        for (Data d : Data.values()) {
            categories.add(ChannelOptionsSuite.compressionCell(d));
        }
        Map<String, List<Double>> series = new LinkedHashMap<>();
        for (CompressionMethod m : ChannelOptionsSuite.METHODS) {
            List<Double> ys = new ArrayList<>();
            for (Data d : Data.values()) {
                ys.add(ChannelRun.median(runs, ChannelOptionsSuite.compressionCell(d),
                        ChannelOptionsSuite.compression(m), ChannelRun::mbPerSecond));
            }
            series.put("openmft.compression=" + m.word(), ys);
        }
        return Charts.bars(images, imagesLink, ChannelOptionsSuite.NAME + "-compression.png",
                "Compression across a " + ChannelOptionsSuite.CAP_MEGABITS + " Mbit/s link between two queue managers",
                "MB/s", categories, series);
    }
}
