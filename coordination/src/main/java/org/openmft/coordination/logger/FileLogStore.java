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
 * IBM's default format, field for field: inserts each followed by {@code ;} (the last one too), the
 * action time cut to 19 characters ({@code 2011-01-26T13:03:26}, UTC), the id padded to 48 characters
 * ({@code null} when a monitor log has none, as IBM writes it), the line type, then (field numbers
 * counted from 0, as IBM's dashboard parser counts them; "-" is a field IBM has and OpenMFT's messages
 * never carry, written empty):
 * <pre>
 * [TSTR] 3 result code (blank); 4 source agent; 5 source QM; 6 source agent type (-); 7 destination agent;
 *        8 destination QM; 9 user; 10 job; 11 schedule id (-); 12 metadata (key=value, key=value)
 * [TPRO] 3 item result code; 4 source; 5 source size; 6 source type (file); 7 source disposition (width 6);
 *        8 alias, 9 filespace, 10-12 correlation boolean, number, string (-); 13 destination;
 *        14 destination size; 15 destination type (file); 16 destination exist; 17 alias, 18 filespace,
 *        19 truncate records, 20-22 correlation boolean, number, string (-); 23 supplement
 * [TCOM] 3 result code; 4 source agent; 5 source QM; 6 source agent type (-); 7 destination agent;
 *        8 destination QM; 9 destination agent type (-); 10 user; 11 job; 12 supplements; 13 metadata
 * [TCAN] 3 to 12 as [TCOM], without the metadata
 * [AUTH] 3 result code; 4 action (not_authorized); 5 authority; 6 user (-: the message carries only the
 *        MQMD user); 7 MQMD user; 8 refusal text
 * [TCAL] 3 call's return code; 4 agent that ran it; 5 its QM; 6 job; 7 command type; 8 command name;
 *        9 arguments; 10 outcome; 11 call element; 12 retries  (one per program call, after [TCOM]/[TCAN])
 * [SSIN] 3 result code; 4 source agent; 5 action; 6 user; 7 time base; 8 time zone; 9 expire count;
 *        10 start; 11 repeat interval; 12 frequency; 13 expire time; 14 job  (then [SSTR], [SSTS]s)
 * [SSTR] 3 source agent; 4 source QM; 5 destination agent; 6 destination QM
 * [SSTS] 3 source file; 4 source queue (-); 5 mode; 6 destination file; 7 destination type (-)
 * [SDEL] 3 result code; 4 source agent; 5 action; 6 user; 7 supplements  ([SEXP] expired, [SSKP] skipped)
 * [CSTR] 3 agent; 4 QM; 5 agent type (-); 6 user; 7 job; 8 command type; 9 command name  (managed call started)
 * [CCOM] 3 result code; 4 agent; 5 QM; 6 job; 7 command type; 8 command name; 9 arguments; 10 outcome
 *        (managed call completed)
 * [MCRT] 3 monitor; 4 agent; 5 QM; 6 action
 * [MACT] 3 result code; 4 monitor; 5 agent; 6 QM; 7 action  (start, stop, delete)
 * [MFIR] as [MACT] (triggerSatisfied, triggerNotSatisfied, triggerFail); 8 supplements
 * </pre>
 * For schedules the id is the schedule's id, for monitors the create request's id. Where it comes
 * from: IBM's default format as IBM MQ 9.1's file logger writes it ({@code [TSTR]}, {@code [TPRO]},
 * {@code [TCOM]}, {@code [TCAN]}, {@code [MCRT]}, {@code [MACT]} lines, compared with ours in
 * FileLogFormatTest), the fields IBM's MFT dashboard parser ({@code json_converter.py} in
 * ibm-messaging/mq-mft) reads for every type, and IBM's documented {@code callCompleted} definition
 * (widths 19, 48, 6, result code 3). Not confirmed by either: what follows the fields the parser reads
 * on {@code [AUTH]} (8), {@code [SSIN]} (10 on), {@code [SSTS]} (5), {@code [SDEL]}/{@code [SEXP]}/
 * {@code [SSKP]} (7) and {@code [MFIR]} (8); {@code [TCAN]}'s 11 and 12 (empty in IBM's line) are
 * taken to be job and supplements as on {@code [TCOM]}. {@code [TCAL]} is OpenMFT's: IBM's call line
 * types are for managed calls; its inserts follow IBM's {@code callCompleted} definition. The managed
 * calls' {@code [CCOM]} inserts are IBM's documented {@code callCompleted} ones (those after the outcome,
 * which the page seen cut off, are left out); the line types {@code [CSTR]} and {@code [CCOM]}, and
 * {@code [CSTR]}'s inserts after the agent, are OpenMFT's reading. Item modes
 * and checksums are not in IBM's {@code [TPRO]} line (the database logger keeps them). Line breaks
 * inside a value become spaces; {@code ;} inside a value is written as is, as IBM does. IBM's
 * {@code FileLoggerFormat.xml} (a custom format) is not read. A {@code malformed} message has no line
 * type in the default format and is rejected; a progress message without items writes nothing and
 * counts as stored.
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
