package org.openmft.bench.scenarios.fileshapes;

import org.openmft.bench.harness.ConnectionMode;
import org.openmft.bench.report.FigureCsv;
import org.openmft.bench.report.Report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;

/**
 * Every cell of seed 000's matrix, IBM's figures as the report prints them ("IBM MQ 9.0.5 Managed
 * File Transfer Performance Report for Windows", 2018):
 * 2 GB as 2000 x 1 MB, 200 x 10 MB or 20 x 100 MB files; agentChunkSize 65536, 131072, 262144,
 * 524288; text or binary; MD5 or no checksum; one transfer ("SingleTransfer") or the same files as
 * 10 parallel transfers ("MultiTransfer"); agents in bindings mode or client mode. Read from the
 * resource {@code seed000-ibm.csv}, one row per cell, which says where in the report each row is.
 */
public final class FileShapeIbmFigures {
    static final String RESOURCE = "/seed000-ibm.csv";

    /**
     * One cell as IBM printed it.
     *
     * @param mode           bindings or client
     * @param chunkBytes     agentChunkSize (the report's headings misprint 65536 as 65636 and 524288 as 524228)
     * @param text           text mode (else binary)
     * @param md5            MD5 checksum (else none)
     * @param fileMegabytes  1, 10 or 100: the size of each file of the 2 GB set
     * @param parallel       10 parallel transfers (MultiTransfer), else one (SingleTransfer)
     * @param agentQmCpuPercent "AgentQ-CPU", % of the machine of the one queue manager both client agents connect
     *                       to (the report's 8-CPU MQPERF5, by inference); NaN in bindings mode, where each agent's
     *                       machine ran its own queue manager and the report has no such column
     * @param coordCpuPercent  "Coord-CPU", % of the coordination queue manager's machine
     * @param agent1CpuPercent "Agent1-CPU", % of the source agent's machine
     * @param agent2CpuPercent "Agent2-CPU", % of the destination agent's machine
     * @param seconds        "Transfer Time"
     * @param megabitsPerSecond "Transfer Rate", printed as "Mb"
     * @param where          the report's section and table
     */
    public record Figure(ConnectionMode mode, int chunkBytes, boolean text, boolean md5, int fileMegabytes, boolean parallel,
            double agentQmCpuPercent, double coordCpuPercent, double agent1CpuPercent, double agent2CpuPercent,
            double seconds, double megabitsPerSecond, String where) {
    }

    private static final List<Figure> ALL = load();

    private FileShapeIbmFigures() {
    }

    /** Every cell the resource holds, in its order. */
    static List<Figure> all() {
        return ALL;
    }

    /** IBM's figure for one cell, if the report has it. */
    public static Optional<Figure> find(ConnectionMode mode, int chunkBytes, boolean text, boolean md5, int fileMegabytes,
            boolean parallel) {
        return ALL.stream().filter(f -> f.mode() == mode && f.chunkBytes() == chunkBytes && f.text() == text
                && f.md5() == md5 && f.fileMegabytes() == fileMegabytes && f.parallel() == parallel).findFirst();
    }

    /**
     * The CSV: a header line, then 13 fields {@code mode,chunk_bytes,transfer_mode,checksum,file_mb,
     * transfers,agentq_cpu_pct,coord_cpu_pct,agent1_cpu_pct,agent2_cpu_pct,seconds,rate_mbit,where}
     * with mode bindings|client, transfer_mode text|binary, checksum md5|none, transfers single|multi,
     * agentq_cpu_pct empty (read as NaN) exactly in bindings rows; lines starting with # are comments.
     */
    static List<Figure> parse(InputStream in) throws IOException {
        return FigureCsv.read(in, RESOURCE, 13, f -> {
            ConnectionMode mode = ConnectionMode.valueOf(f[0].trim().toUpperCase(java.util.Locale.ROOT));
            return new Figure(mode, Integer.parseInt(f[1].trim()), bool(f[2], "text", "binary"),
                    bool(f[3], "md5", "none"), Integer.parseInt(f[4].trim()), bool(f[5], "multi", "single"),
                    agentQm(mode, f[6]), Double.parseDouble(f[7]), Double.parseDouble(f[8]),
                    Double.parseDouble(f[9]), Double.parseDouble(f[10]), Double.parseDouble(f[11]),
                    f[12].trim().replaceAll("^\"|\"$", ""));
        });
    }

    /** agentq_cpu_pct: a number in client rows, empty in bindings rows (NaN). */
    private static double agentQm(ConnectionMode mode, String v) {
        String s = v.trim();
        if (mode == ConnectionMode.BINDINGS) {
            if (!s.isEmpty()) {
                throw new IllegalArgumentException("agentq_cpu_pct '" + s + "' in a bindings row, which has none");
            }
            return Double.NaN;
        }
        if (s.isEmpty()) {
            throw new IllegalArgumentException("agentq_cpu_pct missing in a client row");
        }
        return Double.parseDouble(s);
    }

    private static boolean bool(String v, String yes, String no) {
        String s = v.trim();
        if (s.equals(yes)) {
            return true;
        }
        if (s.equals(no)) {
            return false;
        }
        throw new IllegalArgumentException("'" + s + "' is neither " + yes + " nor " + no);
    }

    private static List<Figure> load() {
        try (InputStream in = FileShapeIbmFigures.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("no resource " + RESOURCE);
            }
            return parse(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
