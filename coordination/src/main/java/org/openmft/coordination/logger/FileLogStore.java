package org.openmft.coordination.logger;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.openmft.agent.config.LoggerProperties.FileLoggerMode;
import org.openmft.agent.config.QueueNames;

/**
 * A {@link LogStore} that writes IBM's stand-alone file logger format: text files
 * {@code <LOGGER>0.log}, {@code <LOGGER>1.log} ... in one directory, one line per record (one per
 * item for progress), in UTF-8, with the platform's line separator.
 *
 * <h2>Line format</h2>
 * Inserts separated by {@code ;}: the action time cut to 19 characters
 * ({@code 2011-01-26T13:03:26}, UTC), the transfer id (48 characters), the line type, then:
 * <pre>
 * [TSTR] source agent; source QM; destination agent; destination QM; user; job
 * [TPRO] item result code; source; source type; destination; destination type; mode;
 *        source size; destination size; checksum method; checksum; supplement
 * [TCOM] result code; source agent; source QM; destination agent; destination QM; user; job; supplements
 * [TCAN] as [TCOM]
 * [AUTH] result code; refusing agent; user whose authority was checked; authority; refusal text
 * [TCAL] call's return code; agent that ran it; its QM; job; command type; command name; arguments;
 *        outcome; call element; retries                      (one per program call, after [TCOM]/[TCAN])
 * [SSIN] result code; source agent; action; user; time base; time zone; expire count; start;
 *        repeat interval; frequency; expire time; job          (a schedule submitted; then [SSTR], [SSTS]s)
 * [SSTR] source agent; source QM; destination agent; destination QM
 * [SSTS] source file; source queue (empty); mode; destination file; destination type (empty)
 * [SDEL] result code; source agent; action; user; supplements  ([SEXP] expired, [SSKP] skipped: the same)
 * [MCRT] monitor; agent; QM; action; (empty)
 * [MACT] result code; monitor; agent; QM; action; (empty)    (start, stop, delete)
 * [MFIR] result code; monitor; agent; QM; action; supplements (triggerSatisfied, ...NotSatisfied, triggerFail)
 * </pre>
 * For schedules the id is the schedule's id, for monitors the create request's id. Confirmed for the
 * automation lines: the type names (reference §5.7), the monitor lines whole (IBM's examples of
 * {@code [MCRT]} and {@code [MACT]}), and the positions IBM's MFT dashboard reads ({@code [MFIR]} as
 * {@code [MACT]}; {@code [SSIN]} up to the expire count, {@code [SSTR]}, {@code [SSTS]}'s source file,
 * source queue, destination file and type, {@code [SDEL]}/{@code [SEXP]}/{@code [SSKP]} up to the
 * user). Guessed: the inserts after those. {@code [TCAL]} is OpenMFT's: IBM's call line types are for
 * managed calls; its inserts follow IBM's {@code callCompleted} definition.
 * Confirmed by IBM's documentation: the separator, the first three inserts and their widths (19, 48
 * and 6), the result code's width of 3 (from IBM's default definition of {@code callCompleted}), the
 * type names and, per type, which facts come first (reference §5.7). Guessed, because the default
 * definitions of the transfer types could not be read in full: the order after the result code and
 * agents, the progress fields after the destination type (mode, sizes, checksum, supplement), that an
 * insert with a width is padded with spaces as well as cut, and that a missing value is written
 * empty. Source and destination types are always {@code file}, because OpenMFT's log items are
 * files. Line breaks inside a value become spaces; {@code ;} inside a value is written as is, as IBM
 * does. {@code [AUTH]}, for authority refusals ({@code <notAuthorized>}), is one of IBM's line types
 * (reference §5.7); its inserts after the line type are guessed like the transfer types' (IBM's
 * default definition of {@code notAuthorized} could not be read), following the transfer lines (result
 * code, then agent and user) and AUTH_EVENT's columns, without the refused request, which is a
 * whole XML document. IBM's {@code FileLoggerFormat.xml} (a custom format) is not read. A {@code malformed}
 * message has no line type in the default format and is rejected; a progress message without items
 * writes nothing and counts as stored.
 *
 * <h2>Files</h2>
 * A line goes to the current file unless it would take that file past {@code fileSize}; then the
 * next file is started (a line longer than {@code fileSize} gets a file of its own). CIRCULAR keeps
 * files 0 to {@code fileCount - 1} and overwrites the oldest; LINEAR numbers on without limit and
 * deletes nothing. After a restart the logger appends to the file written last (LINEAR: the highest
 * number; CIRCULAR: the number kept in the side file {@code <LOGGER>.current}, else the newest
 * modification time). Each batch is forced to disk before {@link #storeAll} returns.
 *
 * <h2>Duplicates</h2>
 * Best effort: the keys of the last {@code dedupeKeys} records written are kept in memory and in the
 * side file {@code <LOGGER>.keys}, written after the batch's lines, so that a batch delivered again
 * after a restart is not written twice. If the process dies between the lines and the keys, the
 * batch can appear twice; it is never lost. When a batch fails, the lines it added to the current
 * file are cut off again; lines already moved to a file that was since rotated away stay.
 *
 * <p>Queries are not supported: the files are for people and tools that read IBM's format. Not safe
 * for two processes on the same directory and logger name. Thread-safe within one process.
 */
public final class FileLogStore implements LogStore {

    private final Path directory;
    private final String loggerName;
    private final FileLoggerMode mode;
    private final long fileSizeBytes;
    private final int fileCount;
    private final int dedupeKeys;
    private final Pattern fileName;
    private final Path keysFile;
    private final Path currentIndexFile;

    /** The keys of the last records written, oldest first, at most {@link #dedupeKeys}. */
    private final Deque<String> recentKeys = new ArrayDeque<>();
    private final Set<String> recentKeySet = new HashSet<>();
    private int keysFileLines;

    private int currentIndex;
    private FileChannel current;
    private long currentSize;
    private boolean closed;

    private FileLogStore(Path directory, String loggerName, FileLoggerMode mode, long fileSizeBytes, int fileCount,
            int dedupeKeys) {
        this.directory = directory;
        this.loggerName = loggerName;
        this.mode = mode;
        this.fileSizeBytes = fileSizeBytes;
        this.fileCount = fileCount;
        this.dedupeKeys = dedupeKeys;
        this.fileName = Pattern.compile(Pattern.quote(loggerName) + "(0|[1-9][0-9]{0,8})\\.log");
        this.keysFile = directory.resolve(loggerName + ".keys");
        this.currentIndexFile = directory.resolve(loggerName + ".current");
    }

    /**
     * Opens the store, creating the directory, and continues the file written last.
     *
     * @param directory where the files go, normally {@code DataDirectory.loggerLogDir}
     * @param loggerName the logger's name, any case; upper-cased in file names
     * @param mode circular or linear
     * @param fileSizeBytes the largest size of one file, at least 1
     * @param fileCount the files kept in circular mode, at least 1
     * @param dedupeKeys how many of the last keys to remember against duplicates; 0 for none
     * @return the store
     * @throws LogStoreException when the directory or a file cannot be opened
     * @throws IllegalArgumentException when a number is out of range or the name is not valid
     */
    public static FileLogStore open(Path directory, String loggerName, FileLoggerMode mode, long fileSizeBytes,
            int fileCount, int dedupeKeys) throws LogStoreException {
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(mode, "mode");
        if (fileSizeBytes < 1 || fileCount < 1 || dedupeKeys < 0) {
            throw new IllegalArgumentException("fileSizeBytes and fileCount must be at least 1, dedupeKeys at least 0: "
                    + fileSizeBytes + ", " + fileCount + ", " + dedupeKeys);
        }
        FileLogStore store = new FileLogStore(directory.toAbsolutePath().normalize(),
                QueueNames.validateLoggerName(loggerName), mode, fileSizeBytes, fileCount, dedupeKeys);
        try {
            Files.createDirectories(store.directory);
            store.loadKeys();
            store.openCurrent();
        } catch (IOException e) {
            throw new LogStoreException("cannot open the file logger " + store.loggerName + " in " + store.directory
                    + ": " + e, e);
        }
        return store;
    }

    /**
     * The file with a number.
     *
     * @param index the file number
     * @return {@code <directory>/<LOGGER><index>.log}
     */
    public Path file(int index) {
        return directory.resolve(loggerName + index + ".log");
    }

    /**
     * The file lines are written to now.
     *
     * @return the current file
     */
    public synchronized Path currentFile() {
        return file(currentIndex);
    }

    @Override
    public synchronized List<StoreOutcome> storeAll(List<LogRecord> records) throws LogStoreException {
        Objects.requireNonNull(records, "records");
        if (closed) {
            throw new IllegalStateException(this + " is closed");
        }
        int startIndex = currentIndex;
        long startSize = currentSize;
        List<StoreOutcome> outcomes = new ArrayList<>(records.size());
        List<String> written = new ArrayList<>();
        Set<String> batchKeys = new HashSet<>();
        try {
            for (LogRecord record : records) {
                String key = record.key();
                if (recentKeySet.contains(key) || !batchKeys.add(key)) {
                    outcomes.add(StoreOutcome.duplicate(key));
                    continue;
                }
                if (record.refusal() != null) {
                    writeLine(FileLogFormat.line(record.refusal()));
                } else if (record.schedule() != null) {
                    if (!FileLogFormat.hasLines(record.schedule())) {
                        outcomes.add(StoreOutcome.rejected(key, "the file logger's format has no line type for"
                                + " schedule action '" + record.schedule().action() + "'"));
                        continue;
                    }
                    for (String line : FileLogFormat.lines(record.schedule())) {
                        writeLine(line);
                    }
                } else if (record.monitor() != null) {
                    writeLine(FileLogFormat.line(record.monitor()));
                } else if (FileLogFormat.type(record.log().action()) == null) {
                    outcomes.add(StoreOutcome.rejected(key, "the file logger's format has no line type for a '"
                            + record.log().action().xml() + "' message"));
                    continue;
                } else {
                    for (String line : FileLogFormat.lines(record.log(), record.received())) {
                        writeLine(line);
                    }
                }
                written.add(key);
                outcomes.add(StoreOutcome.stored(key));
            }
            current.force(false);
            rememberKeys(written);
            return List.copyOf(outcomes);
        } catch (IOException e) {
            undo(startIndex, startSize, e);
            throw new LogStoreException("cannot write " + records.size() + " log message(s) to " + currentFile()
                    + ": " + e, e);
        }
    }

    /**
     * Not supported: the file logger's text is not indexed.
     *
     * @throws UnsupportedOperationException always
     */
    @Override
    public List<StoredTransfer> transfers(TransferQuery query) {
        throw notQueryable();
    }

    /**
     * Not supported: the file logger's text is not indexed.
     *
     * @throws UnsupportedOperationException always
     */
    @Override
    public Optional<StoredTransfer> transfer(String transferId) {
        throw notQueryable();
    }

    @Override
    public synchronized void close() throws LogStoreException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            current.force(false);
            current.close();
        } catch (IOException e) {
            throw new LogStoreException("cannot close " + currentFile() + ": " + e, e);
        }
    }

    @Override
    public String toString() {
        return "FileLogStore[" + loggerName + ", " + mode + ", " + directory + "]";
    }

    private static UnsupportedOperationException notQueryable() {
        return new UnsupportedOperationException("a FILE logger writes IBM's text format, which cannot be queried; "
                + "mft transfer list and show need a DATABASE logger (wmqfte.logger.type=DATABASE)");
    }

    // ---- files

    private void openCurrent() throws IOException {
        currentIndex = mode == FileLoggerMode.LINEAR ? highestIndex() : circularIndex();
        current = FileChannel.open(file(currentIndex), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND);
        currentSize = current.size();
        if (mode == FileLoggerMode.CIRCULAR) {
            saveCurrentIndex();
        }
    }

    /**
     * The circular file written last, as {@code <LOGGER>.current} says; without it (or when it names
     * a file beyond {@code fileCount}), the one modified last. Modification times alone cannot tell:
     * two files written within one tick of the file system's clock have the same time.
     */
    private int circularIndex() throws IOException {
        if (Files.exists(currentIndexFile)) {
            try {
                int saved = Integer.parseInt(Files.readString(currentIndexFile, StandardCharsets.US_ASCII).strip());
                if (saved >= 0 && saved < fileCount) {
                    return saved;
                }
            } catch (NumberFormatException e) {
                // A damaged file: fall back to the modification times.
            }
        }
        return newestIndex();
    }

    private void saveCurrentIndex() throws IOException {
        Path temporary = currentIndexFile.resolveSibling(currentIndexFile.getFileName() + ".tmp");
        writeForced(temporary, currentIndex + "\n", StandardOpenOption.TRUNCATE_EXISTING);
        Files.move(temporary, currentIndexFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private int highestIndex() throws IOException {
        int highest = 0;
        for (int index : existingIndexes()) {
            highest = Math.max(highest, index);
        }
        return highest;
    }

    /** The circular file written last; 0 when there is none. */
    private int newestIndex() throws IOException {
        int newest = 0;
        FileTime newestTime = null;
        for (int index : existingIndexes()) {
            if (index >= fileCount) {
                continue;
            }
            FileTime time = Files.getLastModifiedTime(file(index));
            if (newestTime == null || time.compareTo(newestTime) > 0) {
                newest = index;
                newestTime = time;
            }
        }
        return newest;
    }

    private List<Integer> existingIndexes() throws IOException {
        List<Integer> indexes = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, loggerName + "*.log")) {
            for (Path file : files) {
                Matcher m = fileName.matcher(file.getFileName().toString());
                if (m.matches()) {
                    indexes.add(Integer.parseInt(m.group(1)));
                }
            }
        }
        return indexes;
    }

    private void writeLine(String line) throws IOException {
        byte[] bytes = (line + System.lineSeparator()).getBytes(StandardCharsets.UTF_8);
        if (currentSize > 0 && currentSize + bytes.length > fileSizeBytes) {
            rotate();
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining()) {
            current.write(buffer);
        }
        currentSize += bytes.length;
    }

    /** Closes the current file and starts the next: CIRCULAR wraps round and overwrites, LINEAR numbers on. */
    private void rotate() throws IOException {
        current.force(false);
        current.close();
        currentIndex = mode == FileLoggerMode.CIRCULAR ? (currentIndex + 1) % fileCount : currentIndex + 1;
        current = FileChannel.open(file(currentIndex), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
        currentSize = 0;
        if (mode == FileLoggerMode.CIRCULAR) {
            saveCurrentIndex();
        }
    }

    /** After a failed batch: cut off what it added to the file it started in, if that is still the current one. */
    private void undo(int startIndex, long startSize, IOException failure) {
        try {
            if (currentIndex == startIndex && current.isOpen()) {
                current.truncate(startSize);
                currentSize = startSize;
            }
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
    }

    // ---- duplicate keys

    private void loadKeys() throws IOException {
        if (dedupeKeys == 0 || !Files.exists(keysFile)) {
            return;
        }
        List<String> lines = Files.readAllLines(keysFile, StandardCharsets.US_ASCII);
        keysFileLines = lines.size();
        for (String key : lines) {
            // A line cut short by a crash matches no key, so it does no harm.
            if (!key.isBlank()) {
                remember(key.strip());
            }
        }
    }

    private void remember(String key) {
        if (recentKeySet.add(key)) {
            recentKeys.addLast(key);
            if (recentKeys.size() > dedupeKeys) {
                recentKeySet.remove(recentKeys.removeFirst());
            }
        }
    }

    /**
     * Appends the batch's keys to the side file, after its lines are on disk. The file is rewritten
     * with only the remembered keys when it has grown to twice as many lines, by an atomic rename so
     * that a crash leaves the old or the new file, never a cut one.
     */
    private void rememberKeys(List<String> keys) throws IOException {
        if (dedupeKeys == 0 || keys.isEmpty()) {
            return;
        }
        if (keysFileLines + keys.size() > 2L * dedupeKeys) {
            List<String> kept = new ArrayList<>(recentKeys);
            kept.addAll(keys);
            StringBuilder all = new StringBuilder();
            for (String key : kept.subList(Math.max(0, kept.size() - dedupeKeys), kept.size())) {
                all.append(key).append('\n');
            }
            Path temporary = keysFile.resolveSibling(keysFile.getFileName() + ".tmp");
            writeForced(temporary, all.toString(), StandardOpenOption.TRUNCATE_EXISTING);
            Files.move(temporary, keysFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            keysFileLines = Math.min(kept.size(), dedupeKeys);
        } else {
            StringBuilder text = new StringBuilder();
            for (String key : keys) {
                text.append(key).append('\n');
            }
            writeForced(keysFile, text.toString(), StandardOpenOption.APPEND);
            keysFileLines += keys.size();
        }
        // Only once the side file holds them: a failed batch must leave no key behind.
        keys.forEach(this::remember);
    }

    private static void writeForced(Path file, String text, StandardOpenOption how) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, how)) {
            ByteBuffer buffer = ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII));
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(false);
        }
    }
}
