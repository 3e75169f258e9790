package org.openmft.agent.host;

/**
 * The message properties of requests to a {@link QueueManagerHost}. A request is a JMS message on
 * {@link QueueManagerHost#HOST_QUEUE} with these string properties and a JMSReplyTo; the reply is a
 * text message whose body is for the user and whose {@link #EXIT_CODE} property is the exit code
 * the requesting command should end with.
 */
public final class HostRequests {
    /** The operation: {@link #START_AGENT}. */
    public static final String OPERATION = "OPENMFT_OPERATION";
    /** Start a bindings agent in the queue manager's process. */
    public static final String START_AGENT = "startAgent";
    /** The absolute path of the agent's agent.properties. */
    public static final String AGENT_PROPERTIES = "OPENMFT_AGENT_PROPERTIES";
    /** The absolute path of the agent's log directory. */
    public static final String AGENT_LOG_DIRECTORY = "OPENMFT_AGENT_LOG_DIRECTORY";
    /** The int property of a reply carrying the exit code. */
    public static final String EXIT_CODE = "OPENMFT_EXIT_CODE";

    private HostRequests() {
    }

    /**
     * The outcome of a host request.
     *
     * @param exitCode the exit code for the requesting command: 0 ok, 1 failed, 75 queue manager
     *                 unavailable, 78 configuration problem
     * @param message  what to tell the user
     */
    public record Result(int exitCode, String message) {
    }
}
