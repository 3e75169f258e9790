package org.openmft.bench.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** This process's memory as Linux reports it in /proc/self/status. */
public final class ProcStatus {
    private ProcStatus() {
    }

    /** A /proc/self/status value in MiB (VmRSS: resident now; VmHWM: its peak), or NaN where there is none. */
    public static double mib(String key) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith(key + ":")) {
                    return Long.parseLong(line.substring(key.length() + 1).trim().split("\\s+")[0]) / 1024.0;
                }
            }
        } catch (IOException | RuntimeException e) {
            // Not Linux.
        }
        return Double.NaN;
    }
}
