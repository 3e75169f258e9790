package org.openmft.agent;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.openmft.xml.AgentRef;
import org.openmft.xml.Originator;

/**
 * What an agent knows about a transfer when it accepts it: who asked, between which agents, and
 * (at the source) the files it planned. Coordination turns it into the {@code started} log message
 * and the agent status. Immutable.
 *
 * @param transferId the transfer id
 * @param sourceAgent the source agent and its queue manager
 * @param destinationAgent the destination agent and its queue manager
 * @param originator who asked, or {@code null} when the agent does not know (a destination)
 * @param jobName the job name, or {@code null}
 * @param priority the priority, 0 to 9
 * @param metadata the request's metadata
 * @param accepted when the agent accepted the transfer
 * @param items the planned files in order (empty at a destination, which learns them one by one)
 * @param itemCount the number of items, including those that failed while planning
 * @param trigger the request's trigger (copied into the {@code started} log), or {@code null}
 * @param scheduleLogId the schedule this transfer is an occurrence of, or {@code null}
 */
public record TransferInfo(String transferId, AgentRef sourceAgent, AgentRef destinationAgent, Originator originator,
        String jobName, int priority, Map<String, String> metadata, Instant accepted, List<Item> items,
        int itemCount, org.openmft.xml.TransferTrigger trigger, Long scheduleLogId) {

    /** Copies the collections. */
    public TransferInfo {
        metadata = Map.copyOf(metadata);
        items = List.copyOf(items);
    }

    /** A transfer without a trigger or a schedule. */
    public TransferInfo(String transferId, AgentRef sourceAgent, AgentRef destinationAgent, Originator originator,
            String jobName, int priority, Map<String, String> metadata, Instant accepted, List<Item> items,
            int itemCount) {
        this(transferId, sourceAgent, destinationAgent, originator, jobName, priority, metadata, accepted, items,
                itemCount, null, null);
    }

    /**
     * One planned file at the source. Immutable.
     *
     * @param index the position in the transfer (as {@link ItemOutcome#index()})
     * @param source the source file
     * @param size its size when planned
     * @param destination the destination path as requested
     * @param mode {@code binary} or {@code text}
     * @param disposition {@code leave} or {@code delete}
     * @param exist {@code error} or {@code overwrite}
     * @param checksumMethod {@code MD5}, {@code SHA-256} or {@code none}
     * @param sourceQueue whether the source is a queue (message to file; then {@code source} is the queue)
     */
    public record Item(int index, String source, long size, String destination, String mode, String disposition,
            String exist, String checksumMethod, boolean sourceQueue) {

        /** An item whose source is a file. */
        public Item(int index, String source, long size, String destination, String mode, String disposition,
                String exist, String checksumMethod) {
            this(index, source, size, destination, mode, disposition, exist, checksumMethod, false);
        }
    }
}
