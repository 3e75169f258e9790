package org.openmft.xml;

/**
 * The program calls of a transfer set, each {@code null} when absent. IBM's order of running
 * them: pre-source, pre-destination, the transfer, post-destination (only on success or partial
 * success), post-source (only then and when the post-destination call succeeded). Immutable.
 *
 * @param preSource {@code <preSourceCall>}, run by the source agent before any data moves
 * @param postSource {@code <postSourceCall>}, run by the source agent at the end
 * @param preDestination {@code <preDestinationCall>}, run by the destination agent before any data moves
 * @param postDestination {@code <postDestinationCall>}, run by the destination agent at the end
 */
public record ProgramCalls(ProgramCall preSource, ProgramCall postSource, ProgramCall preDestination,
        ProgramCall postDestination) {

    /** No calls. */
    public static final ProgramCalls NONE = new ProgramCalls(null, null, null, null);

    /** Whether there is no call at all. */
    public boolean isEmpty() {
        return preSource == null && postSource == null && preDestination == null && postDestination == null;
    }

    /** Whether the destination agent has a call to run. */
    public boolean atDestination() {
        return preDestination != null || postDestination != null;
    }
}
