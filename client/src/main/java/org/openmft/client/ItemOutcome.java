package org.openmft.client;

/**
 * How one item of a transfer ended.
 *
 * @param source the source file
 * @param destination the destination file, or null when it was not decided
 * @param resultCode IBM's item result code: 0 success, non-zero a failure
 * @param message the agent's explanation, or null
 */
public record ItemOutcome(String source, String destination, int resultCode, String message) {
}
