package org.openmft.agent.config;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

/**
 * Writes a properties file for a registry: a header comment saying what wrote it and when, then one
 * {@code key=value} line per set key, in registry order, escaped so that {@link java.util.Properties}
 * (and so IBM's tools) read back exactly the values given. The output is pure ASCII: non-ASCII
 * characters become {@code \}{@code uXXXX}.
 *
 * <p>The file is replaced atomically (written to a temporary file in the same directory, flushed to
 * disk, then renamed), so a reader never sees half a file; an existing file is kept unless
 * {@code force} is given, as with IBM's {@code -f}. A file with a secret value ({@link ConfigKey#secret()})
 * is created readable by its owner only. Thread-safe.
 */
public final class PropertiesWriter {
    private final String writtenBy;
    private final Clock clock;

    /**
     * Creates a writer.
     *
     * @param writtenBy what writes the files, for the header, such as "OpenMFT fteCreateAgent"
     * @param clock the time source for the header
     */
    public PropertiesWriter(String writtenBy, Clock clock) {
        // A line break in the header would turn the rest of it into a property.
        this.writtenBy = Objects.requireNonNull(writtenBy, "writtenBy").replaceAll("[\\r\\n]+", " ");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Writes the file, creating its directory if needed.
     *
     * @param file the file to write
     * @param registry the registry giving key order; every key in {@code values} must belong to it
     * @param values key to value; {@code null} values are left out. Not validated here: callers that
     *        take values from users check them with {@link ConfigRegistry#parse} first.
     * @param force whether to replace an existing file
     * @throws FileAlreadyExistsException when the file exists and {@code force} is false
     * @throws IOException when writing fails; the original file, if any, is then unchanged
     * @throws IllegalArgumentException when a key does not belong to the registry
     */
    public void write(Path file, ConfigRegistry registry, Map<String, String> values, boolean force)
            throws IOException {
        byte[] bytes = render(registry, values).getBytes(StandardCharsets.US_ASCII);
        Path target = file.toAbsolutePath();
        if (!force && Files.exists(target)) {
            throw new FileAlreadyExistsException(target.toString(), null,
                    "already exists; use the force option to replace it");
        }
        Path dir = target.getParent();
        Files.createDirectories(dir);
        // Not Files.createTempFile: its owner-only permissions would stick to the renamed file, and an
        // administrator often writes files that the agent's user must read. A file holding a secret,
        // though, is created owner-only, so that the password is never readable by others, not even
        // for a moment.
        Path tmp = dir.resolve("." + target.getFileName() + "." + UUID.randomUUID() + ".tmp");
        FileAttribute<?>[] attributes = holdsSecret(registry, values) ? PrivateFiles.ownerOnlyFile(tmp)
                : new FileAttribute<?>[0];
        try {
            try (FileChannel channel = FileChannel.open(tmp,
                    Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), attributes)) {
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(true);
            }
            if (force) {
                try {
                    Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
                }
            } else {
                // Without REPLACE_EXISTING the move fails if another process created the file meanwhile.
                Files.move(tmp, target);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** Whether a value to write belongs to a secret key, such as a database password. */
    static boolean holdsSecret(ConfigRegistry registry, Map<String, String> values) {
        return values.entrySet().stream().anyMatch(e -> e.getValue() != null
                && registry.key(e.getKey()).map(ConfigKey::secret).orElse(false));
    }

    /**
     * The text {@link #write} would write.
     *
     * @param registry the registry giving key order
     * @param values key to value; {@code null} values are left out
     * @return the file content, lines ending in {@code \n}
     * @throws IllegalArgumentException when a key does not belong to the registry
     */
    public String render(ConfigRegistry registry, Map<String, String> values) {
        for (String key : values.keySet()) {
            if (registry.key(key).isEmpty()) {
                throw new IllegalArgumentException(key + " is not a key of " + registry.fileName());
            }
        }
        StringBuilder out = new StringBuilder();
        out.append("# ").append(registry.fileName()).append('\n');
        out.append("# Written by ").append(escapeComment(writtenBy)).append(" at ")
                .append(clock.instant().truncatedTo(ChronoUnit.SECONDS)).append('\n');
        for (ConfigKey<?> key : registry.keys()) {
            String value = values.get(key.name());
            if (value != null) {
                out.append(escape(key.name(), true)).append('=').append(escape(value, false)).append('\n');
            }
        }
        return out.toString();
    }

    /**
     * Escapes text the way {@link java.util.Properties#store(java.io.OutputStream, String)} does, so
     * that {@link java.util.Properties#load} gives it back unchanged.
     *
     * @param text the key or value
     * @param isKey keys escape every space, values only a leading one
     * @return the escaped text, ASCII only
     */
    static String escape(String text, boolean isKey) {
        StringBuilder out = new StringBuilder(text.length() + 8);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                // Properties.load skips the white space before a value; once the first character is an
                // escaped space, the spaces after it are kept, so only the first needs escaping.
                case ' ' -> out.append(isKey || i == 0 ? "\\ " : " ");
                case '\t' -> out.append("\\t");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\f' -> out.append("\\f");
                case '=', ':', '#', '!' -> out.append('\\').append(c);
                default -> {
                    if (c < 0x20 || c > 0x7e) {
                        out.append(String.format("\\u%04X", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }

    private static String escapeComment(String text) {
        StringBuilder out = new StringBuilder();
        for (char c : text.toCharArray()) {
            out.append(c < 0x20 || c > 0x7e ? String.format("\\u%04X", (int) c) : String.valueOf(c));
        }
        return out.toString();
    }
}
