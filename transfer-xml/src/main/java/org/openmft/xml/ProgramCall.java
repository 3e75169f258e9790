package org.openmft.xml;

import java.util.List;
import java.util.Objects;

/**
 * One program call of a transfer ({@code <preSourceCall>} and its siblings hold one
 * {@code <command>}): what to run, with which arguments, how often to try and which return codes
 * are success. Immutable.
 *
 * @param type what kind of program; only {@link CallType#EXECUTABLE} runs
 * @param name the program: a name found along the agent's {@code commandPath}, or a path that must
 *     lie inside it
 * @param arguments the {@code <argument>} values in order, passed to the program as they are
 *     (no shell, so nothing in them is interpreted)
 * @param retryCount extra attempts after an attempt whose return code is not a success, 0 to
 *     {@value #MAX_RETRY_COUNT}
 * @param retryWaitSeconds seconds between attempts, 0 to {@value #MAX_RETRY_WAIT_SECONDS}
 * @param successCodes which return codes are success
 */
public record ProgramCall(CallType type, String name, List<String> arguments, int retryCount, int retryWaitSeconds,
        SuccessCodes successCodes) {

    /** Most retries a call may ask for (OpenMFT's bound: a call holds its transfer while it runs). */
    public static final int MAX_RETRY_COUNT = 1000;
    /** Longest wait between attempts, a day (OpenMFT's bound). */
    public static final int MAX_RETRY_WAIT_SECONDS = 86400;
    /** Most arguments a call may have (OpenMFT's bound). */
    public static final int MAX_ARGUMENTS = 1000;

    /** Validates and copies the arguments. */
    public ProgramCall {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(successCodes, "successRC");
        name = Checks.xmlText(Objects.requireNonNull(name, "name"), "command name").strip();
        if (name.isEmpty()) {
            throw new IllegalArgumentException("the command name must not be empty");
        }
        if (name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("the command name must not contain a NUL character");
        }
        arguments = List.copyOf(arguments);
        if (arguments.size() > MAX_ARGUMENTS) {
            throw new IllegalArgumentException("a command has at most " + MAX_ARGUMENTS + " arguments, not "
                    + arguments.size());
        }
        for (String a : arguments) {
            Checks.xmlText(a, "argument of command " + Checks.quote(name));
            if (a.indexOf('\0') >= 0) {
                throw new IllegalArgumentException("an argument of command " + Checks.quote(name)
                        + " contains a NUL character");
            }
        }
        if (retryCount < 0 || retryCount > MAX_RETRY_COUNT) {
            throw new IllegalArgumentException("retryCount " + retryCount + " is out of range 0-" + MAX_RETRY_COUNT);
        }
        if (retryWaitSeconds < 0 || retryWaitSeconds > MAX_RETRY_WAIT_SECONDS) {
            throw new IllegalArgumentException("retryWait " + retryWaitSeconds + " is out of range 0-"
                    + MAX_RETRY_WAIT_SECONDS + " seconds");
        }
    }

    /** An executable with IBM's defaults: no retries, no wait, success 0. */
    public static ProgramCall executable(String name, List<String> arguments) {
        return new ProgramCall(CallType.EXECUTABLE, name, arguments, 0, 0, SuccessCodes.ZERO);
    }
}
