package org.openmft.agent.transfer.files;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Turns a path from a transfer request into the path the agent uses: a relative path is taken
 * against the agent's {@code transferRoot} (IBM default: the agent user's home directory), an
 * absolute one is used as is; a path with a {@code ..} segment is refused, and the result must
 * pass the agent's {@link SandboxRules}.
 *
 * <p>Immutable and thread-safe.
 */
public final class PathResolver {

    private final Path transferRoot;
    private final SandboxRules sandbox;

    /**
     * Creates a resolver.
     *
     * @param transferRoot base for relative paths; {@code null} means the {@code user.home}
     *        directory; a relative value is taken against the working directory
     * @param sandbox the agent sandbox
     */
    public PathResolver(Path transferRoot, SandboxRules sandbox) {
        Path root = transferRoot != null ? transferRoot : Path.of(System.getProperty("user.home"));
        this.transferRoot = root.toAbsolutePath().normalize();
        this.sandbox = Objects.requireNonNull(sandbox, "sandbox");
    }

    /** @return the absolute directory that relative request paths are taken against */
    public Path transferRoot() {
        return transferRoot;
    }

    /** @return the sandbox applied to every resolved path */
    public SandboxRules sandbox() {
        return sandbox;
    }

    /**
     * Resolves a request path.
     *
     * @param requestPath the path as written in the request
     * @param access what the agent will do with it, for the sandbox check
     * @return the absolute, normalised path (symbolic links are not resolved in the result, so that
     *         messages show the name the user wrote)
     * @throws SandboxViolationException if the sandbox refuses it
     * @throws PathRefusedException if it is empty, not a valid path, or contains {@code ..}
     */
    public Path resolve(String requestPath, Access access) throws PathRefusedException {
        if (requestPath == null || requestPath.isBlank()) {
            throw new PathRefusedException("the request names an empty path", String.valueOf(requestPath));
        }
        if (RealPaths.hasParentSegment(requestPath)) {
            throw new SandboxViolationException(access + " of \"" + requestPath
                    + "\" is refused: paths may not contain '..' segments", requestPath, access, "no '..' segments");
        }
        Path parsed;
        try {
            parsed = transferRoot.getFileSystem().getPath(requestPath);
        } catch (InvalidPathException e) {
            throw new PathRefusedException("\"" + requestPath + "\" is not a valid path: " + e.getReason(), requestPath);
        }
        Path resolved = transferRoot.resolve(parsed).normalize();
        sandbox.check(resolved, access);
        return resolved;
    }
}
