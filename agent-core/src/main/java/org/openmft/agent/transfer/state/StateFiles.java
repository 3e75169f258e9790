package org.openmft.agent.transfer.state;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.openmft.agent.ItemOutcome;
import org.openmft.agent.transfer.files.SelectedFile;

/**
 * The files of an agent's state directory ({@code logs/<coordQM>/agents/<AGENT>/state/}) that hold
 * what grows with the number of files of a transfer, beside its bounded record on the STATE queue:
 * <ul>
 *   <li>{@code <id>.request.xml}: the request of a source transfer;</li>
 *   <li>{@code <id>.items}: the source's expansion of it (each file with the size and modification
 *       time it had when selected, and the items that failed at planning), so a resumed transfer
 *       moves exactly the files it was asked to, and notices files changed meanwhile;</li>
 *   <li>{@code <id>.src-results} and {@code <id>.dst-results}: journals of item outcomes, appended
 *       as items end, read back when the agent resumes the transfer.</li>
 * </ul>
 * Lines are tab-separated with URL-encoded fields, so any path fits on one line. Journals are
 * appended with plain writes: what a killed process wrote is in the operating system's cache and
 * survives; a line cut short by a power loss is ignored when read back (the item is then redone).
 */
public final class StateFiles {
    private StateFiles() {
    }

    public static Path request(Path dir, String id) {
        return dir.resolve(id + ".request.xml");
    }

    public static Path items(Path dir, String id) {
        return dir.resolve(id + ".items");
    }

    public static Path sourceResults(Path dir, String id) {
        return dir.resolve(id + ".src-results");
    }

    public static Path destinationResults(Path dir, String id) {
        return dir.resolve(id + ".dst-results");
    }

    /** Removes the files of a source transfer. */
    public static void deleteSource(Path dir, String id) throws IOException {
        Files.deleteIfExists(request(dir, id));
        Files.deleteIfExists(items(dir, id));
        Files.deleteIfExists(sourceResults(dir, id));
    }

    // ------------------------------------------------------------------------------------------
    // Planned items

    /** A planned file: the request item it came from and the file as selected. */
    public record Planned(int requestItem, SelectedFile file) {
    }

    /** An item that failed at planning. */
    public record PreFailed(String source, String destination, String supplement) {
    }

    /** The source's expansion of a request. */
    public record Plan(List<Planned> files, List<PreFailed> preFailed) {
    }

    public static void writePlan(Path file, Plan plan) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (BufferedWriter w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            for (Planned p : plan.files()) {
                line(w, "I", String.valueOf(p.requestItem()), String.valueOf(p.file().size()),
                        String.valueOf(p.file().lastModifiedMillis()), p.file().source().toString(),
                        p.file().relativePath());
            }
            for (PreFailed f : plan.preFailed()) {
                line(w, "F", f.source(), f.destination(), f.supplement());
            }
        }
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    public static Plan readPlan(Path file) throws IOException {
        List<Planned> files = new ArrayList<>();
        List<PreFailed> preFailed = new ArrayList<>();
        for (String[] f : lines(file)) {
            if ("I".equals(f[0]) && f.length == 6) {
                files.add(new Planned(Integer.parseInt(f[1]), new SelectedFile(Path.of(f[4]), f[5],
                        Long.parseLong(f[2]), Long.parseLong(f[3]))));
            } else if ("F".equals(f[0]) && f.length == 4) {
                preFailed.add(new PreFailed(f[1], f[2], f[3]));
            } else {
                throw new IOException("unreadable line in " + file);
            }
        }
        return new Plan(files, preFailed);
    }

    // ------------------------------------------------------------------------------------------
    // Results journals

    /** An item's outcome with the sequence numbers its first and last messages had (-1: unknown). */
    public record Result(ItemOutcome outcome, long firstSeq, long lastSeq) {
    }

    /** A destination's intent to rename a verified partial file to its final name. */
    public record Rename(int item, String finalPath, long bytes, String md5) {
    }

    /** What a results journal holds. */
    public record Journal(Map<Integer, Result> results, Map<Integer, Rename> renames) {
    }

    public static void appendResult(Path file, Result r) throws IOException {
        ItemOutcome o = r.outcome();
        append(file, "R", String.valueOf(o.index()), String.valueOf(o.resultCode()), String.valueOf(o.bytes()),
                String.valueOf(r.firstSeq()), String.valueOf(r.lastSeq()), o.source(), o.destination(),
                o.supplement(), o.md5());
    }

    public static void appendRename(Path file, Rename r) throws IOException {
        append(file, "N", String.valueOf(r.item()), r.finalPath(), String.valueOf(r.bytes()), r.md5());
    }

    public static Journal readJournal(Path file) throws IOException {
        Map<Integer, Result> results = new TreeMap<>();
        Map<Integer, Rename> renames = new TreeMap<>();
        List<String[]> all;
        try {
            all = lines(file);
        } catch (NoSuchFileException e) {
            return new Journal(results, renames);
        }
        for (String[] f : all) {
            // "R", index, result code, bytes, first and last sequence number, source, destination,
            // supplement, MD5: the ten fields appendResult writes.
            if ("R".equals(f[0]) && f.length == 10) {
                int index = Integer.parseInt(f[1]);
                results.put(index, new Result(new ItemOutcome(index, f[6], f[7], Long.parseLong(f[3]),
                        Integer.parseInt(f[2]), f[8], f[9]), Long.parseLong(f[4]), Long.parseLong(f[5])));
            } else if ("N".equals(f[0]) && f.length == 5) {
                int index = Integer.parseInt(f[1]);
                renames.put(index, new Rename(index, f[2], Long.parseLong(f[3]), f[4]));
            }
        }
        return new Journal(results, renames);
    }

    // ------------------------------------------------------------------------------------------

    private static void append(Path file, String... fields) throws IOException {
        StringBuilder sb = new StringBuilder();
        format(sb, fields);
        Files.writeString(file, sb, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND);
    }

    private static void line(Writer w, String... fields) throws IOException {
        StringBuilder sb = new StringBuilder();
        format(sb, fields);
        w.write(sb.toString());
    }

    private static void format(StringBuilder sb, String... fields) {
        for (int i = 0; i < fields.length; i++) {
            if (i > 0) {
                sb.append('\t');
            }
            // "-" stands for null; a real "-" is encoded.
            sb.append(fields[i] == null ? "-" : "-".equals(fields[i]) ? "%2D"
                    : URLEncoder.encode(fields[i], StandardCharsets.UTF_8));
        }
        sb.append('\n');
    }

    /** The complete lines of a file, split and decoded; a last line without its newline is dropped. */
    private static List<String[]> lines(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        List<String[]> out = new ArrayList<>();
        int start = 0;
        int end;
        while ((end = text.indexOf('\n', start)) >= 0) {
            String line = text.substring(start, end);
            start = end + 1;
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split("\t", -1);
            for (int i = 0; i < f.length; i++) {
                f[i] = "-".equals(f[i]) ? null : URLDecoder.decode(f[i], StandardCharsets.UTF_8);
            }
            out.add(f);
        }
        return out;
    }
}
