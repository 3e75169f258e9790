package org.openmft.agent.calls;

import java.util.List;
import java.util.Objects;

/**
 * What came of a program call, in the shape of IBM's {@code <callResult outcome retries><result
 * returnCode><stdout><line>...} in the transfer log. Immutable.
 *
 * @param outcome success, failure (the program ran but its last return code is not a success) or
 *     error (it could not be run, was ended for its output or time, or was refused)
 * @param retries attempts after the first
 * @param returnCode the last attempt's return code, or null when no attempt ran to its end
 * @param stdout the last attempt's standard output, in lines, bounded by {@code maxCommandOutputSize}
 * @param stderr the last attempt's standard error, likewise
 * @param error why the outcome is an error (a {@code BFGCR} message), or null
 */
public record CallResult(Outcome outcome, int retries, Integer returnCode, List<String> stdout, List<String> stderr,
        String error) {

    /** IBM's outcome values. */
    public enum Outcome {
        /** A return code among the call's success codes. */
        SUCCESS("success"),
        /** The program ran; no attempt returned a success code. */
        FAILURE("failure"),
        /** The program could not be run or did not end by itself. */
        ERROR("error");

        private final String xml;

        Outcome(String xml) {
            this.xml = xml;
        }

        /** The {@code outcome} attribute's value. */
        public String xml() {
            return xml;
        }

        /** Reads {@link #xml()}; anything else is {@link #ERROR}. */
        public static Outcome fromXml(String value) {
            for (Outcome o : values()) {
                if (o.xml.equals(value)) {
                    return o;
                }
            }
            return ERROR;
        }
    }

    /** Copies the lists. */
    public CallResult {
        Objects.requireNonNull(outcome, "outcome");
        stdout = List.copyOf(stdout);
        stderr = List.copyOf(stderr);
    }

    /** A call that never ran: refused or impossible to start. */
    public static CallResult error(String why) {
        return new CallResult(Outcome.ERROR, 0, null, List.of(), List.of(), why);
    }

    /** Whether the call succeeded. */
    public boolean succeeded() {
        return outcome == Outcome.SUCCESS;
    }

    /** One line for people: the outcome, the return code and the error. */
    public String summary() {
        return outcome.xml() + (returnCode == null ? "" : " (return code " + returnCode + ")")
                + (retries > 0 ? " after " + retries + " retries" : "") + (error == null ? "" : ": " + error);
    }
}
