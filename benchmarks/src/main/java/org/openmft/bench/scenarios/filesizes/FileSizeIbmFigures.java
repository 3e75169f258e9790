package org.openmft.bench.scenarios.filesizes;

import org.openmft.bench.Scale;
import org.openmft.bench.report.Charts;

import java.util.List;

/**
 * IBM's figures from seed 003 ("IBM MQ for z/OS - Managed File Transfer Performance", version
 * 1.02, March 2021), Appendix C, "Binary transfers –
 * Achieved transfer rate in MB/second" and "Binary transfers - Cost per GB transferred in CPU
 * seconds": the rows with private queues, zHPF, no TLS, no AMS, no channel compression, put to
 * waiting getter and BATCHINT 0, for the routes that involve Unix System Services files (the z/OS
 * counterpart of files in a directory). Agents default-configured (agentChunkSize 256 KB, window 10,
 * frame 5, checkpoint interval 1), binary, a measurement moving at least 1 GB (1 MB files: at least
 * 1024 of them), costs from RMF across the sysplex with zIIPs offline. The transcription is checked
 * against the seed by hand; the report prints it as is.
 */
final class FileSizeIbmFigures {
    /** The file sizes of every row, in the report's units ("1MB" .. "1GB"). */
    static final List<String> SIZES = List.of("1MB", "10MB", "100MB", "1GB");

    /**
     * One row of both tables.
     *
     * @param route          source → target, as the report names them
     * @param network        "1Gb" or "10Gb"
     * @param mbPerSecond    achieved transfer rate for 1MB, 10MB, 100MB, 1GB files
     * @param cpuSecondsPerGb cost per GB for the same
     * @param costCovers     which systems the cost is measured on
     */
    record Row(String route, String network, List<Double> mbPerSecond, List<Double> cpuSecondsPerGb,
            String costCovers) {
    }

    static final String WHERE = "seed 003, Appendix C, \"Binary transfers – Achieved transfer rate in MB/second\" and"
            + " \"Binary transfers - Cost per GB transferred in CPU seconds\"";

    /** The baseline first (USS to USS on the default 1 Gb network, the report's Charts 9 and 10). */
    static final List<Row> ROWS = List.of(
            new Row("USS → USS", "1Gb", List.of(56.51, 76.58, 100.76, 100.43), List.of(19.06, 12.25, 8.57, 8.45),
                    "both z/OS LPARs"),
            new Row("USS → USS", "10Gb", List.of(76.82, 131.95, 221.93, 223.19), List.of(18.40, 11.30, 8.44, 7.99),
                    "both z/OS LPARs"),
            new Row("xLinux → USS", "1Gb", List.of(53.64, 71.70, 98.67, 99.99), List.of(22.31, 11.90, 7.13, 6.99),
                    "the z/OS LPAR only"),
            new Row("USS → xLinux", "1Gb", List.of(55.77, 74.70, 98.07, 98.28), List.of(19.41, 11.24, 6.99, 6.85),
                    "the z/OS LPAR only"));

    private FileSizeIbmFigures() {
    }

    /** The column of {@link #SIZES} for a file of {@code bytes}, or -1 when seed 003 has no such size. */
    static int column(long bytes) {
        if (bytes == Scale.MIB) {
            return 0;
        }
        if (bytes == 10 * Scale.MIB) {
            return 1;
        }
        if (bytes == 100 * Scale.MIB) {
            return 2;
        }
        return bytes == Scale.GIB ? 3 : -1;
    }
}
