package org.openmft.client;

/**
 * Told about the client's connections while it waits: that the connection to the command queue
 * manager was lost ({@code BFGCL0255W}), that it is back ({@code BFGCL0256I}), or that a reply
 * queue could not be deleted ({@code BFGCL0258W}). Called on the waiting thread; must not block.
 */
@FunctionalInterface
public interface ConnectionListener {
    /** A listener that ignores every notice. */
    ConnectionListener IGNORE = text -> { };

    /**
     * One notice, a line of text starting with its message id.
     *
     * @param text the notice
     */
    void onNotice(String text);
}
