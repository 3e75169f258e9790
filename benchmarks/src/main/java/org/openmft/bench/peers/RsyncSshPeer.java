package org.openmft.bench.peers;

import java.nio.file.Path;
import java.util.List;

/**
 * {@code rsync -a} over ssh to {@code 127.0.0.1:destination}, through the private sshd of
 * {@link SshLoopback} with OpenSSH's default cipher: what a user moving files between two machines
 * runs, here on loopback. Its CPU is rsync and ssh on the client side plus sshd and
 * {@code rsync --server} on the server side.
 */
final class RsyncSshPeer implements Peer {
    private final SshLoopback ssh;
    private final Path rsync = Executables.find("rsync");
    private final String version = rsync == null ? null : Executables.rsyncVersion(rsync);

    RsyncSshPeer(SshLoopback ssh) {
        this.ssh = ssh;
    }

    @Override
    public String id() {
        return "rsync-ssh";
    }

    @Override
    public String label() {
        return "`rsync -a -e ssh` " + (version == null ? "" : version + " ") + "over "
                + (ssh.version() == null ? "OpenSSH" : ssh.version()) + " on loopback";
    }

    @Override
    public String unavailable() {
        if (rsync == null) {
            return "rsync is not installed: apt-get install rsync";
        }
        return ssh.unavailable();
    }

    @Override
    public Run copy(List<Path> sources, Path destinationDir, long timeoutMillis) throws Exception {
        List<String> command = RsyncPeer.command(rsync, List.of("-e", ssh.sshCommand()), sources,
                "127.0.0.1:" + destinationDir + "/");
        return ssh.run(command, timeoutMillis);
    }

    @Override
    public void close() {
        ssh.close();
    }
}
