package org.openmft.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.openmft.agent.messaging.QueueManagerConnector;

/** Every peer of a run, made ready (an sshd started, a route built) in {@code work}. */
final class Peers {
    private Peers() {
    }

    /**
     * The peers in the order they run, each to be closed by the caller; peers that cannot run here
     * are in the list too, saying why ({@link Peer#unavailable()}).
     *
     * @param work      a directory of the peers' own (keys, configuration)
     * @param connector the queue manager the agents use, for peers that go through it (Camel)
     */
    static List<Peer> create(Path work, QueueManagerConnector connector) throws Exception {
        List<Peer> peers = new ArrayList<>();
        peers.add(new CopyPeer());
        return peers;
    }
}
