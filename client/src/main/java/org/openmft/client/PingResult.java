package org.openmft.client;

import java.time.Duration;

/**
 * An agent's answer to a ping (IBM's ftePingAgent): it is running and reads its COMMAND queue.
 *
 * @param agent the agent's name, upper case
 * @param queueManager the agent's queue manager: the one the ping named, else the command queue manager
 * @param roundTrip from sending the ping to reading the agent's answer
 */
public record PingResult(String agent, String queueManager, Duration roundTrip) {
}
