package org.openmft.agent.transfer.files;

import java.io.File;
import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The agent sandbox: the {@code sandboxRoot} property, {@code [!]dir<sep>[!]dir…} with the
 * platform path separator ({@code :} on UNIX), where a plain entry allows a directory tree and a
 * {@code !} entry excludes a sub-tree (reference §8.3). It applies to reads and writes alike.
 *
 * <p>A path is permitted when it lies in some allowed tree (or no allowed tree is listed) and in no
 * excluded tree; an exclusion wins over any allowed entry. Paths are compared after following
 * symbolic links ({@link java.nio.file.Path#toRealPath} of the longest existing ancestor, the rule
 * directories likewise), so a link inside the sandbox that leads outside it is refused, and a file
 * not created yet is judged by the directory it will be created in. A path with a {@code ..} segment
 * is refused before any of this, also when no sandbox is configured.
 *
 * <p>Immutable and thread-safe. Rule directories are resolved at each check rather than once, so
 * that a sandbox directory created after agent start is honoured.
 */
public final class SandboxRules implements Sandbox {

    private static final String NO_PARENT_SEGMENTS = "no '..' segments";
    private static final SandboxRules UNRESTRICTED = new SandboxRules("", List.of(), List.of());

    private final String sandboxRoot;
    private final List<Path> allowed;
    private final List<Path> excluded;

    private SandboxRules(String sandboxRoot, List<Path> allowed, List<Path> excluded) {
        this.sandboxRoot = sandboxRoot;
        this.allowed = List.copyOf(allowed);
        this.excluded = List.copyOf(excluded);
    }

    /** @return rules that permit every path without a {@code ..} segment (no {@code sandboxRoot}) */
    public static SandboxRules unrestricted() {
        return UNRESTRICTED;
    }

    /**
     * Parses a {@code sandboxRoot} value with the platform path separator.
     *
     * @param sandboxRoot the property value; {@code null} or blank means no sandbox
     * @return the rules
     * @throws IllegalArgumentException if an entry is not an absolute path or contains {@code ..}
     */
    public static SandboxRules parse(String sandboxRoot) {
        return parse(sandboxRoot, File.pathSeparatorChar);
    }

    /**
     * Parses a {@code sandboxRoot} value with a given separator, for configuration written on
     * another platform and for tests.
     *
     * @param sandboxRoot the property value; {@code null} or blank means no sandbox
     * @param separator the character between entries
     * @return the rules
     * @throws IllegalArgumentException if an entry is not an absolute path or contains {@code ..}
     */
    public static SandboxRules parse(String sandboxRoot, char separator) {
        if (sandboxRoot == null || sandboxRoot.isBlank()) {
            return UNRESTRICTED;
        }
        List<Path> allowed = new ArrayList<>();
        List<Path> excluded = new ArrayList<>();
        for (String raw : sandboxRoot.split(Pattern.quote(String.valueOf(separator)))) {
            String entry = raw.trim();
            boolean exclude = entry.startsWith("!");
            String dir = exclude ? entry.substring(1).trim() : entry;
            if (dir.isEmpty()) {
                continue;
            }
            Path path;
            try {
                path = Path.of(dir);
            } catch (InvalidPathException e) {
                throw new IllegalArgumentException("sandboxRoot entry '" + entry + "' is not a valid path", e);
            }
            if (!path.isAbsolute()) {
                throw new IllegalArgumentException("sandboxRoot entry '" + entry + "' is not an absolute path");
            }
            if (RealPaths.hasParentSegment(path)) {
                throw new IllegalArgumentException("sandboxRoot entry '" + entry + "' contains '..'");
            }
            (exclude ? excluded : allowed).add(path.normalize());
        }
        return new SandboxRules(sandboxRoot.trim(), allowed, excluded);
    }

    /** @return whether any directory is allowed or excluded, i.e. a sandbox is in force */
    @Override
    public boolean isRestricted() {
        return !allowed.isEmpty() || !excluded.isEmpty();
    }

    /**
     * Tells whether the agent may use a path. The agent sandbox treats reads and writes alike.
     *
     * @param path the path; a relative one is taken against the working directory, so callers
     *        should resolve it against {@code transferRoot} first (see {@link PathResolver})
     * @return whether {@link #check} would accept it
     */
    public boolean permits(Path path) {
        try {
            check(path, Access.READ);
            return true;
        } catch (SandboxViolationException e) {
            return false;
        }
    }

    /**
     * Checks that the agent may use a path.
     *
     * @param path the path; a relative one is taken against the working directory
     * @param access what the agent wants to do, named in the message
     * @throws SandboxViolationException naming the path and the rule that refuses it
     */
    @Override
    public void check(Path path, Access access) throws SandboxViolationException {
        String shown = path.toString();
        if (RealPaths.hasParentSegment(path)) {
            throw new SandboxViolationException(
                    access + " of \"" + shown + "\" is refused: paths may not contain '..' segments",
                    shown, access, NO_PARENT_SEGMENTS);
        }
        if (!isRestricted()) {
            return;
        }
        Path real;
        try {
            real = RealPaths.resolve(path.toAbsolutePath().normalize());
        } catch (IOException e) {
            throw new SandboxViolationException(access + " of \"" + shown
                    + "\" is refused: its real location cannot be determined to check it against sandboxRoot \""
                    + sandboxRoot + "\" (" + e + ")", shown, access, sandboxRoot);
        }
        String via = real.equals(path) ? "" : " (resolves to \"" + real + "\")";
        for (Path root : excluded) {
            if (real.startsWith(resolveRoot(root))) {
                String rule = "!" + root;
                throw new SandboxViolationException(access + " of \"" + shown + "\"" + via
                        + " is refused by sandboxRoot rule \"" + rule + "\"", shown, access, rule);
            }
        }
        if (allowed.isEmpty()) {
            return;
        }
        for (Path root : allowed) {
            if (real.startsWith(resolveRoot(root))) {
                return;
            }
        }
        throw new SandboxViolationException(access + " of \"" + shown + "\"" + via
                + " is refused: it is outside sandboxRoot \"" + sandboxRoot + "\"", shown, access, sandboxRoot);
    }

    private static Path resolveRoot(Path root) {
        try {
            return RealPaths.resolve(root);
        } catch (IOException e) {
            // A rule directory behind a dangling link contains nothing that could be reached.
            return root;
        }
    }

    /** @return the {@code sandboxRoot} value these rules were parsed from; empty when unrestricted */
    @Override
    public String toString() {
        return sandboxRoot;
    }
}
