package org.openmft.xml.log;

import java.util.List;
import java.util.Objects;

import org.openmft.xml.ProgramCall;

/**
 * A program call of a transfer as its log shows it: the call element ({@code <preSourceCall>} and
 * its siblings) with the {@code <command>} and IBM's {@code <callResult outcome retries><result
 * returnCode><stdout><line>...</line></stdout><stderr>...</stderr></result></callResult>}. Immutable.
 *
 * @param element the call element's name: {@code preSourceCall}, {@code postSourceCall},
 *     {@code preDestinationCall} or {@code postDestinationCall}; {@code call} for a managed call
 * @param command what was to run
 * @param outcome {@code success}, {@code failure} or {@code error}; null for a call that has not
 *     ended (a managed call's {@code callStarted}), written without {@code <callResult>}
 * @param retries attempts after the first
 * @param returnCode the last attempt's return code, or null when none ran to its end
 * @param stdout standard output lines
 * @param stderr standard error lines
 * @param error why the outcome is an error, or null (written as {@code <error>} in the result)
 */
public record LogCall(String element, ProgramCall command, String outcome, int retries, Integer returnCode,
        List<String> stdout, List<String> stderr, String error) {
    /** A call not ended yet: its command alone. */
    public static LogCall started(String element, ProgramCall command) {
        return new LogCall(element, command, null, 0, null, List.of(), List.of(), null);
    }

    /** Checks the names and copies the lists. */
    public LogCall {
        Objects.requireNonNull(element, "element");
        Objects.requireNonNull(command, "command");
        stdout = List.copyOf(stdout);
        stderr = List.copyOf(stderr);
    }
}
