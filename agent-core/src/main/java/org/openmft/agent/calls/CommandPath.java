package org.openmft.agent.calls;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.openmft.agent.transfer.files.RealPaths;

/**
 * The agent's {@code commandPath}: the directories programs of calls may come from, the security
 * boundary of program calls. Anyone who may put a request on the agent's COMMAND queue may in effect
 * run every program in these directories, so nothing outside them runs: a program named without a
 * directory is looked up along the path (first match, IBM's rule); a program named by a path must
 * be inside one of the directories; in both cases its real location (symbolic links followed,
 * {@code ..} refused) must lie inside one of the directories' real locations, so a link in the path
 * that leads elsewhere is refused too. Empty (the default): no program can run. Immutable.
 */
public final class CommandPath {
    private final String text;
    private final List<Path> directories;

    private CommandPath(String text, List<Path> directories) {
        this.text = text;
        this.directories = List.copyOf(directories);
    }

    /** No directory: every call is refused. */
    public static CommandPath none() {
        return new CommandPath("", List.of());
    }

    /**
     * @param value the {@code commandPath} value, directories separated by the platform's path
     *     separator ({@code :} on Unix), or empty
     * @return the path; relative or unusable entries are ignored (they name no directory)
     */
    public static CommandPath of(Optional<String> value) {
        String text = value.orElse("").strip();
        List<Path> dirs = new ArrayList<>();
        for (String part : text.split(File.pathSeparator)) {
            String p = part.strip();
            if (p.isEmpty()) {
                continue;
            }
            try {
                Path dir = Path.of(p);
                if (dir.isAbsolute() && !RealPaths.hasParentSegment(p)) {
                    dirs.add(dir.normalize());
                }
            } catch (InvalidPathException e) {
                // Names no directory: nothing can be run from it.
            }
        }
        return new CommandPath(text, dirs);
    }

    /** The value as configured, for messages. */
    public String text() {
        return text;
    }

    /**
     * Finds the program a call names.
     *
     * @param name the {@code <command name>}
     * @return the program's real path, inside the command path
     * @throws CallRefusedException with IBM's BFGCR0003E when the program is not on the path
     */
    public Path resolve(String name) throws CallRefusedException {
        if (directories.isEmpty() || name.isBlank() || name.indexOf('\0') >= 0 || RealPaths.hasParentSegment(name)) {
            throw refused(name);
        }
        Path named;
        try {
            named = Path.of(name);
        } catch (InvalidPathException e) {
            throw refused(name);
        }
        List<Path> realDirs = new ArrayList<>();
        for (Path dir : directories) {
            try {
                realDirs.add(dir.toRealPath());
            } catch (IOException e) {
                // A directory that is not there holds no program.
            }
        }
        if (named.isAbsolute()) {
            Path found = inside(named.normalize(), realDirs);
            if (found != null) {
                return found;
            }
            throw refused(name);
        }
        for (Path dir : directories) {
            Path found = inside(dir.resolve(named).normalize(), realDirs);
            if (found != null) {
                return found;
            }
        }
        throw refused(name);
    }

    /** The real path of an executable regular file at {@code candidate} if it lies in one of the real directories. */
    private static Path inside(Path candidate, List<Path> realDirs) {
        try {
            if (!Files.isRegularFile(candidate)) {
                return null;
            }
            Path real = candidate.toRealPath();
            for (Path dir : realDirs) {
                if (real.startsWith(dir) && !real.equals(dir) && Files.isExecutable(real)) {
                    return real;
                }
            }
            return null;
        } catch (IOException | SecurityException e) {
            return null;
        }
    }

    private CallRefusedException refused(String name) {
        return new CallRefusedException("BFGCR0003E: A request has been made for the agent to call the command '"
                + name + "'. The agent's command path '" + text + "' does not define a path to this command. Only"
                + " commands whose path is on the agent's command path can be run.");
    }
}
