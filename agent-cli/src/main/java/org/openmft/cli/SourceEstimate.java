package org.openmft.cli;

import java.nio.file.Path;
import java.util.List;

import org.openmft.agent.transfer.files.PathResolver;
import org.openmft.agent.transfer.files.SandboxRules;
import org.openmft.agent.transfer.files.SelectedFile;
import org.openmft.agent.transfer.files.SourceSelection;
import org.openmft.agent.transfer.files.SourceSelector;
import org.openmft.xml.TransferItem;

/**
 * How many files and bytes a transfer will move, as far as this host can tell, so that the
 * progress display can show a percentage and the time left. Best effort: the sources are the
 * source agent's paths, which are this host's only when the agent runs here, so the numbers are
 * used only while they agree with the agent's own item count ({@link ProgressRenderer#total}).
 *
 * @param files the number of files, or -1 when unknown
 * @param bytes their total size in bytes, or -1 when unknown
 */
record SourceEstimate(int files, long bytes) {
    /** Nothing known. */
    static final SourceEstimate UNKNOWN = new SourceEstimate(-1, -1);

    /** Most files looked at; beyond that the estimate is unknown rather than slow. */
    static final int MAX_FILES = SourceSelector.DEFAULT_MAX_FILES;

    /**
     * Expands the items' sources on this host as the agent does (wildcards, {@code -r}).
     *
     * @return the estimate, or {@link #UNKNOWN} when a source is relative (the agent takes it
     *     against its transferRoot), missing here, unreadable, or expands to too many files
     */
    static SourceEstimate of(List<TransferItem> items) {
        SourceSelector selector = new SourceSelector(new PathResolver(null, SandboxRules.unrestricted()), MAX_FILES);
        int files = 0;
        long bytes = 0;
        for (TransferItem item : items) {
            String path = item.source().path();
            try {
                if (!Path.of(path).isAbsolute()) {
                    return UNKNOWN;
                }
                SourceSelection selection = selector.select(path, item.source().recursive());
                if (!selection.skipped().isEmpty()) {
                    return UNKNOWN;
                }
                for (SelectedFile f : selection.files()) {
                    files++;
                    bytes += f.size();
                }
            } catch (Exception e) {
                // Not this host's file, or not readable here: the agent will say what is wrong.
                return UNKNOWN;
            }
            if (files > MAX_FILES) {
                return UNKNOWN;
            }
        }
        return new SourceEstimate(files, bytes);
    }
}
