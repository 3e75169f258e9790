package org.openmft.bench.peers;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Local {@code rsync -a} of the files into the destination directory, one process for all of them,
 * as a user copying a directory would run it. Locally rsync copies whole files (no delta
 * algorithm: {@code --whole-file} is its default when both sides are local), through its sender,
 * receiver and generator processes.
 */
final class RsyncPeer implements Peer {
    private final Path rsync = Executables.find("rsync");
    private final String version = rsync == null ? null : Executables.rsyncVersion(rsync);

    @Override
    public String id() {
        return "rsync";
    }

    @Override
    public String label() {
        return "`rsync -a` " + (version == null ? "" : version + " ") + "(local)";
    }

    @Override
    public String unavailable() {
        return rsync == null ? "rsync is not installed: apt-get install rsync" : null;
    }

    @Override
    public Run copy(List<Path> sources, Path destinationDir, long timeoutMillis) throws Exception {
        return CopyPeer.runProcess(command(rsync, List.of(), sources, destinationDir.toString() + "/"),
                timeoutMillis);
    }

    /** {@code rsync -a [options] -- sources... target}. */
    static List<String> command(Path rsync, List<String> options, List<Path> sources, String target) {
        List<String> command = new ArrayList<>(List.of(rsync.toString(), "-a"));
        command.addAll(options);
        command.add("--");
        sources.forEach(p -> command.add(p.toString()));
        command.add(target);
        return command;
    }

    @Override
    public void close() {
        // Nothing started.
    }
}
