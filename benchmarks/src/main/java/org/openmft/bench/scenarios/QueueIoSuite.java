package org.openmft.bench.scenarios;

import org.openmft.bench.Section;
import org.openmft.bench.harness.ConnectionMode;
import org.openmft.bench.harness.EmbeddedMft;
import org.openmft.bench.measure.CpuClock;
import org.openmft.bench.report.CsvTable;
import org.openmft.bench.report.ResultFiles;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

import org.openmft.xml.ChecksumMethod;
import org.openmft.xml.DestinationType;
import org.openmft.xml.Disposition;
import org.openmft.xml.ExistAction;
import org.openmft.xml.ItemDestination;
import org.openmft.xml.ItemSource;
import org.openmft.xml.Mode;
import org.openmft.xml.QueueDestination;
import org.openmft.xml.QueueSource;
import org.openmft.xml.TransferItem;

/**
 * File to message (IBM's {@code -dq}): messages per second and CPU milliseconds per message for
 * seed 004's payloads (256 B to 20 MB), non-persistent and persistent, beside the "File out and file
 * in" table of seed 004 (IBM Integration Bus 10 on Windows). Each cell is one transfer of a
 * wildcard of equal files from a source agent to a destination agent in bindings mode, each file one
 * message on a queue of the same embedded queue manager; the time runs from the request to the final
 * reply, the CPU is the whole process's (queue manager, both agents, the requester) over that time.
 * The messages are then read back and counted, their bytes checked, outside the time. The same files
 * moved file to file by the same agents (payloads up to 200 KB) show what the queue path adds.
 *
 * <p>Message to file (IBM's {@code -sq}), the other way: the same payloads put (persistent, outside
 * the time) on a queue of the source agent, then one transfer makes them one file at the destination
 * and removes them; the file's size and the empty queue are checked after the time.
 */
public final class QueueIoSuite implements Section {
    static final String NAME = "queueio";
    static final String QUEUE = "BENCH.F2M";
    static final String SOURCE_QUEUE = "BENCH.M2F";
    private static final long[] PAYLOADS = {256, 2 * 1024, 20 * 1024, 200 * 1024, 2 * 1024 * 1024, 20 * 1024 * 1024};
    /** Seed 004, "File out and file in", non-persistent: message rate and CPU ms per message by payload. */
    private static final double[][] SEED004 = {{1090.6, 7.1}, {1061.3, 7.3}, {1033.0, 7.5}, {803.2, 9.6},
        {138.7, 57.5}, {14.5, 549.5}};

    /** The largest payload also moved file to file, for comparison. */
    private static final long LARGEST_FILE_TO_FILE = 200 * 1024;

    /**
     * One measured cell: file to message ({@code persistent} as put), message to file
     * ({@code toFile}), or, in the file-to-file list, the same files to a directory ({@code messages}
     * are files).
     */
    record Cell(long payload, boolean persistent, int messages, double seconds, double cpuSeconds, String failure,
            boolean toFile) {
        Cell(long payload, boolean persistent, int messages, double seconds, double cpuSeconds, String failure) {
            this(payload, persistent, messages, seconds, cpuSeconds, failure, false);
        }

        double rate() {
            return messages / seconds;
        }

        double cpuMillisPerMessage() {
            return cpuSeconds * 1000 / messages;
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Outcome run(Context context) throws Exception {
        boolean quick = context.quick();
        long budget = quick ? 8L << 20 : 96L << 20;
        int maxMessages = quick ? 200 : 2000;
        int minMessages = quick ? 2 : 5;
        double loadAtStart = CpuClock.loadAverage();
        Instant started = Instant.now();
        List<Cell> cells = new ArrayList<>();
        List<Cell> fileCells = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        Path work = context.work();
        EmbeddedMft.Pair pair = new EmbeddedMft.Pair("QSRC", "QDST", ConnectionMode.BINDINGS);
        // Both agents read and write queues: QDST puts files (file to message), QSRC reads its queue
        // (message to file).
        Map<String, String> queues = new java.util.HashMap<>(context.agentProperties());
        queues.put("enableQueueInputOutput", "true");
        queues.put("maxInputOutputMessageLength", String.valueOf(21 << 20));
        try (EmbeddedMft mft = EmbeddedMft.start(work.resolve("mft"), work, List.of(pair), agent -> queues);
                Connection c = mft.connector(ConnectionMode.BINDINGS).connect()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            s.createConsumer(s.createQueue(QUEUE)).close();
            s.createConsumer(s.createQueue(SOURCE_QUEUE)).close();
            c.start();
            // A warm-up transfer (the JIT, the journal), not counted.
            Path warm = work.resolve("files-warm-up");
            Files.createDirectories(warm);
            for (int i = 0; i < 50; i++) {
                Files.write(warm.resolve("w" + i + ".bin"), new byte[1024]);
            }
            cell(mft, pair, s, warm, 1024, 50, false, context);
            for (long payload : PAYLOADS) {
                int n = (int) Math.max(minMessages, Math.min(maxMessages, budget / payload));
                Path dir = work.resolve("files-" + payload);
                Files.createDirectories(dir);
                byte[] data = new byte[(int) payload];
                new java.util.Random(payload).nextBytes(data);
                for (int i = 0; i < n; i++) {
                    Files.write(dir.resolve(String.format(Locale.ROOT, "f%05d.bin", i)), data);
                }
                for (boolean persistent : new boolean[] {false, true}) {
                    Cell cell = cell(mft, pair, s, dir, payload, n, persistent, context);
                    cells.add(cell);
                    if (cell.failure() != null) {
                        failures.add(label(payload) + (persistent ? " persistent" : " non-persistent") + ": "
                                + cell.failure());
                    }
                }
                Cell toFile = toFile(mft, pair, s, work, data, n, context);
                cells.add(toFile);
                if (toFile.failure() != null) {
                    failures.add(label(payload) + " message to file: " + toFile.failure());
                }
                if (payload <= LARGEST_FILE_TO_FILE) {
                    Cell cell = fileCell(mft, pair, dir, work.resolve("out-" + payload), payload, n, context);
                    fileCells.add(cell);
                    if (cell.failure() != null) {
                        failures.add(label(payload) + " file to file: " + cell.failure());
                    }
                }
                try (var files = Files.list(dir)) {
                    for (Path f : (Iterable<Path>) files::iterator) {
                        Files.delete(f);
                    }
                }
            }
        }
        Instant ended = Instant.now();
        double loadAtEnd = CpuClock.loadAverage();
        Files.createDirectories(context.results());
        List<List<Object>> rows = new ArrayList<>();
        for (Cell cell : cells) {
            rows.add(Arrays.asList(cell.payload(), cell.toFile() ? "m2f" : cell.persistent(), cell.messages(),
                    ResultFiles.num(cell.seconds()), ResultFiles.num(cell.cpuSeconds()), ResultFiles.num(cell.rate()),
                    ResultFiles.num(cell.cpuMillisPerMessage()), cell.failure()));
        }
        String csv = CsvTable.write(List.of("payload_bytes", "persistent", "messages", "seconds", "cpu_seconds",
                "msgs_per_s", "cpu_ms_per_msg", "failure"), rows);
        Path out = context.results().resolve(NAME + "-" + (quick ? "quick" : "full") + ".csv");
        Files.writeString(out, csv);
        context.log("wrote %s", out);
        return new Outcome(markdown(cells, fileCells, failures, context, started, ended, loadAtStart, loadAtEnd),
                failures);
    }

    private static Cell cell(EmbeddedMft mft, EmbeddedMft.Pair pair, Session s, Path dir, long payload, int n,
            boolean persistent, Context context) throws Exception {
        QueueDestination q = QueueDestination.of(QUEUE, Map.of("persistent", String.valueOf(persistent)));
        Timed t = timed(mft, pair, wildcard(dir, new ItemDestination(q, null)));
        String failure = t.failure();
        // Read back outside the time: every file one message of the payload's size.
        long bytes = 0;
        int got = 0;
        try (MessageConsumer consumer = s.createConsumer(s.createQueue(QUEUE))) {
            Message m;
            while ((m = consumer.receive(got < n ? 30_000 : 200)) != null) {
                bytes += ((BytesMessage) m).getBodyLength();
                got++;
            }
        }
        if (failure == null && (got != n || bytes != n * payload)) {
            failure = got + " messages of " + bytes + " bytes read back, not " + n + " of " + n * payload;
        }
        Cell cell = new Cell(payload, persistent, n, t.seconds(), t.cpuSeconds(), failure);
        context.log("  %-7s %-14s %5d messages in %7.2f s: %9.1f msgs/s, %8.2f CPU ms/msg%s", label(payload),
                persistent ? "persistent" : "non-persistent", n, t.seconds(), cell.rate(), cell.cpuMillisPerMessage(),
                failure == null ? "" : "  FAILED: " + failure);
        return cell;
    }

    /**
     * Message to file: {@code n} persistent messages of the payload put on the source agent's queue
     * (outside the time), then one transfer makes them one file at the destination; the file's size
     * and the emptied queue are checked after the time.
     */
    private static Cell toFile(EmbeddedMft mft, EmbeddedMft.Pair pair, Session s, Path work, byte[] data, int n,
            Context context) throws Exception {
        long payload = data.length;
        try (MessageProducer producer = s.createProducer(s.createQueue(SOURCE_QUEUE))) {
            producer.setDeliveryMode(DeliveryMode.PERSISTENT);
            for (int i = 0; i < n; i++) {
                BytesMessage m = s.createBytesMessage();
                m.writeBytes(data);
                producer.send(m);
            }
        }
        Path file = work.resolve("m2f-out").resolve("queue-" + payload + ".bin");
        Files.createDirectories(file.getParent());
        Files.deleteIfExists(file);
        TransferItem item = new TransferItem(Mode.BINARY, ChecksumMethod.MD5, new ItemSource(QueueSource.of(
                SOURCE_QUEUE, Map.of()), Disposition.LEAVE, null), new ItemDestination(DestinationType.FILE,
                ExistAction.ERROR, file.toString(), null, null));
        Timed t = timed(mft, pair, item);
        String failure = t.failure();
        long size = Files.exists(file) ? Files.size(file) : -1;
        int left = 0;
        try (MessageConsumer consumer = s.createConsumer(s.createQueue(SOURCE_QUEUE))) {
            while (consumer.receive(200) != null) {
                left++; // also empties the queue for the next cell after a failure
            }
        }
        // A queue paged to disk may be read in part (the rest waits for the next transfer): the cell
        // counts the messages that made the file, which must be exactly those that left the queue.
        int moved = n - left;
        if (failure == null && (moved == 0 || size != moved * payload)) {
            failure = "a file of " + size + " bytes, but " + moved + " messages of " + payload + " bytes left the queue";
        }
        Files.deleteIfExists(file);
        Cell cell = new Cell(payload, true, moved, t.seconds(), t.cpuSeconds(), failure, true);
        context.log("  %-7s %-14s %5d messages in %7.2f s: %9.1f msgs/s, %8.2f CPU ms/msg%s", label(payload),
                "message->file", moved, t.seconds(), cell.rate(), cell.cpuMillisPerMessage(),
                failure == null ? "" : "  FAILED: " + failure);
        return cell;
    }

    /** One transfer's time from the request to the final reply, the process's CPU over it, and its failure. */
    private record Timed(double seconds, double cpuSeconds, String failure) {
    }

    /** One transfer of the wildcard {@code dir/*.bin} to {@code destination}. */
    private static TransferItem wildcard(Path dir, ItemDestination destination) {
        return new TransferItem(Mode.BINARY, ChecksumMethod.MD5, new ItemSource(false, Disposition.LEAVE,
                dir.resolve("*.bin").toString(), null), destination);
    }

    /** One transfer, timed from the request to the reply. */
    private static Timed timed(EmbeddedMft mft, EmbeddedMft.Pair pair, TransferItem item) throws Exception {
        long cpu0 = CpuClock.processCpuNanos();
        long t0 = System.nanoTime();
        EmbeddedMft.Result r = mft.transfer(pair, List.of(item), 30 * 60_000L);
        double seconds = (System.nanoTime() - t0) / 1e9;
        double cpu = (CpuClock.processCpuNanos() - cpu0) / 1e9;
        String failure = r.failure() != null ? r.failure()
                : r.reply().resultCode() != 0 ? "result " + r.reply().resultCode() + " " + r.reply().supplements()
                        : null;
        return new Timed(seconds, cpu, failure);
    }

    /** The same files to a directory by the same agents: what a file costs without the queue. */
    private static Cell fileCell(EmbeddedMft mft, EmbeddedMft.Pair pair, Path dir, Path out, long payload, int n,
            Context context) throws Exception {
        Files.createDirectories(out);
        Timed t = timed(mft, pair, wildcard(dir, new ItemDestination(DestinationType.DIRECTORY,
                ExistAction.OVERWRITE, out.toString(), null, null)));
        String failure = t.failure();
        int got = 0;
        try (var files = Files.list(out)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                if (Files.size(f) == payload) {
                    got++;
                }
                Files.delete(f);
            }
        }
        if (failure == null && got != n) {
            failure = got + " files of " + payload + " bytes written, not " + n;
        }
        Cell cell = new Cell(payload, false, n, t.seconds(), t.cpuSeconds(), failure);
        context.log("  %-7s %-14s %5d files    in %7.2f s: %9.1f files/s, %7.2f CPU ms/file%s", label(payload),
                "file to file", n, t.seconds(), cell.rate(), cell.cpuMillisPerMessage(),
                failure == null ? "" : "  FAILED: " + failure);
        return cell;
    }

    private static String label(long payload) {
        return payload >= 1024 * 1024 ? payload / (1024 * 1024) + " MB"
                : payload >= 1024 ? payload / 1024 + " KB" : payload + " B";
    }

    private static String rateAndCpu(Cell c) {
        return c == null ? " | - | -" : c.failure() != null ? " | failed | " : String.format(Locale.ROOT,
                " | %,.1f | %.2f", c.rate(), c.cpuMillisPerMessage());
    }

    private static String markdown(List<Cell> cells, List<Cell> fileCells, List<String> failures, Context context,
            Instant started, Instant ended, double loadAtStart, double loadAtEnd) {
        StringBuilder md = new StringBuilder("## File to message and message to file: seed 004's payloads\n\n");
        md.append("Files put on a queue by the destination agent (`fteCreateTransfer -dq`, one message per file),")
                .append(" beside seed 004's \"File out and file in\" table (IBM Integration Bus 10, Windows,")
                .append(" non-persistent only; its CPU is the whole machine's at 80 to 100% busy on its cores).")
                .append(" Each cell is one transfer of a wildcard of equal files from agent QSRC to agent QDST")
                .append(" (bindings) on one embedded queue manager; the rate is messages over the time from the")
                .append(" request to the final reply, the CPU the whole JVM's (queue manager, both agents and the")
                .append(" requester) over that time, per message. Every message is read back and its size")
                .append(" checked after the time. Message to file (`fteCreateTransfer -sq`): the same number of")
                .append(" persistent messages of each payload put on agent QSRC's queue outside the time, then one")
                .append(" transfer makes them one file at QDST and removes them once QDST has it; its rate is")
                .append(" the messages that made the file (a queue paged to disk, beyond 32 MiB, may be read in")
                .append(" part) over the time from the request to the final reply.\n\n");
        String cores = context.machine().getOrDefault("cores (available to the JVM)", "?");
        md.append(String.format(Locale.ROOT, "**Load**: the 1-minute load average was %.2f at the start and %.2f at"
                + " the end, on %s cores, this section's own JVM included; well above that, other work ran beside it"
                + " and the figures are indicative (rerun alone with `--scenario queueio`).%n%n", loadAtStart,
                loadAtEnd, cores));
        md.append(context.runTable(started, ended, context.quick() ? "quick: at most 8 MiB or 200 messages a cell"
                : "at most 96 MiB or 2000 messages a cell")).append('\n');
        md.append("| payload | OpenMFT non-persistent msgs/s | CPU ms/msg | OpenMFT persistent msgs/s | CPU ms/msg |")
                .append(" same files file to file, files/s | CPU ms/file |")
                .append(" seed 004 msgs/s (non-persistent) | seed 004 CPU ms/msg | message to file msgs/s | CPU ms/msg |\n")
                .append("|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (int i = 0; i < PAYLOADS.length; i++) {
            long p = PAYLOADS[i];
            md.append("| ").append(label(p));
            for (boolean persistent : new boolean[] {false, true}) {
                Cell c = cells.stream().filter(x -> x.payload() == p && x.persistent() == persistent && !x.toFile())
                        .findFirst().orElse(null);
                md.append(rateAndCpu(c));
            }
            md.append(rateAndCpu(fileCells.stream().filter(x -> x.payload() == p).findFirst().orElse(null)));
            md.append(String.format(Locale.ROOT, " | %,.1f | %.1f", SEED004[i][0], SEED004[i][1]));
            md.append(rateAndCpu(cells.stream().filter(x -> x.payload() == p && x.toFile()).findFirst().orElse(null)))
                    .append(" |\n");
        }
        md.append('\n');
        if (!failures.isEmpty()) {
            md.append("**Failures:** ").append(String.join("; ", failures)).append("\n\n");
        }
        md.append("Each file pays a transfer item's costs (its first and last chunk, checksum, result: the file")
                .append(" to file column) and, for the queue, a spool file at the destination and its put: one")
                .append(" transaction per file, so one commit round trip to the queue manager (and for persistent")
                .append(" messages a journal write) on the destination's data thread before the item's result.")
                .append(" That commit is what is left of the per-file cost of the queue path; the put session,")
                .append(" its producer and its destinations are kept from file to file, and the splitter's buffer")
                .append(" is the smaller of the file and the message length. (Until November 2026 the splitter")
                .append(" allocated two buffers of `maxInputOutputMessageLength`, 21 MB here, for every file, and")
                .append(" each file also paid a destination lookup and a producer, about three round trips: a")
                .append(" 256-byte file cost some 200 ms of CPU, mostly the collector's.) Seed 004's flow reads")
                .append(" and writes files of a message each inside one broker. Run alone with")
                .append(" `--scenario queueio` (`--quick`, a check, about a minute); raw numbers in")
                .append(" `queueio-<scale>.csv`.\n");
        return md.toString();
    }
}
