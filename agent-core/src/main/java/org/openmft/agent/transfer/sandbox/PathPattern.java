package org.openmft.agent.transfer.sandbox;

import java.io.File;
import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.openmft.agent.transfer.files.RealPaths;

/**
 * The {@code name} of a user sandbox's {@code <include>} or {@code <exclude>} (reference §7.4):
 * {@code *} and {@code ?} match within one directory level, {@code **} any number of levels (none
 * included), a trailing separator means a trailing {@code **}, and a relative name is taken against
 * the agent's {@code transferRoot}. Both {@code /} and the platform separator separate levels.
 *
 * <p>A pattern is matched against the real location of a path (symbolic links followed, see
 * {@link RealPaths}). Its leading levels without wildcards are resolved the same way at each match,
 * like {@code sandboxRoot}'s directories, so a pattern written through a link to a directory still
 * matches what is really in it, and a directory created after the file was loaded is honoured.
 *
 * <p>Matching is case-sensitive. Immutable and thread-safe.
 */
final class PathPattern {

    private static final String ANY_LEVELS = "**";
    /** The level {@code **}, told apart by identity. */
    private static final Glob ANY = new Glob(ANY_LEVELS);

    private final String text;
    /** The levels before the first wildcard, absolute and normalised. */
    private final Path literal;
    /** The levels from the first wildcard on: {@link #ANY} for {@code **}, else a glob of one level. */
    private final List<Glob> rest;

    private PathPattern(String text, Path literal, List<Glob> rest) {
        this.text = text;
        this.literal = literal;
        this.rest = List.copyOf(rest);
    }

    /**
     * Compiles a pattern.
     *
     * @param name the pattern as written
     * @param transferRoot the absolute directory relative patterns are taken against
     * @return the pattern
     * @throws IllegalArgumentException if it is empty, has a {@code ..} level or is not a valid path
     */
    static PathPattern compile(String name, Path transferRoot) {
        String separators = File.separatorChar == '/' ? "/" : "/" + File.separatorChar;
        List<String> levels = new ArrayList<>();
        StringBuilder level = new StringBuilder();
        for (int i = 0; i < name.length(); i++) {
            char ch = name.charAt(i);
            if (separators.indexOf(ch) >= 0) {
                levels.add(level.toString());
                level.setLength(0);
            } else {
                level.append(ch);
            }
        }
        levels.add(level.toString());
        if (name.isBlank()) {
            throw new IllegalArgumentException("the pattern is empty");
        }
        for (String l : levels) {
            if (l.equals("..")) {
                throw new IllegalArgumentException("the pattern \"" + name + "\" has a '..' level");
            }
        }
        int firstWild = -1;
        for (int i = 0; i < levels.size(); i++) {
            if (Glob.isWildcard(levels.get(i))) {
                firstWild = i;
                break;
            }
        }
        boolean trailingSeparator = levels.size() > 1 && levels.get(levels.size() - 1).isEmpty();
        String literalText;
        List<Glob> rest = new ArrayList<>();
        if (firstWild < 0) {
            literalText = name;
        } else {
            // Everything before the level holding the first wildcard, with its separator (so "/*" keeps "/").
            int cut = 0;
            for (int i = 0; i < firstWild; i++) {
                cut += levels.get(i).length() + 1;
            }
            literalText = name.substring(0, cut);
            for (String l : levels.subList(firstWild, levels.size())) {
                if (!l.isEmpty() && !l.equals(".")) {
                    rest.add(l.equals(ANY_LEVELS) ? ANY : new Glob(l));
                }
            }
        }
        if (trailingSeparator && (rest.isEmpty() || rest.get(rest.size() - 1) != ANY)) {
            rest.add(ANY);
        }
        Path literal;
        try {
            literal = literalText.isEmpty() ? transferRoot
                    : transferRoot.resolve(transferRoot.getFileSystem().getPath(literalText)).normalize();
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException("the pattern \"" + name + "\" is not a valid path: " + e.getReason(), e);
        }
        return new PathPattern(name, literal, rest);
    }

    /** @return whether the pattern matches this real path */
    boolean matches(Path realPath) {
        List<String> below = below(realPath);
        return below != null && match(below, false);
    }

    /**
     * @return whether the pattern matches this real directory and everything below it, so that an
     *         exclude of it leaves nothing in it to read or write
     */
    boolean coversTree(Path realDirectory) {
        List<String> below = below(realDirectory);
        return below != null && match(below, true);
    }

    /** @return whether something strictly below this real directory could match the pattern */
    boolean mayContain(Path realDirectory) {
        Path root = realLiteral();
        if (!realDirectory.startsWith(root)) {
            // The pattern's fixed part may lie below the directory.
            return root.startsWith(realDirectory) && !root.equals(realDirectory);
        }
        List<String> levels = names(root.relativize(realDirectory));
        int p = rest.size();
        int d = levels.size();
        // reach[i][j]: levels[j..] can be consumed by rest[i..] leaving at least one level of the pattern
        boolean[][] reach = new boolean[p + 1][d + 1];
        for (int i = p; i >= 0; i--) {
            reach[i][d] = i < p;
            for (int j = d - 1; j >= 0; j--) {
                if (i == p) {
                    reach[i][j] = false;
                } else if (rest.get(i) == ANY) {
                    reach[i][j] = reach[i + 1][j] || reach[i][j + 1];
                } else {
                    reach[i][j] = rest.get(i).matches(levels.get(j)) && reach[i + 1][j + 1];
                }
            }
        }
        return reach[0][0];
    }

    /** The levels of {@code path} below the pattern's fixed part, or null when it is not below it. */
    private List<String> below(Path path) {
        Path root = realLiteral();
        return path.startsWith(root) ? names(root.relativize(path)) : null;
    }

    private Path realLiteral() {
        try {
            return RealPaths.resolve(literal);
        } catch (IOException e) {
            // Behind a dangling link nothing can be reached; the literal path matches nothing real.
            return literal;
        }
    }

    private static List<String> names(Path relative) {
        List<String> names = new ArrayList<>();
        for (Path name : relative) {
            if (!name.toString().isEmpty()) {
                names.add(name.toString());
            }
        }
        return names;
    }

    /**
     * Matches the levels against {@link #rest}; {@code **} takes none or more.
     *
     * @param tree whether the pattern must go on to match everything below too (only {@code **}
     *        left, at least one)
     */
    private boolean match(List<String> levels, boolean tree) {
        int p = rest.size();
        int d = levels.size();
        boolean[][] m = new boolean[p + 1][d + 1];
        // When the levels are used up, what is left of the pattern must match nothing (or everything, for a tree).
        boolean onlyAnyLevels = true;
        for (int i = p; i >= 0; i--) {
            if (i < p && rest.get(i) != ANY) {
                onlyAnyLevels = false;
            }
            m[i][d] = onlyAnyLevels && (!tree || i < p);
        }
        for (int i = p - 1; i >= 0; i--) {
            for (int j = d - 1; j >= 0; j--) {
                m[i][j] = rest.get(i) == ANY ? m[i + 1][j] || m[i][j + 1]
                        : rest.get(i).matches(levels.get(j)) && m[i + 1][j + 1];
            }
        }
        return m[0][0];
    }

    @Override
    public String toString() {
        return text;
    }
}
