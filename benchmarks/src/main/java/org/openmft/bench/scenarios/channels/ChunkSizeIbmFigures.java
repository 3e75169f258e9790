package org.openmft.bench.scenarios.channels;

import org.openmft.bench.report.FigureCsv;
import org.openmft.bench.report.Report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;

/**
 * Seed 002's bindings tables ("WebSphere MQ V7.5 Managed File Transfer Performance Report for
 * Windows", 2012, section 2.1, tables 1 to 4): 1 GB of text files as 1 MB, 10 MB or 100 MB files,
 * agentChunkSize 65536 to 524288, one transfer or ten; agents bound to their own queue managers
 * joined by channels. Read from the resource {@code seed002-ibm.csv}, which says where each row is.
 */
final class ChunkSizeIbmFigures {
    static final String RESOURCE = "/seed002-ibm.csv";

    /**
     * One row as IBM printed it; the CPU cells keep their printed text ("20%", "22.91%").
     *
     * @param chunkBytes       agentChunkSize (headings misprint 65536 as 65635 and 524288 as 524228)
     * @param fileMegabytes    1, 10 or 100
     * @param parallel         "Multi Transfer": the files as 10 transfers, else one
     * @param agent1Cpu        "Agent1- CPU", as printed without its %
     * @param agent2Cpu        "Agent2- CPU"
     * @param coordCpu         "Coord- CPU"
     * @param seconds          "Transfer Time"
     * @param megabitsPerSecond "Transfer Rate", printed as "Mb"
     * @param where            the report's heading and the line of the seed file
     */
    record Figure(int chunkBytes, int fileMegabytes, boolean parallel, String agent1Cpu, String agent2Cpu,
            String coordCpu, double seconds, double megabitsPerSecond, String where) {
    }

    private static final List<Figure> ALL = load();

    private ChunkSizeIbmFigures() {
    }

    static List<Figure> all() {
        return ALL;
    }

    /** IBM's row for one cell, if the report has it. */
    static Optional<Figure> find(int chunkBytes, int fileMegabytes, boolean parallel) {
        return ALL.stream().filter(f -> f.chunkBytes() == chunkBytes && f.fileMegabytes() == fileMegabytes
                && f.parallel() == parallel).findFirst();
    }

    /**
     * The CSV: a header line, then 9 fields {@code chunk_bytes,file_mb,transfers,agent1_cpu_pct,
     * agent2_cpu_pct,coord_cpu_pct,seconds,rate_mbit,where} with transfers single|multi and where
     * in double quotes; lines starting with # are comments.
     */
    static List<Figure> parse(InputStream in) throws IOException {
        return FigureCsv.read(in, RESOURCE, 9, f -> {
            String transfers = f[2].trim();
            if (!transfers.equals("single") && !transfers.equals("multi")) {
                throw new IllegalArgumentException("'" + transfers + "' is neither single nor multi");
            }
            return new Figure(Integer.parseInt(f[0].trim()), Integer.parseInt(f[1].trim()), transfers.equals("multi"),
                    percent(f[3]), percent(f[4]), percent(f[5]), Double.parseDouble(f[6].trim()),
                    Double.parseDouble(f[7].trim()), f[8].trim().replaceAll("^\"|\"$", ""));
        });
    }

    /** A CPU cell: a number, kept as printed. */
    private static String percent(String v) {
        String s = v.trim();
        Double.parseDouble(s); // a NumberFormatException (an IllegalArgumentException) names a bad cell
        return s;
    }

    private static List<Figure> load() {
        try (InputStream in = ChunkSizeIbmFigures.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("no resource " + RESOURCE);
            }
            return parse(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
