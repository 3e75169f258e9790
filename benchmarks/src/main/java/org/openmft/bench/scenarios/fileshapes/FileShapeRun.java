package org.openmft.bench.scenarios.fileshapes;

import org.openmft.bench.harness.ConnectionMode;
import org.openmft.bench.measure.TimedRun;
import org.openmft.bench.peers.Peer;

/**
 * One measured run of the seed 000 matrix: an agent cell, the raw JMS ceiling of a group of cells,
 * or a peer on a file set.
 *
 * @param kind       what ran
 * @param group      the mode, chunk size and file set; for a peer, the mode and chunk size of the
 *                   agent cell it ran next to
 * @param cell       the agent cell, or null for raw JMS and peers
 * @param peer       the peer's id ({@link Peer#id()}), or null
 * @param repetition from 1
 * @param bytes      payload bytes moved
 * @param files      files moved (0 for raw JMS)
 * @param wallNanos  from the first put (or exec) to the last final reply (or exit)
 * @param cpu        the CPU it cost, split where this JVM can tell
 * @param resends    chunk resends the agents reported (0 when healthy)
 * @param failure    why the run does not count, or null when it succeeded and every file verified
 */
public record FileShapeRun(Kind kind, Group group, Cell cell, String peer, int repetition, long bytes, int files,
        long wallNanos, Cpu cpu, int resends, String failure) implements TimedRun {

    /** What a run measures. */
    enum Kind {
        AGENT("agent"), RAW_JMS("raw-jms"), PEER("peer");

        public final String id;

        Kind(String id) {
            this.id = id;
        }
    }

    /**
     * The cells that share one raw JMS ceiling: same connection, same message size, same bytes.
     *
     * @param mode       how the agents (and the raw JMS run) connect
     * @param chunkBytes agentChunkSize, and the raw JMS message size
     * @param fileSet    the files
     */
    record Group(ConnectionMode mode, int chunkBytes, FileShapeMatrix.FileSet fileSet) {
    }

    /**
     * One cell of IBM's matrix.
     *
     * @param text     text mode (else binary)
     * @param md5      MD5 checksum (else none)
     * @param parallel the files as {@link FileShapeMatrix#PARALLEL_TRANSFERS} transfers put at once (else one)
     */
    record Cell(Group group, boolean text, boolean md5, boolean parallel) {
        /** "bindings 262144 20 x 100 MiB text md5 10 parallel" for logs and failures. */
        String label() {
            return group.mode().label + " " + group.chunkBytes() + " " + group.fileSet().label() + " "
                    + (text ? "text" : "binary") + " " + (md5 ? "md5" : "none") + " "
                    + (parallel ? FileShapeMatrix.PARALLEL_TRANSFERS + " parallel" : "single");
        }
    }

    /**
     * CPU nanoseconds of a run; -1 where not measured.
     *
     * @param total        the process (this JVM; for a peer, its processes)
     * @param source       the source agent's threads ({@code openmft-<source agent>-*})
     * @param destination  the destination agent's threads
     * @param queueManager the rest of this JVM: the queue manager, the transport (Artemis and Netty
     *                     threads, the agents' client-side JMS threads among them), GC and JIT
     */
    public record Cpu(long total, long source, long destination, long queueManager) {
        public static final Cpu UNKNOWN = new Cpu(-1, -1, -1, -1);

        /** Only a total. */
        public static Cpu total(long nanos) {
            return new Cpu(nanos, -1, -1, -1);
        }
    }

    /** "agent bindings 262144 ...", "raw JMS bindings 262144 20 x 100 MiB", "peer cp 20 x 100 MiB". */
    String label() {
        return switch (kind) {
            case AGENT -> cell.label();
            case RAW_JMS -> "raw JMS " + group.mode().label + " " + group.chunkBytes() + " " + group.fileSet().label();
            case PEER -> "peer " + peer + " " + group.fileSet().label();
        };
    }
}
