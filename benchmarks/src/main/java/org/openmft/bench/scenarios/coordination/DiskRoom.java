package org.openmft.bench.scenarios.coordination;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import org.apache.activemq.artemis.api.config.ActiveMQDefaultConfiguration;
import org.openmft.bench.Scale;

/**
 * Room on the disk for the coordination scenario, reckoned as the queue managers reckon it.
 *
 * <p>The queue managers keep Artemis's default {@code max-disk-usage} (90%): once the file system
 * of their journals is fuller than that, Artemis blocks every producer until space is freed, as
 * designed. The cell's times are then the disk's, not the agents'. So a cell needs its files (its
 * sources and as much again at the destinations) plus the queue managers' journals and pages
 * below that line, not merely in the free space: on a file system of 250 GiB the last tenth, 25
 * GiB, is not room. A cell that would cross the line is not run, and says why; a round that
 * crosses it anyway (something else filled the disk) ends at once instead of waiting for its
 * timeout.
 */
final class DiskRoom {
    /** The queue managers' journals, pages and logger database for a cell, beside its files. */
    static final long QUEUE_MANAGER_ALLOWANCE = 2 * Scale.GIB;

    private DiskRoom() {
    }

    /** Artemis's default max-disk-usage as a share of the file system (0.9). */
    static double limit() {
        return ActiveMQDefaultConfiguration.getDefaultMaxDiskUsage() / 100.0;
    }

    /** The bytes a cell of {@code pairs} transfers of {@code fileBytes} files adds to the disk while it runs. */
    static long destinationBytes(int pairs, long fileBytes, long smallFileBytes) {
        return pairs * (CoordinationScenario.FILES_PER_TRANSFER * fileBytes + smallFileBytes);
    }

    /**
     * The bytes {@code pairs} pairs need: their source files, as much again at the destinations,
     * and the queue managers' allowance.
     */
    static long cellBytes(int pairs, long fileBytes, long smallFileBytes) {
        return 2 * destinationBytes(pairs, fileBytes, smallFileBytes) + QUEUE_MANAGER_ALLOWANCE;
    }

    /** The bytes that may still be written before a file system of {@code total} bytes passes {@code limit}. */
    static long roomBelow(long total, long usable, double limit) {
        return Math.max(0, usable - (long) Math.ceil((1 - limit) * total));
    }

    /**
     * Why {@code needed} bytes do not fit below {@code limit} of a file system of {@code total}
     * bytes with {@code usable} free, or null when they do.
     */
    static String shortfall(long total, long usable, long needed, double limit) {
        long room = roomBelow(total, usable, limit);
        if (needed <= room) {
            return null;
        }
        return String.format(Locale.ROOT, "needs %.1f GiB of disk and has %.1f GiB: %.1f GiB are free, but the last"
                + " %.0f%% of the file system's %.0f GiB is past the queue managers' max-disk-usage of %.0f%%, where"
                + " Artemis blocks every producer", needed / (double) Scale.GIB, room / (double) Scale.GIB,
                usable / (double) Scale.GIB, 100 * (1 - limit), total / (double) Scale.GIB, 100 * limit);
    }

    /**
     * As {@link #shortfall(long, long, long, double)} for the file system of {@code dir} now, once
     * {@code freed} bytes on it are deleted.
     */
    static String shortfall(Path dir, long needed, long freed) throws IOException {
        FileStore store = Files.getFileStore(dir);
        return shortfall(store.getTotalSpace(), store.getUsableSpace() + freed, needed, limit());
    }

    /**
     * As {@link #roomBelow(long, long, double)} for the file system of {@code dir} now, below
     * {@link #limit()}, once {@code freed} bytes on it are deleted.
     */
    static long room(Path dir, long freed) throws IOException {
        FileStore store = Files.getFileStore(dir);
        return roomBelow(store.getTotalSpace(), store.getUsableSpace() + freed, limit());
    }

    /**
     * The largest of {@code pairCounts} whose cell fits in {@code room} bytes, files of
     * {@code fileBytes} generated for it, or 0 when none does.
     */
    static int largestFitting(List<Integer> pairCounts, long fileBytes, long smallFileBytes, long room) {
        int best = 0;
        for (int pairs : pairCounts) {
            if (pairs > best && cellBytes(pairs, fileBytes, smallFileBytes) <= room) {
                best = pairs;
            }
        }
        return best;
    }

    /** The share of {@code dir}'s file system in use, as Artemis reckons it for max-disk-usage. */
    static double usedShare(Path dir) throws IOException {
        FileStore store = Files.getFileStore(dir);
        return 1.0 - (double) store.getUsableSpace() / store.getTotalSpace();
    }
}
