package org.openmft.agent.qmgr;

/**
 * A queue manager could not be created, started, reached or stopped. Carries the process exit
 * code a command should end with: 75 (IBM MFT's "queue manager unavailable") when the queue
 * manager is not running or not reachable, 1 for other failures.
 */
public class QueueManagerException extends Exception {
    private static final long serialVersionUID = 1L;

    /** IBM MFT's process exit code for "queue manager unavailable". */
    public static final int UNAVAILABLE = 75;
    /** The process exit code for a configuration problem, as for a bad properties file. */
    public static final int CONFIGURATION = 78;

    private final int exitCode;

    public QueueManagerException(String message, int exitCode) {
        super(message);
        this.exitCode = exitCode;
    }

    public QueueManagerException(String message, int exitCode, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    /** The process exit code a command should end with. */
    public int exitCode() {
        return exitCode;
    }
}
