package org.openmft.agent.transfer.state;

import java.io.IOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.openmft.agent.Checksum;
import org.openmft.agent.ItemOutcome;
import org.openmft.agent.transfer.files.SelectedFile;
import org.openmft.agent.transfer.protocol.TransferIds;
import org.openmft.xml.ChecksumMethod;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The files of an agent's state directory ({@code logs/<coordQM>/agents/<AGENT>/state/}) that hold
 * what grows with the number of files of a transfer, beside its bounded record on the STATE queue:
 * <ul>
 *   <li>{@code <id>.request.xml}: the request of a source transfer;</li>
 *   <li>{@code <id>.items}: the source's expansion of it (each file with the size and modification
 *       time it had when selected, and the items that failed at planning), so a resumed transfer
 *       moves exactly the files it was asked to, and notices files changed meanwhile;</li>
 *   <li>{@code <id>.src-results} and {@code <id>.dst-results}: journals of item outcomes, appended
 *       as items end, read back when the agent resumes the transfer; the source's also holds its
 *       program calls' starts and ends ({@link CallRecord}), so a call runs at most once.</li>
 * </ul>
 * Lines are tab-separated with URL-encoded fields, so any path fits on one line. Journals are
 * appended with plain writes: what a killed process wrote is in the operating system's cache and
 * survives; a line cut short by a power loss is ignored when read back (the item is then redone).
 *
 * <p>Only what this agent wrote is used ({@link StateTag}): each line ends with a field
 * {@code #<tag>} over the file's name and the line, and a request has its tag in
 * {@code <id>.request.tag}. A journal line whose tag is missing or wrong is skipped (its item is
 * redone); a request or plan with one is moved aside ({@code .untrusted}) and refused whole, as a
 * plan missing lines, which ends with a line counting them, is. Ids are checked before they name
 * a file ({@link StateIds}).
 */
public final class StateFiles {
    private static final Logger log = LoggerFactory.getLogger(StateFiles.class);
    /** The files of a transfer: its id and one of these endings. */
    private static final Pattern TRANSFER_FILE = Pattern.compile(
            "([0-9a-f]{48})(\\.request\\.xml|\\.items|\\.src-results|\\.dst-results)");
    /** Set aside: a file refused for its tag, kept for whoever looks into it. */
    static final String UNTRUSTED = ".untrusted";
    private static final String TAG_FIELD = "\t#";

    private StateFiles() {
    }

    /** The request document of a source transfer. */
    public static Path request(Path dir, String id) {
        return dir.resolve(StateIds.checked(id, "name a request file") + ".request.xml");
    }

    /** The tag of {@link #request}. */
    public static Path requestTag(Path dir, String id) {
        return dir.resolve(StateIds.checked(id, "name a request file") + ".request.tag");
    }

    /** The plan of a source transfer. */
    public static Path items(Path dir, String id) {
        return dir.resolve(StateIds.checked(id, "name a plan file") + ".items");
    }

    /** The source's journal of item results. */
    public static Path sourceResults(Path dir, String id) {
        return dir.resolve(StateIds.checked(id, "name a journal") + ".src-results");
    }

    /** The destination's journal of item results and renames. */
    public static Path destinationResults(Path dir, String id) {
        return dir.resolve(StateIds.checked(id, "name a journal") + ".dst-results");
    }

    /** Removes the files of a source transfer (not those set aside). */
    public static void deleteSource(Path dir, String id) throws IOException {
        Files.deleteIfExists(request(dir, id));
        Files.deleteIfExists(requestTag(dir, id));
        Files.deleteIfExists(items(dir, id));
        Files.deleteIfExists(sourceResults(dir, id));
    }

    // ------------------------------------------------------------------------------------------
    // Requests

    /** Writes a request document and its tag, each whole or not at all. */
    public static void writeRequest(StateTag tag, Path dir, String id, byte[] xml) throws IOException {
        Path file = request(dir, id);
        replace(file, xml);
        replace(requestTag(dir, id), tag.tagBytes(file.getFileName().toString(), xml)
                .getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * Reads a request document this agent wrote.
     *
     * @throws IOException when it is missing, or has no tag or a wrong one (then it is set aside)
     */
    public static byte[] readRequest(StateTag tag, Path dir, String id) throws IOException {
        Path file = request(dir, id);
        byte[] xml = Files.readAllBytes(file);
        Path tagFile = requestTag(dir, id);
        String found;
        try {
            found = Files.readString(tagFile, StandardCharsets.US_ASCII).strip();
        } catch (NoSuchFileException e) {
            found = null;
        }
        if (!StateTag.matches(tag.tagBytes(file.getFileName().toString(), xml), found)) {
            setAside(tag, file, id, found == null ? "it has no tag" : "its tag is wrong");
            if (found != null) {
                Files.move(tagFile, tagFile.resolveSibling(tagFile.getFileName() + UNTRUSTED),
                        StandardCopyOption.REPLACE_EXISTING);
            }
            throw new IOException(file.getFileName() + " was not written by this agent (set aside)");
        }
        return xml;
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

    /** Writes a plan, whole or not at all, ending with the line that counts its lines. */
    public static void writePlan(StateTag tag, Path file, Plan plan) throws IOException {
        String name = file.getFileName().toString();
        StringBuilder sb = new StringBuilder();
        for (Planned p : plan.files()) {
            format(sb, tag, name, "I", String.valueOf(p.requestItem()), String.valueOf(p.file().size()),
                    String.valueOf(p.file().lastModifiedMillis()), p.file().source().toString(),
                    p.file().relativePath());
        }
        for (PreFailed f : plan.preFailed()) {
            format(sb, tag, name, "F", f.source(), f.destination(), f.supplement());
        }
        format(sb, tag, name, "E", String.valueOf(plan.files().size() + plan.preFailed().size()));
        replace(file, sb.toString().getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Reads a plan this agent wrote.
     *
     * @throws IOException when it is missing or unreadable, or a line has no tag or a wrong one, or
     *                     lines are missing (then it is set aside)
     */
    public static Plan readPlan(StateTag tag, Path file, String id) throws IOException {
        List<Planned> files = new ArrayList<>();
        List<PreFailed> preFailed = new ArrayList<>();
        Lines all = lines(tag, file);
        if (all.refused() > 0) {
            setAside(tag, file, id, all.refused() + " line(s) have no tag or a wrong one");
            throw new IOException(file.getFileName() + " was not written by this agent (set aside)");
        }
        boolean ended = false;
        for (String[] f : all.fields()) {
            if (ended) {
                ended = false; // A line after the end: the plan is not the one written.
                break;
            } else if ("I".equals(f[0]) && f.length == 6) {
                files.add(new Planned(Integer.parseInt(f[1]), new SelectedFile(Path.of(f[4]), f[5],
                        Long.parseLong(f[2]), Long.parseLong(f[3]))));
            } else if ("F".equals(f[0]) && f.length == 4) {
                preFailed.add(new PreFailed(f[1], f[2], f[3]));
            } else if ("E".equals(f[0]) && f.length == 2
                    && f[1].equals(String.valueOf(files.size() + preFailed.size()))) {
                ended = true;
            } else {
                break;
            }
        }
        if (!ended) {
            // Lines missing (or another plan's end line): what is left of a plan is not it.
            setAside(tag, file, id, "it is not whole");
            throw new IOException(file.getFileName() + " is not whole (set aside)");
        }
        return new Plan(files, preFailed);
    }

    // ------------------------------------------------------------------------------------------
    // Results journals

    /** An item's outcome with the sequence numbers its first and last messages had (-1: unknown). */
    public record Result(ItemOutcome outcome, long firstSeq, long lastSeq) {
    }

    /**
     * A destination's intent to rename a verified partial file to its final name.
     *
     * @param checksum the hex digest it was verified with (by the method of its checkpoint's
     *                 {@link DestinationRecord.Partial}), or null
     */
    public record Rename(int item, String finalPath, long bytes, String checksum) {
    }

    /**
     * A program call of a transfer as its source journaled it: a line when it starts (before its
     * program runs, or its CALL goes to the destination) and one when it ends. A call with a start
     * and no end was running when the agent ended: it is not run again, and its outcome is not known.
     *
     * @param phase      the call element's name ({@code preSourceCall} ...)
     * @param ended      whether its end was journaled
     * @param outcome    {@code success}, {@code failure} or {@code error} once ended, else null
     * @param retries    attempts after the first
     * @param returnCode the last attempt's return code, or null
     * @param error      why the outcome is an error, or null
     */
    public record CallRecord(String phase, boolean ended, String outcome, int retries, Integer returnCode,
            String error) {

        /** A call that starts now. */
        public static CallRecord started(String phase) {
            return new CallRecord(phase, false, null, 0, null, null);
        }
    }

    /**
     * What a results journal holds.
     *
     * @param calls the source's program calls by phase, the last line of each (empty at the destination)
     */
    public record Journal(Map<Integer, Result> results, Map<Integer, Rename> renames, Map<String, CallRecord> calls) {

        /** A journal without calls. */
        public Journal(Map<Integer, Result> results, Map<Integer, Rename> renames) {
            this(results, renames, Map.of());
        }
    }

    /** Appends a program call's start or end to a source's journal. */
    public static void appendCall(StateTag tag, Path file, CallRecord c) throws IOException {
        append(tag, file, "C", c.phase(), c.ended() ? "E" : "S", c.outcome(), String.valueOf(c.retries()),
                c.returnCode() == null ? null : c.returnCode().toString(), c.error());
    }

    /** Appends an item's result to a journal. */
    public static void appendResult(StateTag tag, Path file, Result r) throws IOException {
        ItemOutcome o = r.outcome();
        append(tag, file, "R", String.valueOf(o.index()), String.valueOf(o.resultCode()), String.valueOf(o.bytes()),
                String.valueOf(r.firstSeq()), String.valueOf(r.lastSeq()), o.source(), o.destination(),
                o.supplement(), o.checksum() == null ? null : o.checksum().hex(),
                o.checksum() == null ? null : o.checksum().method().xmlValue());
    }

    /** Appends the intent to rename a verified partial file to a destination's journal. */
    public static void appendRename(StateTag tag, Path file, Rename r) throws IOException {
        append(tag, file, "N", String.valueOf(r.item()), r.finalPath(), String.valueOf(r.bytes()), r.checksum());
    }

    /**
     * Reads a journal: empty when there is none. Lines this agent did not write are skipped and
     * logged, so their items are done again.
     */
    public static Journal readJournal(StateTag tag, Path file, String id) throws IOException {
        Map<Integer, Result> results = new TreeMap<>();
        Map<Integer, Rename> renames = new TreeMap<>();
        Map<String, CallRecord> calls = new TreeMap<>();
        Lines all;
        try {
            all = lines(tag, file);
        } catch (NoSuchFileException e) {
            return new Journal(results, renames, calls);
        }
        if (all.refused() > 0) {
            log.warn("State file {} of transfer {}: {} line(s) with no tag or a wrong one were not written by this"
                    + " agent and are ignored", file, TransferIds.printable(id), all.refused());
        }
        for (String[] f : all.fields()) {
            // "R", index, result code, bytes, first and last sequence number, source, destination,
            // supplement, checksum, its method: the eleven fields appendResult writes. Lines of ten,
            // without the method, were written before SHA-256, when a checksum was an MD5.
            if ("R".equals(f[0]) && (f.length == 11 || f.length == 10)) {
                int index = Integer.parseInt(f[1]);
                ChecksumMethod method = f.length == 10 ? ChecksumMethod.MD5
                        : f[10] == null ? null : ChecksumMethod.fromXml(f[10]);
                results.put(index, new Result(new ItemOutcome(index, f[6], f[7], Long.parseLong(f[3]),
                        Integer.parseInt(f[2]), f[8], Checksum.of(method, f[9])), Long.parseLong(f[4]),
                        Long.parseLong(f[5])));
            } else if ("N".equals(f[0]) && f.length == 5) {
                int index = Integer.parseInt(f[1]);
                renames.put(index, new Rename(index, f[2], Long.parseLong(f[3]), f[4]));
            } else if ("C".equals(f[0]) && f.length == 7 && f[1] != null) {
                // "C", phase, S(tarted) or E(nded), outcome, retries, return code, error: appendCall's.
                // An end wins over a start, whatever their order.
                boolean ended = "E".equals(f[2]);
                if (ended || !calls.containsKey(f[1])) {
                    calls.put(f[1], new CallRecord(f[1], ended, f[3], Integer.parseInt(f[4]),
                            f[5] == null ? null : Integer.valueOf(f[5]), f[6]));
                }
            }
        }
        return new Journal(results, renames, calls);
    }

    // ------------------------------------------------------------------------------------------
    // State of an earlier version

    /**
     * Tags the transfer files of {@code dir} an earlier version wrote without tags (see
     * {@link StateTag}): requests get their tag file, lines without a tag get theirs; lines with a
     * tag, right or wrong, are kept as they are.
     *
     * @return the files adopted
     */
    static int adoptUntagged(StateTag tag, Path dir) throws IOException {
        List<Path> files;
        try (Stream<Path> listing = Files.list(dir)) {
            files = listing.filter(f -> TRANSFER_FILE.matcher(f.getFileName().toString()).matches()).sorted()
                    .toList();
        }
        int adopted = 0;
        for (Path f : files) {
            String name = f.getFileName().toString();
            if (name.endsWith(".request.xml")) {
                String id = name.substring(0, name.indexOf('.'));
                if (!Files.exists(requestTag(dir, id))) {
                    replace(requestTag(dir, id), tag.tagBytes(name, Files.readAllBytes(f))
                            .getBytes(StandardCharsets.US_ASCII));
                    adopted++;
                }
                continue;
            }
            StringBuilder sb = new StringBuilder();
            boolean changed = false;
            List<String> lines = completeLines(Files.readString(f, StandardCharsets.UTF_8));
            for (String line : lines) {
                if (line.contains(TAG_FIELD)) {
                    sb.append(line);
                } else {
                    sb.append(line).append(TAG_FIELD).append(tag.tag("line", name, line));
                    changed = true;
                }
                sb.append('\n');
            }
            if (name.endsWith(".items") && changed) {
                // An earlier version's plan has no line counting its lines.
                format(sb, tag, name, "E", String.valueOf(lines.size()));
            }
            if (changed) {
                replace(f, sb.toString().getBytes(StandardCharsets.UTF_8));
                adopted++;
            }
        }
        return adopted;
    }

    // ------------------------------------------------------------------------------------------

    private static void append(StateTag tag, Path file, String... fields) throws IOException {
        StringBuilder sb = new StringBuilder();
        format(sb, tag, file.getFileName().toString(), fields);
        Files.writeString(file, sb, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND);
    }

    /** Appends a line of {@code fields} and its tag as file {@code name}'s. */
    private static void format(StringBuilder sb, StateTag tag, String name, String... fields) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < fields.length; i++) {
            if (i > 0) {
                line.append('\t');
            }
            // "-" stands for null; a real "-" is encoded. Encoded, no field starts with '#'.
            line.append(fields[i] == null ? "-" : "-".equals(fields[i]) ? "%2D"
                    : URLEncoder.encode(fields[i], StandardCharsets.UTF_8));
        }
        sb.append(line).append(TAG_FIELD).append(tag.tag("line", name, line.toString())).append('\n');
    }

    /** A file's lines whose tag is right, split and decoded, and how many others there were. */
    private record Lines(List<String[]> fields, int refused) {
    }

    /** The complete lines of a file; a last line without its newline is dropped. */
    private static Lines lines(StateTag tag, Path file) throws IOException {
        String name = file.getFileName().toString();
        List<String[]> out = new ArrayList<>();
        int refused = 0;
        for (String line : completeLines(Files.readString(file, StandardCharsets.UTF_8))) {
            int at = line.lastIndexOf(TAG_FIELD);
            if (at < 0 || !StateTag.matches(tag.tag("line", name, line.substring(0, at)),
                    line.substring(at + TAG_FIELD.length()))) {
                refused++;
                tag.refused();
                continue;
            }
            String[] f = line.substring(0, at).split("\t", -1);
            for (int i = 0; i < f.length; i++) {
                f[i] = "-".equals(f[i]) ? null : URLDecoder.decode(f[i], StandardCharsets.UTF_8);
            }
            out.add(f);
        }
        return new Lines(out, refused);
    }

    private static List<String> completeLines(String text) {
        List<String> out = new ArrayList<>();
        int start = 0;
        int end;
        while ((end = text.indexOf('\n', start)) >= 0) {
            String line = text.substring(start, end);
            start = end + 1;
            if (!line.isEmpty()) {
                out.add(line);
            }
        }
        return out;
    }

    /** Replaces a file whole: a reader sees the old or the new content, never part of it. */
    private static void replace(Path file, byte[] content) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.write(tmp, content);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Moves a file this agent did not write aside, logging and counting it. */
    private static void setAside(StateTag tag, Path file, String id, String why) throws IOException {
        tag.refused();
        Path aside = file.resolveSibling(file.getFileName() + UNTRUSTED);
        log.warn("State file {} of transfer {} was not written by this agent ({}): it is not used, and is moved to {}",
                file, TransferIds.printable(id), why, aside.getFileName());
        Files.move(file, aside, StandardCopyOption.REPLACE_EXISTING);
    }
}
