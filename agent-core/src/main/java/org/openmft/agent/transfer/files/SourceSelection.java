package org.openmft.agent.transfer.files;

import java.util.List;

/**
 * What one source item expanded to.
 *
 * @param files the files to transfer, sorted by relative path; empty when a wildcard matched
 *        nothing (the engine reports that, IBM BFGTR0011W)
 * @param emptyDirectories relative paths of directories in a recursive expansion that contain no
 *        file to transfer and no such directory, sorted, so that the destination can recreate them;
 *        their parents are implied
 * @param skipped entries found but not transferred, sorted by relative path
 */
public record SourceSelection(List<SelectedFile> files, List<String> emptyDirectories, List<SkippedEntry> skipped) {
    /** Makes the lists immutable. */
    public SourceSelection {
        files = List.copyOf(files);
        emptyDirectories = List.copyOf(emptyDirectories);
        skipped = List.copyOf(skipped);
    }
}
