package org.openmft.agent;

import java.util.HashMap;
import java.util.Map;

/**
 * IBM MFT's result codes for commands and transfers, with IBM's meaning of each. The number is
 * the public contract (replies, the transfer log, process exit codes of {@code -w}); the text is
 * what the code means, for messages and documentation. Item results (0, 1, 2) are
 * {@link ItemOutcome}'s.
 */
public enum ResultCode {
    /** The request or transfer succeeded. */
    SUCCESS(0, "success"),
    /** The command was not carried out (for example: the agent is stopping). */
    COMMAND_UNSUCCESSFUL(1, "command unsuccessful"),
    /** The command timed out waiting for the final status reply. */
    TIMED_OUT(2, "timed out waiting for the final status reply"),
    /** The agent did not acknowledge the request in time. */
    ACK_TIMED_OUT(3, "acknowledgement timed out"),
    /** The request was sent to an agent that is not the one it names. */
    WRONG_AGENT(4, "wrong agent"),
    /** Some items of the transfer failed. */
    PARTIAL_SUCCESS(20, "transfer partially successful"),
    /** A user exit stopped the transfer. */
    STOPPED_BY_EXIT(21, "transfer stopped by a user exit"),
    /** A cancel could not complete within 30 seconds. */
    CANCEL_TIMED_OUT(22, "cancel could not complete in time"),
    /** A cancel named a transfer the agent does not know. */
    CANCEL_ID_NOT_FOUND(26, "cancel: transfer id not found"),
    /** A cancel of this transfer is already in progress. */
    CANCEL_IN_PROGRESS(27, "cancel already in progress"),
    /** The transfer failed: no file was transferred. */
    FAILED(40, "transfer failed"),
    /** The transfer was cancelled. */
    CANCELLED(41, "transfer cancelled"),
    /** A trigger condition was not met. */
    TRIGGER_NOT_MET(42, "trigger condition not met"),
    /** The request document is malformed. */
    MALFORMED_XML(43, "malformed XML"),
    /** The source agent's capacity was exceeded ({@code maxQueuedTransfers}). */
    SOURCE_CAPACITY(44, "source agent capacity exceeded"),
    /** The destination agent's capacity was exceeded ({@code maxDestinationTransfers}). */
    DESTINATION_CAPACITY(45, "destination agent capacity exceeded"),
    /** The source agent's {@code maxFilesForTransfer} was exceeded. */
    SOURCE_MAX_FILES(46, "source agent max-files limit exceeded"),
    /** The destination agent's {@code maxFilesForTransfer} was exceeded. */
    DESTINATION_MAX_FILES(47, "destination agent max-files limit exceeded"),
    /** The destination agent could not be reached. */
    DESTINATION_UNREACHABLE(49, "destination unreachable"),
    /** The agent takes no transfers as source ({@code maxSourceTransfers=0}). */
    NO_SOURCE_TRANSFERS(51, "maxSourceTransfers is 0"),
    /** The agent takes no transfers as destination ({@code maxDestinationTransfers=0}). */
    NO_DESTINATION_TRANSFERS(52, "maxDestinationTransfers is 0"),
    /** The requester is not authorised. */
    NOT_AUTHORIZED(53, "not authorized"),
    /** The source and destination agents differ in {@code authorityChecking}. */
    AUTHORITY_CHECKING_MISMATCH(54, "authorityChecking differs between the agents"),
    /**
     * The destination agent does not write files to queues (file to message): its
     * {@code enableQueueInputOutput} is not true.
     */
    DESTINATION_NO_FILE_TO_MESSAGE(56, "destination does not support file to message"),
    /**
     * The agent that reads the source queue of a message-to-file transfer does not read queues: its
     * {@code enableQueueInputOutput} is not true. (IBM's table words 59 for the destination, but it
     * is the source agent that reads the queue and must allow it.)
     */
    NO_MESSAGE_TO_FILE(59, "agent does not support message to file"),
    /**
     * IBM's "data queue put AMS error": for OpenMFT, the transfer's message protection failed: the
     * destination asks for more protection than the source gives, a certificate is missing or
     * expired, or a START's signature does not verify.
     */
    MESSAGE_PROTECTION(67, "data queue put AMS error (message protection)"),
    /** The transfer's recovery timed out ({@code recoveryTimeout}). */
    RECOVERY_TIMED_OUT(69, "transfer recovery timed out"),
    /** The agent ended abnormally; also a process exit code. */
    AGENT_ENDED_ABNORMALLY(70, "agent ended abnormally"),
    /** The queue manager is unavailable (process exit code). */
    QUEUE_MANAGER_UNAVAILABLE(75, "queue manager unavailable"),
    /** A start-up configuration problem (process exit code). */
    CONFIGURATION_PROBLEM(78, "configuration problem"),
    /** A logger's database problem. */
    DATABASE_PROBLEM(85, "database problem"),
    /** A monitor task's {@code ${...}} variable is malformed (a bad token, an unclosed brace). */
    MONITOR_VARIABLE_SYNTAX(100, "monitor: bad variable substitution syntax"),
    /** A monitor has not exactly one task. */
    MONITOR_TASK_COUNT(103, "monitor: wrong number of task definitions"),
    /** The named monitor does not exist on the agent. */
    MONITOR_MISSING(104, "monitor: monitor missing"),
    /** A monitor of that name exists already (create without -f). */
    MONITOR_ALREADY_PRESENT(105, "monitor: monitor already present"),
    /** The task a monitor submitted was refused or failed. */
    MONITOR_TASK_FAILED(108, "monitor: task failed"),
    /** A task names a variable the trigger does not provide. */
    MONITOR_VARIABLE_NOT_FOUND(110, "monitor: variable not found in metadata"),
    /** The task's source agent is not the monitoring agent. */
    MONITOR_TASK_SOURCE_AGENT(111, "monitor: task source agent does not match the monitor agent"),
    /** The monitored directory may not be read by the agent (its sandbox). */
    MONITOR_DIRECTORY_ACCESS(114, "monitor: directory access denied");

    private static final Map<Integer, ResultCode> BY_CODE = new HashMap<>();

    static {
        for (ResultCode c : values()) {
            BY_CODE.put(c.code, c);
        }
    }

    private final int code;
    private final String meaning;

    ResultCode(int code, String meaning) {
        this.code = code;
        this.meaning = meaning;
    }

    /** The number IBM MFT uses. */
    public int code() {
        return code;
    }

    /** What the code means, in a few words. */
    public String meaning() {
        return meaning;
    }

    /**
     * The code with this number.
     *
     * @throws IllegalArgumentException for a number IBM does not define (or OpenMFT does not use)
     */
    public static ResultCode of(int code) {
        ResultCode c = BY_CODE.get(code);
        if (c == null) {
            throw new IllegalArgumentException("no MFT result code " + code);
        }
        return c;
    }

    /** The result of a transfer from its items' results: 0 when none failed, 40 when all did, else 20. */
    public static ResultCode fromItems(java.util.List<ItemOutcome> items) {
        long failed = items.stream().filter(o -> o.resultCode() == ItemOutcome.FAILED).count();
        return failed == 0 ? SUCCESS : failed == items.size() ? FAILED : PARTIAL_SUCCESS;
    }

    @Override
    public String toString() {
        return code + " (" + meaning + ")";
    }
}
