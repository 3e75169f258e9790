package org.openmft.bench.scenarios.fileshapes;

import org.openmft.bench.report.Report;

import java.util.List;

/**
 * IBM's figures for the seed 000 headline cell we run (2 GB as 20 x 100 MB files, bindings), from
 * "IBM MQ 9.0.5 Managed File Transfer Performance Report for Windows" (2018). IBM's set-up: agents on separate 4-vCPU machines,
 * each with its own queue manager, joined by sender/receiver channels.
 */
public final class HeadlineCellIbmFigures {
    /**
     * One figure of the report.
     *
     * @param cell    what IBM measured
     * @param seconds IBM's transfer time
     * @param source  where it is in the report
     * @param same    whether it is the same cell as ours (one transfer, binary, MD5, 256 KiB chunks)
     */
    public record Figure(String cell, double seconds, String source, boolean same) {
    }

    /** The cell we run: one transfer, binary, MD5, agentChunkSize 262144 (IBM's default). */
    public static final Figure SAME_CELL = new Figure("one transfer, binary, MD5, agentChunkSize 262144", 46.89,
            "table 2.1.2.8, row \"Source:100MB SingleTransfer\"", true);

    /** All the reference figures the report shows, the same cell first. */
    public static final List<Figure> FIGURES = List.of(
            SAME_CELL,
            new Figure("one transfer, binary, MD5, best chunk size (131072)", 45.55,
                    "table 2.1.2.4 (the summary 2.1.3.8 prints 42.46 s, which is the 1 MB multi-transfer row of"
                            + " that table)", false),
            new Figure("one transfer, binary, no checksum, best chunk size (524288)", 30.98,
                    "table 2.1.3.3; summary 2.1.3.7", false),
            new Figure("10 parallel transfers of 2 files, binary, MD5, agentChunkSize 262144", 17.48,
                    "table 2.1.2.8; summary 2.1.3.8", false),
            new Figure("10 parallel transfers of 2 files, binary, no checksum, agentChunkSize 262144 (IBM's best"
                    + " 100 MB figure in bindings mode)", 15.50, "table 2.1.2.7; summary 2.1.3.7", false));

    /** The product brief's bar: every cell at least this many times faster than the seed's figure. */
    public static final double REQUIRED_SPEEDUP = 5.0;

    private HeadlineCellIbmFigures() {
    }
}
