package org.openmft.xml;

import java.util.Locale;
import java.util.Objects;

/**
 * One {@code <condition>} of a monitor's {@code <triggerMatch>}, as Monitor.xsd names them and
 * {@code fteCreateMonitor -tr} writes them. Every directory condition names the files it looks at
 * with a {@link FilePattern} and an optional exclusion ({@code -x}); the queue conditions
 * ({@link QueueNotEmpty}, {@link CompleteGroups}) have neither. Immutable.
 */
public sealed interface MonitorCondition {

    /** @return the files the condition looks at, or {@code null} for a queue condition */
    FilePattern pattern();

    /** @return files left out although they match, or {@code null} */
    FilePattern exclude();

    /** @return whether this is a queue monitor's condition */
    default boolean onQueue() {
        return pattern() == null;
    }

    /** A queue monitor's condition: it looks at messages, not files, so it has no pattern. */
    sealed interface QueueCondition extends MonitorCondition {
        @Override
        default FilePattern pattern() {
            return null;
        }

        @Override
        default FilePattern exclude() {
            return null;
        }
    }

    /** {@code <queueNotEmpty/>} ({@code -tr queueNotEmpty}): the queue holds a message. */
    record QueueNotEmpty() implements QueueCondition {
    }

    /**
     * {@code <completeGroups/>} ({@code -tr completeGroups}): the queue holds a complete message
     * group (its last message is there); a message outside any group is a group of one.
     */
    record CompleteGroups() implements QueueCondition {
    }

    /**
     * {@code <fileMatch>} ({@code -tr match,P}): each matching file is a trigger match.
     *
     * @param pattern the files
     * @param exclude files left out, or {@code null}
     */
    record FileMatch(FilePattern pattern, FilePattern exclude) implements MonitorCondition {
        /** Validates. */
        public FileMatch {
            Objects.requireNonNull(pattern, "pattern");
        }
    }

    /**
     * {@code <fileNoMatch>} ({@code -tr noMatch,P}): fires when no file matches.
     *
     * @param pattern the files
     * @param exclude files left out, or {@code null}
     */
    record FileNoMatch(FilePattern pattern, FilePattern exclude) implements MonitorCondition {
        /** Validates. */
        public FileNoMatch {
            Objects.requireNonNull(pattern, "pattern");
        }
    }

    /**
     * {@code <fileSize><compare operator=">=" units="KB">n</compare>…</fileSize>}
     * ({@code -tr fileSize>=nKB,P}): a matching file whose size is at least the given amount.
     *
     * @param amount the size in {@code units}; not negative
     * @param units B, KB, MB or GB (powers of 1024)
     * @param pattern the files
     * @param exclude files left out, or {@code null}
     */
    record FileSize(long amount, SizeUnit units, FilePattern pattern, FilePattern exclude) implements MonitorCondition {
        /** Validates. */
        public FileSize {
            Objects.requireNonNull(units, "units");
            Objects.requireNonNull(pattern, "pattern");
            if (amount < 0 || amount > Long.MAX_VALUE / units.bytes) {
                throw new IllegalArgumentException("file size " + amount + units.name() + " is out of range");
            }
        }

        /** @return the threshold in bytes */
        public long bytes() {
            return amount * units.bytes;
        }
    }

    /**
     * {@code <fileSizeSame polls="n">} ({@code -tr noSizeChange=n,P}): a matching file whose size
     * stayed the same for {@code polls} polls in a row.
     *
     * @param polls how many polls; at least 1
     * @param pattern the files
     * @param exclude files left out, or {@code null}
     */
    record FileSizeSame(int polls, FilePattern pattern, FilePattern exclude) implements MonitorCondition {
        /** Most polls accepted. */
        public static final int MAX_POLLS = 100_000;

        /** Validates. */
        public FileSizeSame {
            Objects.requireNonNull(pattern, "pattern");
            if (polls < 1 || polls > MAX_POLLS) {
                throw new IllegalArgumentException("noSizeChange polls " + polls + " is out of range 1-" + MAX_POLLS);
            }
        }
    }

    /**
     * {@code <pattern>} or {@code <exclude>}: a wildcard ({@code *} any run, {@code ?} one character)
     * or, with {@code type="regex"}, a Java regular expression, matched against file names.
     *
     * @param text the pattern as written
     * @param regex whether it is a regular expression
     */
    record FilePattern(String text, boolean regex) {
        /** Validates; a regular expression must compile. */
        public FilePattern {
            text = Checks.name(text, "pattern");
            if (regex) {
                try {
                    java.util.regex.Pattern.compile(text);
                } catch (java.util.regex.PatternSyntaxException e) {
                    throw new IllegalArgumentException("pattern " + Checks.quote(text)
                            + " is not a valid regular expression: " + e.getDescription());
                }
            }
        }
    }

    /** Units of {@link FileSize}. */
    enum SizeUnit {
        B(1), KB(1024), MB(1024 * 1024), GB(1024L * 1024 * 1024);

        private final long bytes;

        SizeUnit(long bytes) {
            this.bytes = bytes;
        }

        /**
         * @param value B, KB, MB or GB, any case
         * @return the unit
         * @throws IllegalArgumentException naming the value
         */
        public static SizeUnit fromXml(String value) {
            try {
                return valueOf(value.strip().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(Checks.quote(value) + " is not valid; expected B, KB, MB or GB");
            }
        }
    }
}
