package org.openmft.bench.peers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Finding the programs the peers run ({@code rsync}, {@code sshd}, ...) and asking them their
 * version, so that a peer can say which Debian package is missing rather than fail half-way.
 */
final class Executables {
    /** Where Debian puts daemons, which an ordinary user's PATH may lack. */
    private static final List<String> SYSTEM_DIRS = List.of("/usr/sbin", "/sbin", "/usr/local/sbin");

    private Executables() {
    }

    /** The absolute path of {@code name} on the PATH (or in the sbin directories), or null. */
    static Path find(String name) {
        List<String> dirs = new ArrayList<>();
        String path = System.getenv("PATH");
        if (path != null) {
            dirs.addAll(List.of(path.split(java.io.File.pathSeparator)));
        }
        dirs.addAll(SYSTEM_DIRS);
        for (String dir : dirs) {
            if (dir.isEmpty()) {
                continue;
            }
            Path p = Path.of(dir, name);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return p.toAbsolutePath();
            }
        }
        return null;
    }

    /**
     * The first line {@code command} prints (stdout and stderr together: {@code ssh -V} answers on
     * stderr), or "?" when it cannot run within a few seconds.
     */
    static String firstLine(List<String> command) {
        String s = output(command, 4096);
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl).strip();
    }

    /** What {@code rsync --help} says, to tell which options this rsync has; "?" when it cannot be run. */
    static String help(Path program) {
        return output(List.of(program.toString(), "--help"), 64 * 1024);
    }

    /** The first {@code maxBytes} of what {@code command} prints, stripped; "?" when it cannot be run. */
    private static String output(List<String> command, int maxBytes) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            byte[] out = p.getInputStream().readNBytes(maxBytes);
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "?";
            }
            return new String(out, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            return "?";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "?";
        }
    }

    /** "rsync  version 3.2.7  protocol version 31" becomes "3.2.7"; otherwise the line as it is. */
    static String rsyncVersion(Path rsync) {
        String line = firstLine(List.of(rsync.toString(), "--version"));
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("version\\s+(\\S+)").matcher(line);
        return m.find() ? m.group(1) : line;
    }

    /** "OpenSSH_9.2p1 Debian-2+deb12u3, OpenSSL 3.0.15 3 Sep 2024" becomes "OpenSSH_9.2p1". */
    static String sshVersion(Path ssh) {
        String line = firstLine(List.of(ssh.toString(), "-V"));
        int end = line.indexOf(' ');
        String v = end < 0 ? line : line.substring(0, end);
        return v.endsWith(",") ? v.substring(0, v.length() - 1) : v;
    }
}
