package org.openmft.bench.peers;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The durable copy limit: {@code cp} of the files into the destination directory, then
 * {@code sync} of the copies (coreutils' {@code sync FILE...} fsyncs each one), timed together, CPU
 * of both processes counted. What no file transfer that leaves its files on disk can beat on this
 * machine; {@link CopyPeer} is the same copy left in the page cache. Only the copies are synced,
 * not the whole machine's dirty pages, which on a shared machine would time other people's writes.
 */
final class DurableCopyPeer implements Peer {
    private final CopyPeer copy = new CopyPeer();

    @Override
    public String id() {
        return "cp-sync";
    }

    @Override
    public String label() {
        return "`cp` then `sync` of the copies (GNU coreutils; durable copy limit)";
    }

    @Override
    public String unavailable() {
        return null;
    }

    @Override
    public Run copy(List<Path> sources, Path destinationDir, long timeoutMillis) throws Exception {
        Run copied = copy.copy(sources, destinationDir, timeoutMillis);
        if (!copied.ok()) {
            return copied;
        }
        List<String> sync = new ArrayList<>(List.of("sync", "--"));
        sources.forEach(p -> sync.add(destinationDir.resolve(p.getFileName()).toString()));
        Run synced = CopyPeer.runProcess(sync, timeoutMillis);
        long cpu = copied.cpuNanos() < 0 || synced.cpuNanos() < 0 ? -1 : copied.cpuNanos() + synced.cpuNanos();
        return new Run(copied.wallNanos() + synced.wallNanos(), cpu, synced.failure());
    }

    @Override
    public void close() {
        // Nothing started.
    }
}
