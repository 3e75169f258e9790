package org.openmft.bench.peers;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.openmft.agent.messaging.QueueManagerConnector;

/** Every peer of a run, made ready (an sshd started, a route built) in {@code work}. */
public final class Peers {
    private Peers() {
    }

    /**
     * The durable peers of one file's transfer, in the order they run: {@code cp} then {@code sync}
     * (cp-sync), {@code rsync -a -I --whole-file --fsync} (rsync-I-fsync) and the same with
     * {@code --checksum-choice=md5} (rsync-I-fsync-md5). None starts anything; one that cannot run here
     * says why ({@link Peer#unavailable()}).
     */
    public static List<Peer> durable() {
        return List.of(new DurableCopyPeer(), DurableRsyncPeer.ignoreTimes(), DurableRsyncPeer.ignoreTimesMd5());
    }

    /**
     * The peers in the order they run (cp, cp-sync, rsync, rsync-fsync, rsync-I-fsync,
     * rsync-I-fsync-md5, rsync-ssh, sftp, camel-jms): each copy beside its durable twin, which forces
     * the files to disk as the agents do, so that every agent figure has a durable peer beside it.
     * Each is to be closed by the caller; peers that cannot run here are in the list too, saying why
     * ({@link Peer#unavailable()}). The two ssh peers share one private sshd.
     *
     * @param work      a directory of the peers' own (keys, configuration)
     * @param connector the queue manager the agents use, for peers that go through it (Camel)
     */
    public static List<Peer> create(Path work, QueueManagerConnector connector) throws Exception {
        List<Peer> peers = new ArrayList<>();
        try {
            peers.add(new CopyPeer());
            peers.add(new DurableCopyPeer());
            peers.add(new RsyncPeer());
            peers.add(DurableRsyncPeer.plain());
            peers.add(DurableRsyncPeer.ignoreTimes());
            peers.add(DurableRsyncPeer.ignoreTimesMd5());
            SshLoopback ssh = SshLoopback.start(work.resolve("ssh"));
            peers.add(new RsyncSshPeer(ssh));
            peers.add(new SftpPeer(ssh, work.resolve("sftp")));
            peers.add(new CamelPeer(connector, work.resolve("camel")));
            return peers;
        } catch (Exception | Error e) {
            peers.forEach(Peer::close);
            throw e;
        }
    }
}
