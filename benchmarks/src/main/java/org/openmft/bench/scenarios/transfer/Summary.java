package org.openmft.bench.scenarios.transfer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The measured repetitions of one scenario (the warm-up, repetition 0, is left out), reduced to
 * medians. A scenario with any failed repetition has no figures: {@link #failed()} says why.
 */
public final class Summary {
    public final Scenario scenario;
    public final List<Sample> samples;

    public Summary(Scenario scenario, List<Sample> all) {
        this.scenario = scenario;
        List<Sample> mine = new ArrayList<>();
        for (Sample s : all) {
            if (s.scenario() == scenario && s.repetition() > 0) {
                mine.add(s);
            }
        }
        this.samples = List.copyOf(mine);
    }

    public boolean ran() {
        return !samples.isEmpty();
    }

    /** The first failure, or null when every repetition succeeded (and at least one ran). */
    public String failed() {
        for (Sample s : samples) {
            if (!s.ok()) {
                return "repetition " + s.repetition() + ": " + s.failure();
            }
        }
        return samples.isEmpty() ? "did not run" : null;
    }

    public boolean ok() {
        return failed() == null;
    }

    public long bytes() {
        return samples.isEmpty() ? 0 : samples.get(0).bytes();
    }

    public int files() {
        return samples.isEmpty() ? 0 : samples.get(0).files();
    }

    public double medianSeconds() {
        return median(samples.stream().mapToDouble(Sample::seconds).toArray());
    }

    public double medianMbPerSecond() {
        return median(samples.stream().mapToDouble(Sample::mbPerSecond).toArray());
    }

    public double minMbPerSecond() {
        return samples.stream().mapToDouble(Sample::mbPerSecond).min().orElse(Double.NaN);
    }

    public double maxMbPerSecond() {
        return samples.stream().mapToDouble(Sample::mbPerSecond).max().orElse(Double.NaN);
    }

    public double medianCpuSecondsPerGib() {
        return median(samples.stream().mapToDouble(Sample::cpuSecondsPerGib).toArray());
    }

    public double medianCoresBusy() {
        return median(samples.stream().mapToDouble(Sample::coresBusy).toArray());
    }

    public double medianExtraSeconds() {
        return median(samples.stream().mapToDouble(s -> s.extraNanos() / 1e9).toArray());
    }

    /** Median of (bytes / (wall + extra)): for cp, the rate including the fsync. */
    public double medianMbPerSecondWithExtra() {
        return median(samples.stream().mapToDouble(s -> s.bytes() / 1e6 / ((s.wallNanos() + s.extraNanos()) / 1e9))
                .toArray());
    }

    public int resends() {
        return samples.stream().mapToInt(Sample::resends).sum();
    }

    /**
     * This scenario's rate as a fraction of {@code other}'s, repetition by repetition (the runs that
     * sat next to each other).
     */
    public double[] pairedRatios(Summary other) {
        return pairedRatios(other, Sample::mbPerSecond);
    }

    /** As {@link #pairedRatios(Summary)}, of {@code figure} (CPU per GiB, ...) instead of the rate. */
    public double[] pairedRatios(Summary other, java.util.function.ToDoubleFunction<Sample> figure) {
        List<Double> r = new ArrayList<>();
        for (Sample s : samples) {
            for (Sample o : other.samples) {
                if (o.repetition() == s.repetition() && s.ok() && o.ok()) {
                    r.add(figure.applyAsDouble(s) / figure.applyAsDouble(o));
                }
            }
        }
        return r.stream().mapToDouble(Double::doubleValue).toArray();
    }

    public static double median(double[] values) {
        double[] v = Arrays.stream(values).filter(d -> !Double.isNaN(d)).sorted().toArray();
        if (v.length == 0) {
            return Double.NaN;
        }
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
