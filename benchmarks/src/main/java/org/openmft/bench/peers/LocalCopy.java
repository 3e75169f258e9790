package org.openmft.bench.peers;

import org.openmft.bench.scenarios.transfer.Sample;
import org.openmft.bench.scenarios.transfer.Scenario;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;

/**
 * The local copy ceiling: {@code cp} of the file (a process of its own, so its CPU is not this
 * JVM's), then an fsync of the copy, timed apart. The agents force their data to disk at every
 * checkpoint and at the end of each file, {@code cp} does not: "cp + fsync" is the fair ceiling
 * for durable writes, and the fsync also keeps cp's dirty pages from being written back during
 * the next scenario.
 */
public final class LocalCopy {
    private LocalCopy() {
    }

    public static Sample run(Scenario scenario, int repetition, Path source, Path destination, long timeoutMillis)
            throws IOException, InterruptedException {
        long bytes = java.nio.file.Files.size(source);
        ProcessBuilder pb = new ProcessBuilder("cp", source.toString(), destination.toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        long t0 = System.nanoTime();
        Process p = pb.start();
        if (!p.waitFor(timeoutMillis, TimeUnit.MILLISECONDS)) {
            p.destroyForcibly();
            return Sample.failed(scenario, repetition, bytes, 1, "cp did not finish within " + timeoutMillis / 1000
                    + " s");
        }
        long copied = System.nanoTime();
        if (p.exitValue() != 0) {
            return Sample.failed(scenario, repetition, bytes, 1, "cp exited with " + p.exitValue());
        }
        try (FileChannel ch = FileChannel.open(destination, StandardOpenOption.WRITE)) {
            ch.force(true);
        }
        long synced = System.nanoTime();
        return new Sample(scenario, repetition, bytes, 1, copied - t0, -1, synced - copied, 0, null, null);
    }
}
