package org.openmft.cli;

import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;
import java.util.Objects;

import org.openmft.client.ProgressEvent;

/**
 * Shows a transfer's live progress publications ({@link ProgressEvent}, reference §5.3) while
 * {@code mft transfer create -w} waits for the outcome. Two styles:
 * <ul>
 *   <li>{@link Style#BAR}, for a terminal: one line redrawn in place with {@code \r}, at most once
 *       every {@link #BAR_INTERVAL}: a bar, percentage, bytes done of the total, rate, time left,
 *       items done of the total and the current file's name, shortened to fit the width;</li>
 *   <li>{@link Style#LINES}, for logs and pipes: a plain line at most every {@link #LINE_INTERVAL},
 *       such as {@code [10:15:31] 42% 420 MiB of 1.0 GiB, 210 MB/s, item 3 of 10: name.bin}.</li>
 * </ul>
 * Without a known total (see {@link SourceEstimate}) the bytes and the rate are shown with no
 * percentage, bar or time left. The rate is measured over the publications of the last
 * {@link #RATE_WINDOW}, by the agent's publication times, so a stall shows as a falling rate.
 *
 * <p>Publications arrive on a messaging thread while the command's thread waits for the reply:
 * every method is synchronized. The clock decides throttling and the time of plain lines, so tests
 * need no sleeps.
 */
final class ProgressRenderer {
    /** How progress is shown. */
    enum Style {
        /** A single line redrawn in place: for terminals. */
        BAR,
        /** Plain periodic lines: for pipes and log files. */
        LINES,
        /** Nothing. */
        OFF
    }

    /** Least time between two redraws of the bar. */
    static final Duration BAR_INTERVAL = Duration.ofMillis(250);
    /** Least time between two plain lines. */
    static final Duration LINE_INTERVAL = Duration.ofSeconds(5);
    /** The span of publications the rate is measured over. */
    static final Duration RATE_WINDOW = Duration.ofSeconds(10);
    /** Width assumed when the terminal's is unknown. */
    static final int DEFAULT_WIDTH = 80;

    private static final int BAR_CELLS = 16;
    private static final int MIN_NAME = 6;
    private static final int MAX_LINE_NAME = 60;
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT);

    /** One publication's position, for the rate. */
    private record Sample(Instant time, long bytes) {
    }

    private final Style style;
    private final PrintWriter out;
    private final Clock clock;
    private SourceEstimate estimate;
    private final int width;
    private final Deque<Sample> samples = new ArrayDeque<>();

    private ProgressEvent latest;
    private boolean latestShown;
    private Instant lastShown;
    private int shownLength;
    private boolean barOnScreen;

    /**
     * @param style how to show progress
     * @param out where to show it; flushed after every change
     * @param clock decides throttling and the time printed on plain lines (in its zone)
     * @param estimate the transfer's size as far as it is known here (see {@link #estimate(SourceEstimate)})
     * @param width the terminal's width in columns; the bar line stays one shorter so that it
     *     never wraps (a wrapped line cannot be redrawn in place)
     */
    ProgressRenderer(Style style, PrintWriter out, Clock clock, SourceEstimate estimate, int width) {
        this.style = Objects.requireNonNull(style, "style");
        this.out = Objects.requireNonNull(out, "out");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.estimate = Objects.requireNonNull(estimate, "estimate");
        this.width = Math.max(40, width);
    }

    /** Replaces the estimate of the transfer's size, once it has been worked out. */
    synchronized void estimate(SourceEstimate e) {
        this.estimate = Objects.requireNonNull(e, "estimate");
    }

    /** Takes a publication; shows it unless the last showing was less than an interval ago. */
    synchronized void accept(ProgressEvent p) {
        if (style == Style.OFF) {
            return;
        }
        sample(p);
        latest = p;
        latestShown = false;
        Instant now = clock.instant();
        Duration interval = style == Style.BAR ? BAR_INTERVAL : LINE_INTERVAL;
        if (lastShown == null || !now.isBefore(lastShown.plus(interval))) {
            show(now);
        }
    }

    /** Prints a line of its own, such as "progress is unavailable", below the bar if one is shown. */
    synchronized void note(String text) {
        endBar();
        out.println(text);
        out.flush();
    }

    /** Prints {@code text} on {@code err}, after ending a bar on screen so that the two do not mix. */
    synchronized void warn(PrintWriter err, String text) {
        endBar();
        err.println(text);
        err.flush();
    }

    /**
     * Ends the display before the outcome is printed: the bar shows the newest publication it held
     * back and its line is ended. Plain lines print nothing more (the outcome follows).
     */
    synchronized void finish() {
        finish(false);
    }

    /**
     * Ends the display before the outcome is printed.
     *
     * @param completed whether the transfer succeeded: then a bar with a known total is drawn
     *     full, since the last publication was made up to a second before the end
     */
    synchronized void finish(boolean completed) {
        if (style == Style.BAR && latest != null) {
            long total = total(latest);
            if (completed && barOnScreen && total >= 0 && latest.bytes() < total) {
                // Drawn with the rate last measured: the end was not measured.
                double rate = rate(latest);
                long size = Math.max(0, latest.currentSize());
                boolean lastItem = latest.totalItems() <= 1 || latest.currentItem() == latest.totalItems();
                latest = new ProgressEvent(latest.transferId(), latest.sourceAgent(),
                        latest.destinationAgent(), latest.time(), total, latest.seconds(),
                        Math.max(latest.currentItem(), latest.totalItems()), latest.totalItems(), size, size,
                        lastItem ? latest.currentSource() : null, lastItem ? latest.currentDestination() : null);
                draw(bar(latest, rate), clock.instant());
            } else if (!latestShown) {
                show(clock.instant());
            }
        }
        endBar();
    }

    private void show(Instant now) {
        if (style == Style.BAR) {
            draw(bar(latest), now);
        } else {
            out.println(line(latest, now));
            out.flush();
            lastShown = now;
            latestShown = true;
        }
    }

    private void draw(String text, Instant now) {
        StringBuilder b = new StringBuilder("\r").append(text);
        // Blank what a longer previous line left behind.
        for (int i = text.length(); i < shownLength; i++) {
            b.append(' ');
        }
        out.print(b);
        out.flush();
        shownLength = text.length();
        barOnScreen = true;
        lastShown = now;
        latestShown = true;
    }

    private void endBar() {
        if (barOnScreen) {
            out.println();
            barOnScreen = false;
            shownLength = 0;
        }
        out.flush();
    }

    private void sample(ProgressEvent p) {
        Sample last = samples.peekLast();
        if (last != null && (p.time().isBefore(last.time()) || p.bytes() < last.bytes())) {
            // Out of order, or the transfer restarted from a checkpoint: measure afresh.
            samples.clear();
        }
        if (p.bytes() >= 0) {
            samples.addLast(new Sample(p.time(), p.bytes()));
        }
        while (samples.size() > 2 && samples.peekFirst().time().isBefore(p.time().minus(RATE_WINDOW))) {
            samples.removeFirst();
        }
    }

    /** Bytes per second, or -1 when not known yet. */
    double rate(ProgressEvent p) {
        Sample first = samples.peekFirst();
        Sample last = samples.peekLast();
        if (first != null && last != null && last != first) {
            double seconds = Duration.between(first.time(), last.time()).toMillis() / 1000.0;
            if (seconds >= 0.5) {
                return (last.bytes() - first.bytes()) / seconds;
            }
        }
        if (p.seconds() > 0 && p.bytes() >= 0) {
            return p.bytes() / p.seconds();
        }
        return -1;
    }

    /**
     * The transfer's total bytes: the local estimate when it counts as many files as the agent
     * does, else the current file's size for a one-item transfer, else -1.
     */
    long total(ProgressEvent p) {
        long t = -1;
        if (estimate.bytes() >= 0 && (estimate.files() < 0 || p.totalItems() < 0
                || estimate.files() == p.totalItems())) {
            t = estimate.bytes();
        } else if (p.totalItems() == 1 && p.currentSize() >= 0) {
            t = p.currentSize();
        }
        return t >= 0 && p.bytes() > t ? -1 : t;
    }

    /** The bar line for a publication, without the leading {@code \r}. */
    String bar(ProgressEvent p) {
        return bar(p, rate(p));
    }

    private String bar(ProgressEvent p, double rate) {
        long total = total(p);
        StringBuilder b = new StringBuilder();
        if (total >= 0) {
            int percent = percent(p.bytes(), total);
            int cells = (int) (BAR_CELLS * (long) percent / 100);
            b.append('[').append("#".repeat(cells)).append(" ".repeat(BAR_CELLS - cells)).append("] ");
            b.append(String.format(Locale.ROOT, "%3d%% ", percent));
            b.append(size(p.bytes())).append('/').append(size(total));
        } else {
            b.append(size(Math.max(0, p.bytes())));
        }
        b.append(' ').append(rate(rate));
        if (total >= 0) {
            b.append(" ETA ").append(eta(total - p.bytes(), rate));
        }
        if (p.totalItems() > 0) {
            b.append(' ').append(itemsDone(p)).append('/').append(p.totalItems()).append(" files");
        }
        String name = fileName(p.currentSource());
        int room = width - 1 - b.length() - 1;
        if (name != null && room >= MIN_NAME) {
            b.append(' ').append(shorten(name, room));
        }
        if (b.length() > width - 1) {
            b.setLength(width - 1);
        }
        return b.toString();
    }

    /** A plain progress line for a publication shown at {@code now}. */
    String line(ProgressEvent p, Instant now) {
        long total = total(p);
        StringBuilder b = new StringBuilder();
        b.append('[').append(TIME.format(LocalTime.ofInstant(now, clock.getZone()))).append("] ");
        if (total >= 0) {
            b.append(percent(p.bytes(), total)).append("% ").append(size(p.bytes())).append(" of ").append(size(total));
        } else {
            b.append(size(Math.max(0, p.bytes())));
        }
        b.append(", ").append(rate(rate(p)));
        if (p.currentItem() > 0) {
            b.append(", item ").append(p.currentItem());
            if (p.totalItems() > 0) {
                b.append(" of ").append(p.totalItems());
            }
            String name = fileName(p.currentSource());
            if (name != null) {
                b.append(": ").append(shorten(name, MAX_LINE_NAME));
            }
        }
        return b.toString();
    }

    private static int itemsDone(ProgressEvent p) {
        if (p.currentItem() <= 0) {
            return 0;
        }
        boolean currentDone = p.currentSize() >= 0 && p.currentTransferred() >= p.currentSize();
        return Math.min(p.totalItems(), p.currentItem() - 1 + (currentDone ? 1 : 0));
    }

    private static int percent(long bytes, long total) {
        if (total <= 0) {
            return 100;
        }
        return (int) Math.max(0, Math.min(100, Math.max(0, bytes) * 100 / total));
    }

    /** The last component of a path written with {@code /} or {@code \}, or null. */
    static String fileName(String path) {
        if (path == null || path.isEmpty()) {
            return null;
        }
        String trimmed = path.replaceAll("[/\\\\]+$", "");
        int cut = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
        String name = trimmed.substring(cut + 1);
        return name.isEmpty() ? path : name;
    }

    /** {@code name} in at most {@code max} characters: its start and end around "...". */
    static String shorten(String name, int max) {
        if (name.length() <= max) {
            return name;
        }
        if (max <= 3) {
            return name.substring(0, max);
        }
        int tail = (max - 3) / 2;
        int head = max - 3 - tail;
        return name.substring(0, head) + "..." + name.substring(name.length() - tail);
    }

    /** Bytes in binary units: {@code 512 B}, {@code 9.5 KiB}, {@code 420 MiB}, {@code 1.0 GiB}. */
    static String size(long bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
        double value = bytes;
        int unit = 0;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        if (unit == 0) {
            return bytes + " B";
        }
        // 1023.9 MiB would print as "1024 MiB": go up a unit rather.
        if (value >= 1023.5 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return (value < 10 ? String.format(Locale.ROOT, "%.1f", value) : String.format(Locale.ROOT, "%.0f", value))
                + " " + units[unit];
    }

    /** A rate in decimal megabytes per second ({@code 210 MB/s}), kB/s below 0.1 MB/s. */
    static String rate(double bytesPerSecond) {
        if (bytesPerSecond < 0) {
            return "-- MB/s";
        }
        double mb = bytesPerSecond / 1e6;
        if (mb < 0.1) {
            double kb = bytesPerSecond / 1e3;
            return (kb < 10 ? String.format(Locale.ROOT, "%.1f", kb) : String.format(Locale.ROOT, "%.0f", kb))
                    + " kB/s";
        }
        return (mb < 10 ? String.format(Locale.ROOT, "%.1f", mb) : String.format(Locale.ROOT, "%.0f", mb)) + " MB/s";
    }

    /** Time left as {@code m:ss} or {@code h:mm:ss}; {@code --:--} without a rate. */
    static String eta(long bytesLeft, double bytesPerSecond) {
        if (bytesLeft <= 0) {
            return "0:00";
        }
        if (bytesPerSecond <= 0) {
            return "--:--";
        }
        double seconds = Math.ceil(bytesLeft / bytesPerSecond);
        if (seconds > 99 * 3600) {
            return ">99h";
        }
        long s = (long) seconds;
        return s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }
}
