package org.openmft.bench.peers;

import org.openmft.bench.measure.CpuClock;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code cp} of the files into the destination directory, one process for all of them: the ceiling
 * of a local copy (the copy is in the page cache when it returns, not on disk).
 */
final class CopyPeer implements Peer {
    @Override
    public String id() {
        return "cp";
    }

    @Override
    public String label() {
        return "`cp` (GNU coreutils)";
    }

    @Override
    public String unavailable() {
        return null;
    }

    @Override
    public Run copy(List<Path> sources, Path destinationDir, long timeoutMillis) throws Exception {
        List<String> command = new ArrayList<>(List.of("cp", "--"));
        sources.forEach(p -> command.add(p.toString()));
        command.add(destinationDir.toString() + "/");
        return runProcess(command, timeoutMillis);
    }

    /**
     * Runs {@code command} to its end, timed, with its CPU (and that of the processes it waited for)
     * read from {@code /proc/self/stat} before and after.
     */
    static Run runProcess(List<String> command, long timeoutMillis) throws java.io.IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        long cpu0 = CpuClock.childrenCpuNanos();
        long t0 = System.nanoTime();
        Process p = pb.start();
        // Drained on this thread: the output of a failing command is its reason.
        byte[] output = p.getInputStream().readNBytes(64 * 1024);
        if (!p.waitFor(timeoutMillis, TimeUnit.MILLISECONDS)) {
            p.destroyForcibly();
            return new Run(System.nanoTime() - t0, -1, command.get(0) + " did not finish within "
                    + timeoutMillis / 1000 + " s");
        }
        long wall = System.nanoTime() - t0;
        long cpu1 = CpuClock.childrenCpuNanos();
        if (p.exitValue() != 0) {
            return new Run(wall, -1, command.get(0) + " exited with " + p.exitValue() + ": "
                    + new String(output, java.nio.charset.StandardCharsets.UTF_8).strip());
        }
        return new Run(wall, cpu0 < 0 || cpu1 < 0 ? -1 : cpu1 - cpu0, null);
    }

    @Override
    public void close() {
        // Nothing started.
    }
}
