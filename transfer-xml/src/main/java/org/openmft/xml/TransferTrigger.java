package org.openmft.xml;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A transfer's {@code <trigger log="yes|no">}: conditions on files at the source agent, evaluated
 * when the agent receives the request (or when a schedule's occurrence comes). The transfer runs
 * when <em>any</em> condition holds, as IBM documents for several names; otherwise it ends with
 * result 42, logged unless {@code log} is false. Immutable.
 *
 * @param log        whether a trigger that is not met is published ({@code log="yes"}, the default)
 * @param conditions one or more conditions
 */
public record TransferTrigger(boolean log, List<Condition> conditions) {

    /** Validates and copies. */
    public TransferTrigger {
        conditions = List.copyOf(conditions);
        if (conditions.isEmpty()) {
            throw new IllegalArgumentException("a <trigger> needs a <fileExist> or <fileSize> condition");
        }
    }

    /** One condition on one path. */
    public sealed interface Condition permits FileExist, FileSize {
        /** @return the file the condition is about, as the request names it */
        String path();
    }

    /**
     * {@code <fileExist comparison="=|!=" value="exist|noexist">path</fileExist>}.
     *
     * @param comparison {@code =} or {@code !=}
     * @param value      {@code exist} or {@code noexist}
     * @param path       the file
     */
    public record FileExist(String comparison, String value, String path) implements Condition {
        /** Validates IBM's words. */
        public FileExist {
            if (!"=".equals(comparison) && !"!=".equals(comparison)) {
                throw new IllegalArgumentException("comparison " + Checks.quote(comparison) + " is not = or !=");
            }
            if (!"exist".equals(value) && !"noexist".equals(value)) {
                throw new IllegalArgumentException("value " + Checks.quote(value) + " is not exist or noexist");
            }
            Checks.path(path, "trigger path");
        }

        /** Whether the condition asks for the file to exist ({@code = exist} or {@code != noexist}). */
        public boolean wantsFile() {
            return "=".equals(comparison) == "exist".equals(value);
        }
    }

    /**
     * {@code <fileSize comparison=">=" value="n" units="B|KB|MB|GB">path</fileSize>}.
     *
     * @param value the size in {@code units}
     * @param units {@code B}, {@code KB}, {@code MB} or {@code GB} (powers of 1024)
     * @param path  the file
     */
    public record FileSize(long value, String units, String path) implements Condition {
        /** Validates the size. */
        public FileSize {
            Objects.requireNonNull(units, "units");
            units = units.toUpperCase(Locale.ROOT);
            if (value < 0) {
                throw new IllegalArgumentException("value " + value + " is negative");
            }
            long bytes = switch (units) {
                case "B" -> 1L;
                case "KB" -> 1L << 10;
                case "MB" -> 1L << 20;
                case "GB" -> 1L << 30;
                default -> throw new IllegalArgumentException("units " + Checks.quote(units) + " is not B, KB, MB or GB");
            };
            if (value > Long.MAX_VALUE / bytes) {
                throw new IllegalArgumentException("value " + value + units + " is too large");
            }
            Checks.path(path, "trigger path");
        }

        /** The least size in bytes that meets the condition. */
        public long bytes() {
            return value * switch (units) {
                case "KB" -> 1L << 10;
                case "MB" -> 1L << 20;
                case "GB" -> 1L << 30;
                default -> 1L;
            };
        }
    }
}
