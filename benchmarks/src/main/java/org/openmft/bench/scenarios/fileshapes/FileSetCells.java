package org.openmft.bench.scenarios.fileshapes;

import org.openmft.bench.harness.EmbeddedMft;
import org.openmft.bench.harness.TestFiles;
import org.openmft.bench.harness.TwoProcesses;
import org.openmft.bench.harness.TwoQueueManagers;
import org.openmft.bench.measure.CpuSplit;
import org.openmft.bench.measure.TransferCpu;
import org.openmft.bench.scenarios.channels.ChannelRun;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import org.openmft.bench.scenarios.fileshapes.FileShapeMatrix.FileSet;
import org.openmft.xml.ChecksumMethod;
import org.openmft.xml.Mode;
import org.openmft.xml.TransferItem;

/**
 * Cells of IBM's file-set reports (seed 000's, seed 002's) run between one pair of agents, wherever
 * they are: the set as one transfer or as {@value FileShapeMatrix#PARALLEL_TRANSFERS} put at once,
 * timed, then every destination file checked against its source.
 */
public final class FileSetCells {
    private FileSetCells() {
    }

    /**
     * One cell.
     *
     * @param set      the files
     * @param text     text mode (else binary)
     * @param md5      MD5 checksum (else none)
     * @param parallel the files as {@value FileShapeMatrix#PARALLEL_TRANSFERS} transfers (else one)
     */
    public record Cell(FileSet set, boolean text, boolean md5, boolean parallel) {
        /** "2000 x 1 MiB binary MD5 one". */
        public String id() {
            return set.label() + " " + (text ? "text" : "binary") + " " + (md5 ? "MD5" : "none") + " "
                    + (parallel ? FileShapeMatrix.PARALLEL_TRANSFERS + " parallel" : "one");
        }

        /** IBM's name of the row: "Source:1MB SingleTransfer". */
        public String ibmTest() {
            return "Source:" + set.ibmFileMegabytes() + "MB " + (parallel ? "MultiTransfer" : "SingleTransfer");
        }
    }

    /** A pair of agents and how transfers between them are requested. */
    public interface Agents {
        String source();

        String destination();

        List<EmbeddedMft.Result> transferAll(List<List<TransferItem>> transfers, long timeoutMillis) throws Exception;

        /** Starts measuring the CPU of a run between them. */
        CpuSplit startCpu();
    }

    /** The agents of {@code pair} on the one queue manager of {@code mft}. */
    public static Agents on(EmbeddedMft mft, EmbeddedMft.Pair pair) {
        return agents(pair.source(), pair.destination(), (t, ms) -> mft.transferAll(pair, t, ms),
                () -> TransferCpu.start(pair.source(), pair.destination()));
    }

    /** The agents of {@code pair} on the two queue managers of {@code two}. */
    public static Agents on(TwoQueueManagers two, TwoQueueManagers.Pair pair) {
        return agents(pair.source(), pair.destination(), (t, ms) -> two.transferAll(pair, t, ms),
                () -> TransferCpu.start(pair.source(), pair.destination()));
    }

    /** The agents of {@code two}, each hosted by its queue manager's process; the CPU is the processes'. */
    public static Agents on(TwoProcesses two) {
        return agents(two.source(), two.destination(), two::transferAll, two::startCpu);
    }

    private interface Request {
        List<EmbeddedMft.Result> transferAll(List<List<TransferItem>> transfers, long timeoutMillis) throws Exception;
    }

    private static Agents agents(String source, String destination, Request request, Supplier<CpuSplit> cpu) {
        return new Agents() {
            @Override
            public String source() {
                return source;
            }

            @Override
            public String destination() {
                return destination;
            }

            @Override
            public List<EmbeddedMft.Result> transferAll(List<List<TransferItem>> transfers, long timeoutMillis)
                    throws Exception {
                return request.transferAll(transfers, timeoutMillis);
            }

            @Override
            public CpuSplit startCpu() {
                return cpu.get();
            }
        };
    }

    /** Runs {@code cell} between {@code agents}, as {@code variant}, and checks every destination file. */
    public static ChannelRun run(FileShapeFiles files, Cell cell, String variant, int repetition, Agents agents)
            throws Exception {
        return run(files, cell, variant, repetition, agents, files.sources(cell.set(), cell.text()));
    }

    /** As {@link #run(FileShapeFiles, Cell, String, int, Agents)}, on {@code sources} only (a warm-up's few). */
    public static ChannelRun run(FileShapeFiles files, Cell cell, String variant, int repetition, Agents agents,
            List<Path> sources) throws Exception {
        files.cleanDestination();
        TestFiles.preload(sources);
        Mode mode = cell.text() ? Mode.TEXT : Mode.BINARY;
        ChecksumMethod checksum = cell.md5() ? ChecksumMethod.MD5 : ChecksumMethod.NONE;
        List<List<TransferItem>> transfers = new ArrayList<>();
        for (List<Path> part : FileShapeMatrix.split(sources, cell.parallel() ? FileShapeMatrix.PARALLEL_TRANSFERS : 1)) {
            transfers.add(part.stream().map(p -> EmbeddedMft.item(mode, p, files.destinationFor(p), checksum)).toList());
        }
        long bytes = 0;
        for (Path p : sources) {
            bytes += Files.size(p);
        }
        long timeout = FileShapeMatrix.timeoutMillis(bytes);
        return ChannelRun.time(cell.id(), variant, repetition, bytes, sources.size(), agents::startCpu,
                () -> agents.transferAll(transfers, timeout), () -> files.verify(sources));
    }
}
