package org.openmft.bench.peers;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Local rsync doing the durable work the agents do: {@code rsync -a --whole-file --fsync}, every
 * written file forced to disk before rsync moves on (the agents force each file's data at its
 * checkpoints and at its end), optionally with {@code -I} (no quick check on size and time: every
 * file is sent, as a transfer sends it) and {@code --checksum-choice=md5} (the whole-file checksum
 * rsync verifies each file with, as an agent's MD5). Locally {@code --whole-file} is rsync's default,
 * so the plain one is {@code rsync -a --fsync}: the per-file goal's peer. Issue 18's durable peers: "every agent
 * figure has a durable peer beside it".
 *
 * <p>{@code --fsync} came with rsync 3.2.4; an older rsync cannot do this work and the peer says so
 * ({@link #unavailable()}), so that the report lists it as not run, with the reason.
 */
final class DurableRsyncPeer implements Peer {
    private final String id;
    private final List<String> options;
    private final Path rsync;
    private final String version;
    private final boolean hasFsync;

    private DurableRsyncPeer(String id, List<String> options) {
        this.id = id;
        this.options = List.copyOf(options);
        this.rsync = Executables.find("rsync");
        this.version = rsync == null ? null : Executables.rsyncVersion(rsync);
        this.hasFsync = rsync != null && Executables.help(rsync).contains("--fsync");
    }

    /** {@code rsync -a --whole-file --fsync}. */
    static DurableRsyncPeer plain() {
        return new DurableRsyncPeer("rsync-fsync", List.of("--whole-file", "--fsync"));
    }

    /** {@code rsync -a -I --whole-file --fsync}: issue 18's line without a checksum, quick check off. */
    static DurableRsyncPeer ignoreTimes() {
        return new DurableRsyncPeer("rsync-I-fsync", List.of("-I", "--whole-file", "--fsync"));
    }

    /** {@code rsync -a -I --whole-file --fsync --checksum-choice=md5}: issue 18's line, quick check off. */
    static DurableRsyncPeer ignoreTimesMd5() {
        return new DurableRsyncPeer("rsync-I-fsync-md5",
                List.of("-I", "--whole-file", "--fsync", "--checksum-choice=md5"));
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String label() {
        return "`rsync -a " + String.join(" ", options) + "` " + (version == null ? "" : version + " ")
                + "(local, durable)";
    }

    @Override
    public String unavailable() {
        if (rsync == null) {
            return "rsync is not installed: apt-get install rsync";
        }
        return hasFsync ? null : "rsync " + version + " has no --fsync (rsync 3.2.4 or later has): left out";
    }

    @Override
    public Run copy(List<Path> sources, Path destinationDir, long timeoutMillis) throws Exception {
        return CopyPeer.runProcess(RsyncPeer.command(rsync, new ArrayList<>(options), sources,
                destinationDir.toString() + "/"), timeoutMillis);
    }

    @Override
    public void close() {
        // Nothing started.
    }
}
