package org.openmft.bench.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A virtual machine's free page reporting: the kernel hands blocks of free memory back to the host
 * through a virtio balloon, and the host takes them away. The next first write into such a page then
 * faults in the host, and the thread writing pays it as system time. A file the benchmark has just
 * deleted frees its page cache, so the next repetition's destination is written into given-back
 * pages, on some repetitions and not others (docs/profiling.md, the full run of 2026-11-27, evening).
 *
 * <p>{@link #hold} turns reporting off for a run, as tuning tools for benchmarks (pyperf's {@code
 * system tune}) fix a CPU's frequency: it sets {@code page_reporting_order} above the largest order of
 * a free block, so no block qualifies, and sets the order back when the run ends, by {@link Hold#close}
 * or, should the JVM be stopped, by a shutdown hook. Memory freed meanwhile is given back after that.
 */
public final class FreePageReporting {
    /** Where the kernel shows the reporting's parameters. */
    public static final Path PARAMETERS = Path.of("/sys/module/page_reporting/parameters");
    /** The largest order of free blocks on x86-64 and arm64 (MAX_PAGE_ORDER): an order above it reports nothing. */
    static final int MAX_PAGE_ORDER = 10;
    private static final String ORDER = "page_reporting_order";
    private static final String REPORTED = "reported_kib";

    /** The order a hold replaced, while one is in force; else -1. */
    private static volatile int heldFrom = -1;

    private FreePageReporting() {
    }

    /**
     * The machine table's words on reporting, read from {@code parameters}: that it is on, that this
     * run holds it off, or null when there is no such reporting, it is off, it has given nothing
     * back, or the parameters cannot be read.
     */
    static String describe(Path parameters) {
        if (heldFrom >= 0) {
            return String.format(Locale.ROOT, "free page reporting held off for this run (--hold-page-reporting:"
                    + " order %d raised above the largest, %d, and set back afterwards)", heldFrom, MAX_PAGE_ORDER);
        }
        try {
            int order = order(parameters);
            long kib = Long.parseLong(Files.readString(parameters.resolve(REPORTED)).trim());
            if (order > MAX_PAGE_ORDER || kib == 0) {
                return null;
            }
            return String.format(Locale.ROOT, "free page reporting is on (blocks of order %d, %,.0f GiB"
                    + " given back to the host since boot): pages freed, a deleted file's page cache included, cost"
                    + " more on their next first write", order, kib / (double) (1 << 20));
        } catch (IOException | RuntimeException e) {
            // Not Linux, not a virtual machine with a balloon, or unreadable: nothing to say.
            return null;
        }
    }

    /**
     * Turns reporting off until the returned hold is closed. Fails, naming the reason, when this
     * machine has no reporting or its order cannot be changed (not root): the run must not go on
     * believing it is held when it is not. Nothing to hold (already off) is not a failure.
     */
    public static Hold hold(Path parameters) {
        Path file = parameters.resolve(ORDER);
        int before;
        try {
            before = order(parameters);
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("--hold-page-reporting: this machine has no free page reporting to hold ("
                    + file + " cannot be read: " + e.getMessage() + ")");
        }
        if (before > MAX_PAGE_ORDER) {
            return new Hold(parameters, -1);
        }
        if (!Files.isWritable(file)) {
            throw new IllegalStateException("--hold-page-reporting: " + file + " is not writable; run as root, or"
                    + " without the option");
        }
        Hold hold = new Hold(parameters, before);
        write(file, MAX_PAGE_ORDER + 1);
        heldFrom = before;
        Runtime.getRuntime().addShutdownHook(hold.hook);
        return hold;
    }

    private static int order(Path parameters) throws IOException {
        return Integer.parseInt(Files.readString(parameters.resolve(ORDER)).trim());
    }

    private static void write(Path file, int order) {
        try {
            Files.writeString(file, order + "\n");
        } catch (IOException e) {
            throw new IllegalStateException("--hold-page-reporting: cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** Reporting held off; closing it (or the JVM's end) sets the order back. */
    public static final class Hold implements AutoCloseable {
        private final Path file;
        private final int restore;
        private final Thread hook;
        private boolean closed;

        private Hold(Path parameters, int restore) {
            this.file = parameters.resolve(ORDER);
            this.restore = restore;
            this.hook = new Thread(this::restore, "bench-page-reporting-restore");
        }

        /** Whether this hold changed anything (reporting was on). */
        public boolean held() {
            return restore >= 0;
        }

        private synchronized void restore() {
            if (closed || restore < 0) {
                return;
            }
            closed = true;
            write(file, restore);
            heldFrom = -1;
        }

        @Override
        public void close() {
            restore();
            if (restore >= 0) {
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException e) {
                    // The JVM is already shutting down: the hook has run or runs now.
                }
            }
        }
    }
}
