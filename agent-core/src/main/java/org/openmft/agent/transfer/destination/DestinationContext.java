package org.openmft.agent.transfer.destination;

import org.openmft.agent.transfer.queue.QueueWriter;
import java.time.Clock;

import org.openmft.agent.AgentListener;
import org.openmft.agent.exits.TransferExits;
import org.openmft.agent.transfer.failure.EngineStatus;
import org.openmft.agent.transfer.files.PathResolver;
import org.openmft.agent.transfer.state.TransferStateStore;

/**
 * What a destination transfer may use: its configuration slice, the listener, the sandbox, the
 * state port, the clock, the checkpointer, the way to answer its source, whether a failure
 * now means "suspend", the user exits, and where files become messages (null: nowhere).
 */
public record DestinationContext(DestinationSettings settings, AgentListener listener, PathResolver paths,
        TransferStateStore state, Clock clock, Checkpointer checkpointer, ReplySender replies, EngineStatus status,
        TransferExits exits, QueueWriter queues) {

    /** A context without user exits whose agent writes no files to queues. */
    public DestinationContext(DestinationSettings settings, AgentListener listener, PathResolver paths,
            TransferStateStore state, Clock clock, Checkpointer checkpointer, ReplySender replies,
            EngineStatus status) {
        this(settings, listener, paths, state, clock, checkpointer, replies, status, TransferExits.none(), null);
    }
}
