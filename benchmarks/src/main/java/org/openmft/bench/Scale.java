package org.openmft.bench;

/**
 * How big a benchmark run is. Every scale runs every scenario; only the sizes and the number of
 * repetitions change.
 *
 * @param name            "full" or "quick", printed in the report
 * @param singleFileBytes the size of the single-file scenarios (agent, raw JMS, cp)
 * @param setFileCount    how many files the seed 000 headline set has
 * @param setFileBytes    the size of each file of that set
 * @param repetitions     how many times each scenario runs; the report shows the median
 */
public record Scale(String name, long singleFileBytes, int setFileCount, long setFileBytes, int repetitions) {
    public static final long MIB = 1L << 20;
    public static final long GIB = 1L << 30;

    /** 1 GiB file, 20 x 100 MiB (seed 000's 100 MB cell), five repetitions (a shared machine is noisy). */
    public static final Scale FULL = new Scale("full", GIB, 20, 100 * MIB, 5);
    /** The same scenarios at a quarter of the size or less: a check that everything works. */
    public static final Scale QUICK = new Scale("quick", 256 * MIB, 20, 16 * MIB, 3);

    public Scale {
        if (singleFileBytes <= 0 || setFileCount <= 0 || setFileBytes <= 0 || repetitions <= 0) {
            throw new IllegalArgumentException("sizes and repetitions must be positive");
        }
    }

    /** Total bytes of the file set. */
    long setBytes() {
        return setFileCount * setFileBytes;
    }

    public Scale withRepetitions(int n) {
        return new Scale(name, singleFileBytes, setFileCount, setFileBytes, n);
    }
}
