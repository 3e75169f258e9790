package org.openmft.cli;

/**
 * The process exit codes of {@code mft} and the {@code fte*} launchers. They follow IBM MFT's
 * command return codes and agent process exit codes, so scripts written for IBM MFT can test them
 * unchanged.
 */
public final class ExitCodes {
    /** The command succeeded. */
    public static final int OK = 0;
    /** The command was unsuccessful, including a wrong flag or value on the command line. */
    public static final int FAILED = 1;
    /** The command timed out waiting for the agent's reply (IBM result 2). */
    public static final int TIMED_OUT = 2;
    /** The agent ended abnormally. */
    public static final int ABNORMAL_END = 70;
    /** The queue manager is not available. */
    public static final int QMGR_UNAVAILABLE = 75;
    /** A configuration problem: a properties file is missing or holds a bad value. */
    public static final int CONFIGURATION = 78;

    private ExitCodes() {
    }
}
