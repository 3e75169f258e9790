package org.openmft.cli;

/**
 * A command ends with a message for the user and an exit code from {@link ExitCodes}; no stack
 * trace is printed unless {@code -v} was given.
 */
final class CommandFailure extends Exception {
    private static final long serialVersionUID = 1L;

    private final int exitCode;

    CommandFailure(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    CommandFailure(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    int exitCode() {
        return exitCode;
    }
}
