package org.openmft.agent.transfer.files;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Turns a path from a transfer request into the path the agent uses: a relative path is taken
 * against the agent's {@code transferRoot} (IBM default: the agent user's home directory), an
 * absolute one is used as is; a path with a {@code ..} segment is refused, and the result must
 * pass the {@link Sandbox} of the transfer's requester.
 *
 * <p>The engine holds one resolver for the agent, made from its {@link SandboxPolicy}; each
 * transfer works with {@link #forRequester the resolver of its requester}, asked for again where
 * the rules may have changed meanwhile (user sandboxes are reloaded while the agent runs). The
 * agent's own resolver judges as for a request without a validated user.
 *
 * <p>Immutable and thread-safe.
 */
public final class PathResolver {

    private final Path transferRoot;
    private final SandboxPolicy policy;
    private final Sandbox sandbox;

    /**
     * Creates a resolver with one sandbox for every requester.
     *
     * @param transferRoot base for relative paths; {@code null} means the {@code user.home}
     *        directory; a relative value is taken against the working directory
     * @param sandbox the agent sandbox
     */
    public PathResolver(Path transferRoot, Sandbox sandbox) {
        this(transferRoot, SandboxPolicy.of(sandbox));
    }

    /**
     * Creates a resolver whose sandbox depends on the requester.
     *
     * @param transferRoot base for relative paths; {@code null} means the {@code user.home}
     *        directory; a relative value is taken against the working directory
     * @param policy chooses the sandbox of each requester
     */
    public PathResolver(Path transferRoot, SandboxPolicy policy) {
        this(absolute(transferRoot), policy, policy.forRequester(null));
    }

    private PathResolver(Path transferRoot, SandboxPolicy policy, Sandbox sandbox) {
        this.transferRoot = transferRoot;
        this.policy = Objects.requireNonNull(policy, "policy");
        this.sandbox = Objects.requireNonNull(sandbox, "sandbox");
    }

    private static Path absolute(Path transferRoot) {
        Path root = transferRoot != null ? transferRoot : Path.of(System.getProperty("user.home"));
        return root.toAbsolutePath().normalize();
    }

    /**
     * The resolver of one transfer's requester, with the sandbox the policy gives that requester now.
     *
     * @param requesterUser the user the queue manager validated for the request, or {@code null}
     * @return a resolver with the same {@code transferRoot} and policy
     */
    public PathResolver forRequester(String requesterUser) {
        return new PathResolver(transferRoot, policy, policy.forRequester(requesterUser));
    }

    /** @return the absolute directory that relative request paths are taken against */
    public Path transferRoot() {
        return transferRoot;
    }

    /** @return the sandbox applied to every resolved path */
    public Sandbox sandbox() {
        return sandbox;
    }

    /**
     * Resolves a request path that names a file.
     *
     * @param requestPath the path as written in the request
     * @param access what the agent will do with it, for the sandbox check
     * @return the absolute, normalised path (symbolic links are not resolved in the result, so that
     *         messages show the name the user wrote)
     * @throws SandboxViolationException if the sandbox refuses it
     * @throws PathRefusedException if it is empty, not a valid path, or contains {@code ..}
     */
    public Path resolve(String requestPath, Access access) throws PathRefusedException {
        Path resolved = locate(requestPath, access);
        sandbox.check(resolved, access);
        return resolved;
    }

    /**
     * Resolves a request path that names a directory: one to list (a wildcard's directory) or to
     * create files in (a destination directory); see {@link Sandbox#checkDirectory}.
     *
     * @param requestPath the path as written in the request
     * @param access listing (READ) or creating files (WRITE)
     * @return the absolute, normalised path
     * @throws SandboxViolationException if the sandbox refuses it
     * @throws PathRefusedException if it is empty, not a valid path, or contains {@code ..}
     */
    public Path resolveDirectory(String requestPath, Access access) throws PathRefusedException {
        Path resolved = locate(requestPath, access);
        sandbox.checkDirectory(resolved, access);
        return resolved;
    }

    /** Resolves without asking the sandbox; {@code ..} and invalid paths are still refused. */
    Path locate(String requestPath, Access access) throws PathRefusedException {
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
        return transferRoot.resolve(parsed).normalize();
    }
}
