package org.openmft.bench.peers;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code sftp -b batchfile} with one {@code put} per file, through the private sshd of
 * {@link SshLoopback} (its internal-sftp subsystem) with OpenSSH's default cipher. A batch stops
 * at the first command that fails, and sftp then exits non-zero.
 */
final class SftpPeer implements Peer {
    private final SshLoopback ssh;
    private final Path batchDir;
    private int batches;

    /** @param batchDir where the batch files are written */
    SftpPeer(SshLoopback ssh, Path batchDir) {
        this.ssh = ssh;
        this.batchDir = batchDir;
    }

    @Override
    public String id() {
        return "sftp";
    }

    @Override
    public String label() {
        return "`sftp -b` (put per file) over " + (ssh.version() == null ? "OpenSSH" : ssh.version())
                + " on loopback";
    }

    @Override
    public String unavailable() {
        return ssh.unavailable();
    }

    @Override
    public Run copy(List<Path> sources, Path destinationDir, long timeoutMillis) throws Exception {
        StringBuilder batch = new StringBuilder();
        for (Path source : sources) {
            batch.append("put ").append(quote(source.toString())).append(' ')
                    .append(quote(destinationDir.resolve(source.getFileName()).toString())).append('\n');
        }
        Files.createDirectories(batchDir);
        Path file = batchDir.resolve("sftp-batch-" + ++batches);
        Files.writeString(file, batch);
        List<String> command = new ArrayList<>(List.of(ssh.sftp().toString(), "-q", "-b", file.toString(), "-P",
                String.valueOf(ssh.port())));
        command.addAll(ssh.clientOptions());
        command.add("127.0.0.1");
        return ssh.run(command, timeoutMillis);
    }

    /** A batch-file argument in double quotes, with {@code \} and {@code "} escaped as sftp reads them. */
    static String quote(String s) {
        return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }

    @Override
    public void close() {
        ssh.close();
    }
}
