package org.openmft.bench.measure;

import org.openmft.bench.Scale;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** What the figures were measured on, as label/value pairs for the report and the JSON. */
public final class MachineInfo {
    private MachineInfo() {
    }

    /**
     * The run table's description of this machine and JVM. It names no path of the machine: the
     * work directory appears as its file system and free space, and absolute paths in the JVM
     * options are replaced by {@value #PATH}, so a committed report does not say where a run lay.
     */
    public static Map<String, String> describe(Path workDir) {
        return describe(workDir, ManagementFactory.getRuntimeMXBean().getInputArguments());
    }

    /** What stands for an absolute path in the description. */
    static final String PATH = "<path>";

    public static Map<String, String> describe(Path workDir, List<String> jvmArguments) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("cores (available to the JVM)", String.valueOf(Runtime.getRuntime().availableProcessors()));
        String cpu = cpuModel();
        if (cpu != null) {
            m.put("CPU", cpu);
        }
        long memory = CpuClock.totalMemoryBytes();
        if (memory > 0) {
            m.put("memory", String.format("%.1f GiB", memory / (double) Scale.GIB));
        }
        m.put("OS", System.getProperty("os.name") + " " + System.getProperty("os.version") + " ("
                + System.getProperty("os.arch") + ")");
        m.put("Java", System.getProperty("java.vendor") + " " + System.getProperty("java.version") + " ("
                + System.getProperty("java.vm.name") + ")");
        m.put("JVM options", jvmArguments.isEmpty() ? "(none)" : withoutPaths(String.join(" ", jvmArguments)));
        m.put("max heap", String.format("%.1f GiB", Runtime.getRuntime().maxMemory() / (double) Scale.GIB));
        String reclaim = java.util.stream.Stream.of(damonReclaim(), FreePageReporting.describe(FreePageReporting.PARAMETERS))
                .filter(java.util.Objects::nonNull).collect(java.util.stream.Collectors.joining("; "));
        if (!reclaim.isEmpty()) {
            m.put("memory reclaim", reclaim);
        }
        try {
            FileStore store = Files.getFileStore(workDir);
            String journal = ext4WithoutJournal(store.type(), store.name(), Path.of("/proc/fs"));
            m.put("work directory", store.type() + String.format(", %.1f GiB free",
                    store.getUsableSpace() / (double) Scale.GIB) + (journal == null ? "" : "; " + journal));
        } catch (IOException e) {
            m.put("work directory", "?");
        }
        return m;
    }

    /**
     * What an ext4 file system without a journal (as on some virtual machines) does to file
     * creation, or null for any other file system. Without a journal, ext4 does not reuse an inode
     * deleted in the last one to six minutes: it walks past each one, looking up its inode table
     * block, before it can create a file. Where many files were just deleted (the benchmark empties
     * its destinations between repetitions; an agent deletes its transfers' state files), each new
     * file costs a walk past all of them, on the agents and the peers alike. {@code procFs} is
     * {@code /proc/fs}, where the kernel lists each ext4 file system and, under {@code jbd2}, the
     * journaled ones.
     */
    static String ext4WithoutJournal(String type, String device, Path procFs) {
        if (!"ext4".equals(type) || device == null || device.isEmpty()) {
            return null;
        }
        String name = Path.of(device).getFileName().toString();
        if (!Files.isDirectory(procFs.resolve("ext4").resolve(name))) {
            return null;
        }
        try (var journals = Files.list(procFs.resolve("jbd2"))) {
            if (journals.anyMatch(j -> j.getFileName().toString().startsWith(name + "-"))) {
                return null;
            }
        } catch (IOException e) {
            // No jbd2 directory: no journal on any file system.
        }
        return "no journal: a new file walks past every inode deleted in the last minutes, so creating files"
                + " right after deleting many costs CPU (agents and peers alike)";
    }

    /** {@code text} with every absolute path (after a start, a space, '=' or ':') replaced by {@value #PATH}. */
    static String withoutPaths(String text) {
        return text.replaceAll("(^|[\\s=:])/[^\\s:]*", "$1" + PATH);
    }

    /**
     * Whether the kernel's DAMON pages out memory it sees as cold (as on some virtual machines): then
     * idle page cache goes back to disk, and first touches of memory cost more.
     */
    private static String damonReclaim() {
        Path kdamonds = Path.of("/sys/kernel/mm/damon/admin/kdamonds");
        try (var dirs = Files.list(kdamonds)) {
            for (Path d : (Iterable<Path>) dirs::iterator) {
                Path state = d.resolve("state");
                if (!Files.isRegularFile(state) || !"on".equals(Files.readString(state).trim())) {
                    continue;
                }
                try (var actions = Files.find(d, 5, (p, a) -> p.getFileName().toString().equals("action"))) {
                    for (Path a : (Iterable<Path>) actions::iterator) {
                        if ("pageout".equals(Files.readString(a).trim())) {
                            return "DAMON pageout is on: the kernel reclaims memory it sees as idle, page cache"
                                    + " included";
                        }
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // Not Linux, or no DAMON: nothing to say.
        }
        return null;
    }

    /** The CPU's model name ("AMD EPYC"), or null when the system does not say. */
    public static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            // Not Linux: the model is optional.
        }
        return null;
    }

    /**
     * The source revision measured ("abc1234", with "+ local changes" when the tree is dirty), or
     * null. The report, its charts and its goals' figures file, which the benchmark itself rewrites
     * section by section, do not count as local changes: a second section run after a first would
     * otherwise be labelled with changes that are only the first section's figures.
     */
    public static String gitRevision() {
        String head = run("git", "rev-parse", "--short", "HEAD");
        if (head == null) {
            return null;
        }
        String status = run("git", "status", "--porcelain", "--untracked-files=no", "--", ":/",
                ":(top,exclude)docs/performance.md", ":(top,exclude)docs/img",
                ":(top,exclude,glob)docs/performance-headline-*.json");
        return status == null || status.isEmpty() ? head : head + " + local changes";
    }

    private static String run(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim();
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                return null;
            }
            return out;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
