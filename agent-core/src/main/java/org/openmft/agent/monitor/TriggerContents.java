package org.openmft.agent.monitor;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.openmft.agent.ResultCode;
import org.openmft.agent.transfer.files.Access;
import org.openmft.agent.transfer.files.Sandbox;
import org.openmft.agent.transfer.files.SandboxViolationException;
import org.openmft.xml.TriggerContent;

/**
 * The files a trigger file lists ({@code fteCreateMonitor -tc}): one per line, IBM's default
 * format {@code source} or {@code source,destination} (white space belongs to the paths), or with
 * {@code -tcr} a Java regular expression that the whole line must match, group 1 the source and the
 * optional group 2 the destination ({@code -tcc destSrc}: the other way round).
 *
 * <p>Lines are separated by LF, CRLF or CR; empty lines (only white space) are skipped. Where IBM
 * documents nothing, OpenMFT refuses rather than guesses: a line the regex does not match, a line
 * with more than one comma in the default format, an empty source, a file that is not UTF-8, larger
 * than {@value #MAX_BYTES} bytes or listing more than {@value #MAX_LINES} files all fail the trigger
 * file as a whole (result 108, the monitor's {@code triggerFail} log naming the line), and nothing
 * is submitted for it.
 *
 * <p>Stateless; thread-safe.
 */
final class TriggerContents {
    /** Largest trigger file read, in bytes. */
    static final int MAX_BYTES = 1024 * 1024;
    /** Most files one trigger file lists: IBM's default {@code maxFilesForTransfer}. */
    static final int MAX_LINES = 5000;

    /** One listed file. @param source the source path @param destination the destination, or {@code null} */
    record Entry(String source, String destination) {}

    /** Reads a trigger file for {@link MonitorTasks}; the monitor's sandbox is the caller's. */
    @FunctionalInterface
    interface Reader {
        /**
         * @param monitor the monitor whose trigger file it is
         * @param file the trigger file
         * @return its text
         * @throws TaskVariables.TaskException when it may not or cannot be read, or is too large
         */
        String read(String monitor, Path file) throws TaskVariables.TaskException;
    }

    private TriggerContents() {
    }

    /**
     * Reads a trigger file, at most {@value #MAX_BYTES} bytes of UTF-8, if the sandbox lets it be
     * read; a link is not followed.
     *
     * @param file the trigger file
     * @param sandbox the sandbox of the monitor's creator
     * @return the text, a byte-order mark removed
     * @throws TaskVariables.TaskException 114 when it may not or cannot be read, 108 when too large or not UTF-8
     */
    static String read(Path file, Sandbox sandbox) throws TaskVariables.TaskException {
        try {
            sandbox.check(file, Access.READ);
        } catch (SandboxViolationException e) {
            throw new TaskVariables.TaskException(ResultCode.MONITOR_DIRECTORY_ACCESS, "trigger file " + file
                    + " may not be read: " + e.getMessage());
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
            bytes = in.readNBytes(MAX_BYTES + 1);
        } catch (IOException e) {
            throw new TaskVariables.TaskException(ResultCode.MONITOR_DIRECTORY_ACCESS, "trigger file " + file
                    + " cannot be read: " + e);
        }
        if (bytes.length > MAX_BYTES) {
            throw new TaskVariables.TaskException(ResultCode.MONITOR_TASK_FAILED, "trigger file " + file
                    + " is larger than " + MAX_BYTES + " bytes, the most a trigger file (-tc) may hold");
        }
        try {
            String text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
            return text.startsWith("\uFEFF") ? text.substring(1) : text;
        } catch (CharacterCodingException e) {
            throw new TaskVariables.TaskException(ResultCode.MONITOR_TASK_FAILED, "trigger file " + file
                    + " is not UTF-8 text");
        }
    }

    /**
     * The files a trigger file's text lists.
     *
     * @param name the trigger file, for messages
     * @param text its text
     * @param format how its lines are read
     * @return the files in the order listed; empty when the file lists none
     * @throws TaskVariables.TaskException 108 naming the line that is wrong, or the limit exceeded
     */
    static List<Entry> parse(String name, String text, TriggerContent format) throws TaskVariables.TaskException {
        Pattern regex = format.pattern();
        List<Entry> entries = new ArrayList<>();
        String[] lines = text.split("\r\n|\r|\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (line.isBlank()) {
                continue;
            }
            if (entries.size() == MAX_LINES) {
                throw failed(name, "lists more than " + MAX_LINES + " files, the most one trigger file (-tc) may list");
            }
            Entry entry = regex == null ? plain(name, i + 1, line) : matched(name, i + 1, line, regex, format);
            entries.add(entry);
        }
        return entries;
    }

    private static Entry plain(String name, int number, String line) throws TaskVariables.TaskException {
        int comma = line.indexOf(',');
        if (comma < 0) {
            return new Entry(line, null);
        }
        if (line.indexOf(',', comma + 1) >= 0) {
            throw failed(name, "line " + number + " has more than one comma; expected source or source,destination"
                    + " (use -tcr for another format)");
        }
        String source = line.substring(0, comma);
        String destination = line.substring(comma + 1);
        if (source.isBlank()) {
            throw failed(name, "line " + number + " has no source before its comma");
        }
        return new Entry(source, destination.isBlank() ? null : destination);
    }

    private static Entry matched(String name, int number, String line, Pattern regex, TriggerContent format)
            throws TaskVariables.TaskException {
        Matcher m = regex.matcher(line);
        if (!m.matches()) {
            throw failed(name, "line " + number + " does not match the trigger content regex (-tcr) " + regex.pattern());
        }
        String first = m.group(1);
        String second = m.groupCount() >= 2 ? m.group(2) : null;
        String source = format.destinationFirst() ? second : first;
        String destination = format.destinationFirst() ? first : second;
        if (source == null || source.isEmpty()) {
            throw failed(name, "line " + number + " gives no source (group " + (format.destinationFirst() ? 2 : 1)
                    + " of the trigger content regex (-tcr) is empty)");
        }
        return new Entry(source, destination == null || destination.isEmpty() ? null : destination);
    }

    private static TaskVariables.TaskException failed(String name, String why) {
        return new TaskVariables.TaskException(ResultCode.MONITOR_TASK_FAILED, "trigger file " + name + " " + why);
    }
}
