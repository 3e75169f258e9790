package org.openmft.agent.transfer.files;

/**
 * A source item that cannot be expanded into files. The message is complete for the user and
 * starts with the IBM message id where there is one. Subclasses name the common cases.
 */
public class SourceSelectionException extends Exception {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message the complete user-facing message
     */
    public SourceSelectionException(String message) {
        super(message);
    }
}
