package org.openmft.agent.transfer.source;

import java.time.Clock;

import org.openmft.agent.AgentListener;
import org.openmft.agent.calls.CallRunner;
import org.openmft.agent.exits.TransferExits;
import org.openmft.agent.messaging.Routing;
import org.openmft.agent.protection.MessageProtection;
import org.openmft.agent.transfer.failure.EngineStatus;
import org.openmft.agent.transfer.files.PathResolver;
import org.openmft.agent.transfer.protocol.ProtocolCodec;
import org.openmft.agent.transfer.queue.QueueReader;
import org.openmft.agent.transfer.state.TransferStateStore;

/**
 * What a running source transfer may use, and nothing more: its configuration slice, sessions,
 * the listener its events go to, the sandbox, the state port, the clock, whether a failure now
 * means "suspend", the keys its messages are tagged with, the protection they get, and how they
 * reach a destination on another queue manager, the runner of its program calls, the user exits,
 * the reader of source queues (message to file; null when the agent has none), and the budget of
 * chunks in flight its windows borrow from, shared by all of the agent's source transfers.
 */
public record SourceContext(SourceSettings settings, Sessions sessions, AgentListener listener, PathResolver paths,
        TransferStateStore state, Clock clock, EngineStatus status, ProtocolCodec.Keys keys,
        MessageProtection protection, Routing routing, CallRunner calls, TransferExits exits,
        QueueReader queues, InFlightBudget inFlight) {

    /** A context with an in-flight budget of its own, sized from {@code settings}. */
    public SourceContext(SourceSettings settings, Sessions sessions, AgentListener listener, PathResolver paths,
            TransferStateStore state, Clock clock, EngineStatus status, ProtocolCodec.Keys keys,
            MessageProtection protection, Routing routing, CallRunner calls, TransferExits exits,
            QueueReader queues) {
        this(settings, sessions, listener, paths, state, clock, status, keys, protection, routing, calls, exits, queues,
                InFlightBudget.of(settings));
    }
}
