package org.openmft.agent.transfer.files;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.Objects;

/**
 * The cause of a failed file operation in the words users know from their operating system
 * ("Permission denied", "No space left on device"), for item supplements that already name the
 * file. Stateless.
 *
 * <p>Java reports some errors only by type: an {@link AccessDeniedException} carries the file name
 * as its message and no reason, so {@code e.getMessage()} would repeat the file and hide the cause.
 */
public final class FileErrors {

    private FileErrors() {
    }

    /**
     * Returns why {@code e} happened, without the file name.
     *
     * @param e the failure of an operation on a file
     * @return the operating system's reason when Java kept it, else one derived from the
     *         exception's type, else its message or type name; never null or empty
     */
    public static String reason(IOException e) {
        Objects.requireNonNull(e, "e");
        if (e instanceof FileSystemException fse) {
            if (fse.getReason() != null && !fse.getReason().isEmpty()) {
                return fse.getReason();
            }
            if (e instanceof AccessDeniedException) {
                return "Permission denied";
            }
            if (e instanceof NoSuchFileException) {
                return "No such file or directory";
            }
            if (e instanceof FileAlreadyExistsException) {
                return "File exists";
            }
            if (e instanceof NotDirectoryException) {
                return "Not a directory";
            }
            if (e instanceof DirectoryNotEmptyException) {
                return "Directory not empty";
            }
            return e.getClass().getSimpleName();
        }
        String message = e.getMessage();
        return message == null || message.isEmpty() ? e.getClass().getSimpleName() : message;
    }
}
