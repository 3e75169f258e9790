package org.openmft.agent.monitor;

/**
 * What a monitor remembers of one file between polls: its size and last-modified time when last
 * seen, how many polls in a row its size stayed the same, and whether it triggered in that state.
 * A file triggers again only when its last-modified time or size changes, or it is deleted and
 * created again (its entry is dropped when a poll no longer sees it), which is IBM's rule.
 * Immutable.
 *
 * @param size bytes when last seen
 * @param lastModifiedMillis last-modified time when last seen
 * @param samePolls polls in a row after the first sight that saw the same size and time (0 on the first sight)
 * @param triggered whether it triggered in this state
 */
public record FileHistory(long size, long lastModifiedMillis, int samePolls, boolean triggered) {

    /**
     * Its state after a poll saw {@code file}; a change forgets that it triggered.
     *
     * @param pollsCounted how many quiet polls matter (the largest {@code fileSizeSame polls}):
     *     beyond that the count stays, so an unchanged file keeps this very state and a poll of an
     *     unchanged directory allocates nothing for it
     * @return the next state, {@code this} when nothing about it changed
     */
    FileHistory next(FileSnapshot file, int pollsCounted) {
        boolean same = file.size() == size && file.lastModifiedMillis() == lastModifiedMillis;
        if (!same) {
            return new FileHistory(file.size(), file.lastModifiedMillis(), 0, false);
        }
        if (samePolls >= pollsCounted) {
            return this;
        }
        return new FileHistory(size, lastModifiedMillis, samePolls + 1, triggered);
    }

    /** @return this state, triggered */
    FileHistory fired() {
        return new FileHistory(size, lastModifiedMillis, samePolls, true);
    }

    static FileHistory first(FileSnapshot file) {
        return new FileHistory(file.size(), file.lastModifiedMillis(), 0, false);
    }
}
