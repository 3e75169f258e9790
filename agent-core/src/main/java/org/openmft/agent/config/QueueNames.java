package org.openmft.agent.config;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The names of an agent's queues, IBM MFT's verbatim so that IBM tooling, MQSC scripts and
 * authority set-ups written for IBM agents apply unchanged. Every method takes the agent name in
 * any case and validates it with {@link #validateAgentName}.
 *
 * <p>An agent name is at most 28 characters so that the longest queue name,
 * {@code SYSTEM.FTE.AUTHAGT1.<agent>} (20 + 28 characters), stays within IBM MQ's 48.
 */
public final class QueueNames {

    /** IBM MQ's limit on queue name length. */
    public static final int MAX_QUEUE_NAME_LENGTH = 48;

    /** IBM MFT's limit on agent name length. */
    public static final int MAX_AGENT_NAME_LENGTH = 28;

    /** The rule for an agent name as written (any case), shared with {@link AgentProperties#AGENT_NAME}. */
    static final Validator<String> AGENT_NAME_RULE = Validator.regex("[A-Za-z0-9._]{1," + MAX_AGENT_NAME_LENGTH + "}",
            "a name of 1 to " + MAX_AGENT_NAME_LENGTH + " characters from A-Z, a-z, 0-9, '.' and '_'");

    // Checked before upper-casing, so that letters outside A-Z whose upper case is in A-Z (the dotless
    // i of Turkish, for one) are refused rather than silently turned into a different name.
    private static final Pattern AGENT_NAME = Pattern.compile("[A-Za-z0-9._]{1," + MAX_AGENT_NAME_LENGTH + "}");

    private static final String PREFIX = "SYSTEM.FTE.";

    private QueueNames() {
    }

    /**
     * Checks an agent name and returns it upper-cased, the form used in queue names, paths and
     * messages; IBM MFT treats agent names case-insensitively in the same way.
     *
     * @param agent the agent name in any case
     * @return the upper-cased name
     * @throws IllegalArgumentException when the name is not 1 to 28 characters of A-Z, 0-9, '.' and '_'
     */
    public static String validateAgentName(String agent) {
        if (agent == null || !AGENT_NAME.matcher(agent).matches()) {
            throw new IllegalArgumentException("agent name '" + agent + "' is not valid: an agent name is 1 to "
                    + MAX_AGENT_NAME_LENGTH + " characters from A-Z, 0-9, '.' and '_' (lower-case letters are "
                    + "upper-cased)");
        }
        return agent.toUpperCase(Locale.ROOT);
    }

    /**
     * The command queue, where requests for the agent arrive.
     *
     * @param agent the agent name
     * @return {@code SYSTEM.FTE.COMMAND.<AGENT>}
     */
    public static String command(String agent) {
        return name("COMMAND.", agent);
    }

    /**
     * The data queue, where the agent receives file chunks as a destination.
     *
     * @param agent the agent name
     * @return {@code SYSTEM.FTE.DATA.<AGENT>}
     */
    public static String data(String agent) {
        return name("DATA.", agent);
    }

    /**
     * The reply queue, where the agent receives acknowledgements from its peers.
     *
     * @param agent the agent name
     * @return {@code SYSTEM.FTE.REPLY.<AGENT>}
     */
    public static String reply(String agent) {
        return name("REPLY.", agent);
    }

    /**
     * The state queue, the agent's persistent store of in-flight transfers.
     *
     * @param agent the agent name
     * @return {@code SYSTEM.FTE.STATE.<AGENT>}
     */
    public static String state(String agent) {
        return name("STATE.", agent);
    }

    /**
     * The event queue, the history of resource monitors.
     *
     * @param agent the agent name
     * @return {@code SYSTEM.FTE.EVENT.<AGENT>}
     */
    public static String event(String agent) {
        return name("EVENT.", agent);
    }

    /**
     * The lock queue of highly available agent instances.
     *
     * @param agent the agent name
     * @return {@code SYSTEM.FTE.HA.<AGENT>}
     */
    public static String ha(String agent) {
        return name("HA.", agent);
    }

    /**
     * OpenMFT's queue for command messages the agent could not parse, so that a bad message is kept
     * for inspection instead of being lost or blocking the command queue; named by analogy with IBM's
     * {@code SYSTEM.FTE.LOG.RJCT.<logger>}.
     *
     * @param agent the agent name
     * @return {@code SYSTEM.FTE.CMD.RJCT.<AGENT>}
     */
    public static String rejected(String agent) {
        return name("CMD.RJCT.", agent);
    }

    /**
     * Authority queue: which agents' users may transfer to or from this agent.
     *
     * @param agent the agent name
     * @return {@code SYSTEM.FTE.AUTHAGT1.<AGENT>}
     */
    public static String authAgent(String agent) {
        return name("AUTHAGT1.", agent);
    }

    /**
     * Authority queue: starting and cancelling transfers.
     *
     * @param agent the agent name
     * @return {@code SYSTEM.FTE.AUTHTRN1.<AGENT>}
     */
    public static String authTransfer(String agent) {
        return name("AUTHTRN1.", agent);
    }

    /**
     * Authority queue: scheduled transfers.
     *
     * @param agent the agent name
     * @return {@code SYSTEM.FTE.AUTHSCH1.<AGENT>}
     */
    public static String authSchedule(String agent) {
        return name("AUTHSCH1.", agent);
    }

    /**
     * Authority queue: resource monitors.
     *
     * @param agent the agent name
     * @return {@code SYSTEM.FTE.AUTHMON1.<AGENT>}
     */
    public static String authMonitor(String agent) {
        return name("AUTHMON1.", agent);
    }

    /**
     * Authority queue: acting on monitors and schedules created by other users.
     *
     * @param agent the agent name
     * @return {@code SYSTEM.FTE.AUTHOPS1.<AGENT>}
     */
    public static String authOperations(String agent) {
        return name("AUTHOPS1.", agent);
    }

    /**
     * Authority queue: stopping the agent remotely.
     *
     * @param agent the agent name
     * @return {@code SYSTEM.FTE.AUTHADM1.<AGENT>}
     */
    public static String authAdmin(String agent) {
        return name("AUTHADM1.", agent);
    }

    /**
     * The agent's publication outbox (OpenMFT's): status and log publications wait here, on the
     * agent's own queue manager, until the coordination queue manager takes them, as IBM MFT's wait
     * on a transmission queue.
     *
     * @param agent the agent name
     * @return {@code SYSTEM.FTE.PUBLISH.<AGENT>}
     */
    public static String publish(String agent) {
        return name("PUBLISH.", agent);
    }

    /**
     * The queues an agent reads and writes: COMMAND, DATA, REPLY, STATE, EVENT, CMD.RJCT and
     * PUBLISH, in that order.
     *
     * @param agent the agent name
     * @return the seven queue names
     */
    public static List<String> agentQueues(String agent) {
        return List.of(command(agent), data(agent), reply(agent), state(agent), event(agent), rejected(agent),
                publish(agent));
    }

    /**
     * The six authority queues, which never hold messages and exist only to carry MQ authorities.
     *
     * @param agent the agent name
     * @return AUTHAGT1, AUTHTRN1, AUTHSCH1, AUTHMON1, AUTHOPS1 and AUTHADM1 queue names
     */
    public static List<String> authQueues(String agent) {
        return List.of(authAgent(agent), authTransfer(agent), authSchedule(agent), authMonitor(agent),
                authOperations(agent), authAdmin(agent));
    }

    /**
     * Checks a logger name and returns it upper-cased, the form used in queue names and paths. IBM's
     * fteCreateLogger upper-cases logger names too. The rule is the agent name rule, so that
     * {@code SYSTEM.FTE.LOG.RJCT.<logger>} (20 + 28 characters) fits IBM MQ's 48.
     *
     * @param logger the logger name in any case
     * @return the upper-cased name
     * @throws IllegalArgumentException when the name is not 1 to 28 characters of A-Z, 0-9, '.' and '_'
     */
    public static String validateLoggerName(String logger) {
        if (logger == null || !AGENT_NAME.matcher(logger).matches()) {
            throw new IllegalArgumentException("logger name '" + logger + "' is not valid: a logger name is 1 to "
                    + MAX_AGENT_NAME_LENGTH + " characters from A-Z, 0-9, '.' and '_' (lower-case letters are "
                    + "upper-cased)");
        }
        return logger.toUpperCase(Locale.ROOT);
    }

    /**
     * A logger's command queue, from which it reads commands that control it (the logger needs GET).
     *
     * @param logger the logger name
     * @return {@code SYSTEM.FTE.LOG.CMD.<LOGGER>}
     */
    public static String loggerCommand(String logger) {
        return PREFIX + "LOG.CMD." + validateLoggerName(logger);
    }

    /**
     * A logger's reject queue, where it puts the log messages it cannot store (the logger needs PUT).
     *
     * @param logger the logger name
     * @return {@code SYSTEM.FTE.LOG.RJCT.<LOGGER>}
     */
    public static String loggerReject(String logger) {
        return PREFIX + "LOG.RJCT." + validateLoggerName(logger);
    }

    private static String name(String kind, String agent) {
        return PREFIX + kind + validateAgentName(agent);
    }
}
