package org.openmft.agent.transfer.files;

import java.util.Objects;

/**
 * A path named in a request that the agent will not use: it contains {@code ..}, cannot be parsed,
 * or would lead outside the directory it must stay in. The message is complete for the user and
 * names the path. The item fails; retrying does not help.
 */
public class PathRefusedException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String path;

    /**
     * Creates the exception.
     *
     * @param message the complete user-facing message
     * @param path the path as the request gave it
     */
    public PathRefusedException(String message, String path) {
        super(message);
        this.path = Objects.requireNonNull(path, "path");
    }

    /** @return the refused path, as the request gave it */
    public String path() {
        return path;
    }
}
