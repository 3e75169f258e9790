package org.openmft.agent.transfer.files;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Something a source expansion found but will not transfer, with the reason, so that the engine
 * can report it instead of it silently missing: a symbolic link to a directory (links are not
 * followed while walking), a link whose target is outside the sandbox, an excluded sub-tree, or
 * something that is not a regular file (a FIFO would block the reader forever).
 *
 * @param path the entry found
 * @param relativePath its path relative to the expansion, as for {@link SelectedFile}
 * @param reason why it is skipped, for the user
 * @param refusal the sandbox's refusal when that is why, else {@code null}
 */
public record SkippedEntry(Path path, String relativePath, String reason, SandboxViolationException refusal) {
    /** Validates the components. */
    public SkippedEntry {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(relativePath, "relativePath");
        Objects.requireNonNull(reason, "reason");
    }

    /** An entry skipped for another reason than the sandbox. */
    public SkippedEntry(Path path, String relativePath, String reason) {
        this(path, relativePath, reason, null);
    }

    /** @return what the item's result says: the sandbox's message id and message, or {@code BFGIO0003E} */
    public String supplement() {
        return refusal != null ? refusal.supplement() : "BFGIO0003E: " + reason;
    }
}
