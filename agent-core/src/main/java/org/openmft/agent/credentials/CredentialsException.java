package org.openmft.agent.credentials;

import java.nio.file.Path;

/**
 * A credentials file that cannot be used: missing, unreadable, readable by other users, not
 * well-formed, without the entry asked for, or with an entry OpenMFT cannot decrypt. The message
 * names the file and what is wrong; it never holds a password.
 */
public final class CredentialsException extends Exception {
    private static final long serialVersionUID = 1L;

    private final transient Path file;

    /**
     * @param file    the credentials file
     * @param message what is wrong, naming the file
     */
    public CredentialsException(Path file, String message) {
        super(message);
        this.file = file;
    }

    /**
     * @param file    the credentials file
     * @param message what is wrong, naming the file
     * @param cause   the underlying failure
     */
    public CredentialsException(Path file, String message, Throwable cause) {
        super(message, cause);
        this.file = file;
    }

    /**
     * The file in question.
     *
     * @return the path as given
     */
    public Path file() {
        return file;
    }
}
