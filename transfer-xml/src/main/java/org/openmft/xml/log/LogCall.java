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
 *     {@code preDestinationCall} or {@code postDestinationCall}
 * @param command what was to run
 * @param outcome {@code success}, {@code failure} or {@code error}
 * @param retries attempts after the first
 * @param returnCode the last attempt's return code, or null when none ran to its end
 * @param stdout standard output lines
 * @param stderr standard error lines
 * @param error why the outcome is an error, or null (written as {@code <error>} in the result)
 */
public record LogCall(String element, ProgramCall command, String outcome, int retries, Integer returnCode,
        List<String> stdout, List<String> stderr, String error) {
    /** Checks the names and copies the lists. */
    public LogCall {
        Objects.requireNonNull(element, "element");
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(outcome, "outcome");
        stdout = List.copyOf(stdout);
        stderr = List.copyOf(stderr);
    }
}
