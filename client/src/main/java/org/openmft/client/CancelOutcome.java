package org.openmft.client;

import java.util.Optional;

/**
 * The answer to a cancel.
 *
 * @param message what the agent said when it accepted the cancel ({@code BFGCL0404I} or its own words)
 * @param ended whether the transfer was seen to end within the wait (always false without a wait)
 * @param lostConnection when the wait ended while the connection to the queue manager was lost:
 *     since when and why; empty otherwise
 */
public record CancelOutcome(String message, boolean ended, Optional<String> lostConnection) {
}
