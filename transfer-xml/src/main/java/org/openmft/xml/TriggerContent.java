package org.openmft.xml;

import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A directory monitor whose trigger file lists the files to transfer ({@code fteCreateMonitor -tc}):
 * each line of a triggering file names a source and optionally a destination, which the task's
 * item takes as {@code ${contentSource}} and {@code ${contentDestination}}; the item repeats once
 * per line and one transfer request goes per trigger file. IBM allows it with the {@code match} and
 * {@code noSizeChange} triggers only, and not with {@code -bs}.
 *
 * <p>In the monitor document: {@code <triggerContent>} after {@code <conditions>} in
 * {@code <triggerMatch>}, with an optional {@code <regex>} ({@code -tcr}) and
 * {@code <captureOrder>} ({@code -tcc}, {@code srcDest} or {@code destSrc}). IBM's own element
 * names for these flags could not be confirmed from the sources available to OpenMFT; these are
 * OpenMFT's (docs/architecture.md, "Resource monitors").
 *
 * @param regex {@code -tcr}: a Java regular expression a whole line must match, group 1 the source
 *     and the optional group 2 the destination; {@code null} for IBM's default format, {@code source}
 *     or {@code source,destination}
 * @param destinationFirst {@code -tcc destSrc}: group 1 is the destination and group 2 the source;
 *     needs a regex with two groups
 */
public record TriggerContent(String regex, boolean destinationFirst) {
    /** {@code -tcc} for source first, the default. */
    public static final String SOURCE_FIRST = "srcDest";
    /** {@code -tcc} for destination first. */
    public static final String DESTINATION_FIRST = "destSrc";

    /** Validates: the regex compiles and has the groups its capture order needs. */
    public TriggerContent {
        if (regex != null) {
            regex = Checks.name(regex, "trigger content regex (-tcr)");
            int groups = compile(regex).matcher("").groupCount();
            if (groups < 1) {
                throw new IllegalArgumentException("trigger content regex (-tcr) " + Checks.quote(regex)
                        + " has no capturing group; group 1 is the file to transfer");
            }
            if (destinationFirst && groups < 2) {
                throw new IllegalArgumentException("-tcc " + DESTINATION_FIRST + " needs a trigger content regex"
                        + " (-tcr) with two capturing groups; " + Checks.quote(regex) + " has " + groups);
            }
        } else if (destinationFirst) {
            throw new IllegalArgumentException("-tcc " + DESTINATION_FIRST + " needs a trigger content regex (-tcr)"
                    + " with two capturing groups");
        }
    }

    /**
     * @param value {@code srcDest} or {@code destSrc}, any case
     * @return whether it is {@code destSrc}
     * @throws IllegalArgumentException naming the value and what is expected
     */
    public static boolean destinationFirst(String value) {
        String v = value.strip();
        if (v.equalsIgnoreCase(DESTINATION_FIRST)) {
            return true;
        }
        if (v.equalsIgnoreCase(SOURCE_FIRST)) {
            return false;
        }
        throw new IllegalArgumentException("-tcc " + Checks.quote(value) + " is not valid; expected "
                + SOURCE_FIRST + " or " + DESTINATION_FIRST);
    }

    /** @return {@code srcDest} or {@code destSrc}, as written in documents and on the command line */
    public String captureOrder() {
        return destinationFirst ? DESTINATION_FIRST : SOURCE_FIRST;
    }

    /** @return the compiled regex, or {@code null} for the default format */
    public Pattern pattern() {
        return regex == null ? null : compile(regex);
    }

    private static Pattern compile(String regex) {
        try {
            return Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("trigger content regex (-tcr) " + Checks.quote(regex)
                    + " is not a valid regular expression: " + e.getDescription());
        }
    }
}
