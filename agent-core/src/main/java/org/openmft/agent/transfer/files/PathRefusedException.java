package org.openmft.agent.transfer.files;

import java.util.Objects;

/**
 * A path named in a request that the agent will not use: it contains {@code ..}, cannot be parsed,
 * or would lead outside the directory it must stay in. The message is complete for the user and
 * names the path. The item fails; retrying does not help.
 *
 * <p>Each refusal carries the IBM-style message id users see before the message in the item's
 * result ({@link #supplement()}): {@value #DEFAULT_MESSAGE_ID} unless the refusal names another,
 * such as a user sandbox's {@code BFGIO0056E}.
 */
public class PathRefusedException extends Exception {
    private static final long serialVersionUID = 1L;

    /** The message id of a refused path, unless the refusal names another. */
    public static final String DEFAULT_MESSAGE_ID = "BFGSS0021E";

    private final String path;
    private final String messageId;

    /**
     * Creates the exception with {@value #DEFAULT_MESSAGE_ID}.
     *
     * @param message the complete user-facing message
     * @param path the path as the request gave it
     */
    public PathRefusedException(String message, String path) {
        this(message, path, DEFAULT_MESSAGE_ID);
    }

    /**
     * Creates the exception.
     *
     * @param message the complete user-facing message, without the message id
     * @param path the path as the request gave it
     * @param messageId the IBM-style id shown before the message, such as {@code BFGIO0056E}
     */
    public PathRefusedException(String message, String path, String messageId) {
        super(message);
        this.path = Objects.requireNonNull(path, "path");
        this.messageId = Objects.requireNonNull(messageId, "messageId");
    }

    /** @return the refused path, as the request gave it */
    public String path() {
        return path;
    }

    /** @return the message id shown before the message */
    public String messageId() {
        return messageId;
    }

    /** @return what an item's result says: {@code <message id>: <message>} */
    public String supplement() {
        return messageId + ": " + getMessage();
    }
}
