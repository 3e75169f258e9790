package org.openmft.bench.peers;

import java.nio.file.Path;
import java.util.List;

/**
 * What users pick instead of an MFT agent, moving the same files on the same machine so that its
 * figures sit beside the agent's from the same run: {@code cp}, rsync, rsync or sftp over ssh on
 * loopback, an Apache Camel route file → JMS → file. A peer reports time and the CPU it cost,
 * read from the operating system for every process it ran (and, for an in-JVM peer, this JVM's
 * CPU); the caller checks the bytes that arrived.
 */
public interface Peer extends AutoCloseable {
    /** Short id for CSV, JSON and chart legends: "cp", "rsync", "rsync-ssh", "sftp", "camel-jms". */
    String id();

    /** What the report calls it, with the version where one is known ("rsync 3.2.7 over OpenSSH_9.2p1"). */
    String label();

    /**
     * Null when this peer can run here; otherwise why not, naming what to install
     * ("rsync is not installed: apt-get install rsync"). A peer that cannot run is listed as such
     * in the report, never left out silently.
     */
    String unavailable();

    /**
     * Copies {@code sources} (regular files) into {@code destinationDir} under their own file names,
     * and returns when every byte is in place as the peer leaves it (not necessarily on disk).
     * Nothing is timed outside this call.
     */
    Run copy(List<Path> sources, Path destinationDir, long timeoutMillis) throws Exception;

    /** Stops whatever the peer started (an sshd, a Camel context). */
    @Override
    void close();

    /**
     * One timed copy.
     *
     * @param wallNanos elapsed
     * @param cpuNanos  CPU of every process of the peer over the copy (user + system, from the OS),
     *                  or -1 when it cannot be read
     * @param failure   null, or why the copy failed (exit status, stderr)
     */
    record Run(long wallNanos, long cpuNanos, String failure) {
        boolean ok() {
            return failure == null;
        }
    }
}
