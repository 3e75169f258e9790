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
    /**
     * The agent to start: its name only. The host derives its configuration and log directory from
     * its own data directory ({@code config/<coordQM>/agents/<AGENT>/agent.properties},
     * {@code logs/<coordQM>/agents/<AGENT>/logs}), so a request cannot make the queue manager's
     * process read a configuration, or write a log, anywhere else.
     */
    public static final String AGENT_NAME = "OPENMFT_AGENT_NAME";
    /** The coordination queue manager whose configuration set the agent belongs to. */
    public static final String COORDINATION_QMGR = "OPENMFT_COORDINATION_QMGR";
    /**
     * Properties of earlier versions that named paths; a request that carries one is refused, so
     * that an old or hostile sender learns that paths are not taken.
     */
    public static final java.util.List<String> REFUSED_PATH_PROPERTIES = java.util.List.of(
            "OPENMFT_AGENT_PROPERTIES", "OPENMFT_AGENT_LOG_DIRECTORY");
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
