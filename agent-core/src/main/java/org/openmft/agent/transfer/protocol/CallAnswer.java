package org.openmft.agent.transfer.protocol;

import java.util.List;
import java.util.Objects;

/**
 * What came of a destination's program call, as a CALL_RESULT carries it. Immutable.
 *
 * @param phase the call's element name ({@code preDestinationCall}, {@code postDestinationCall})
 * @param outcome {@code success}, {@code failure} or {@code error}
 * @param retries attempts after the first
 * @param returnCode the last attempt's return code, or null
 * @param stdout standard output lines
 * @param stderr standard error lines
 * @param error why the outcome is an error, or null
 */
public record CallAnswer(String phase, String outcome, int retries, Integer returnCode, List<String> stdout,
        List<String> stderr, String error) {
    /** Copies the lists. */
    public CallAnswer {
        Objects.requireNonNull(phase, "phase");
        Objects.requireNonNull(outcome, "outcome");
        stdout = List.copyOf(stdout);
        stderr = List.copyOf(stderr);
    }
}
