package org.openmft.agent.calls;

import org.openmft.xml.ProgramCall;
import org.openmft.xml.ProgramCalls;

/** When a call runs, named by its element in IBM's request and transfer log. */
public enum CallPhase {
    /** {@code <preSourceCall>}: at the source agent, before any data moves. */
    PRE_SOURCE("preSourceCall"),
    /** {@code <postSourceCall>}: at the source agent, at the end. */
    POST_SOURCE("postSourceCall"),
    /** {@code <preDestinationCall>}: at the destination agent, before any data moves. */
    PRE_DESTINATION("preDestinationCall"),
    /** {@code <postDestinationCall>}: at the destination agent, at the end. */
    POST_DESTINATION("postDestinationCall");

    private final String element;

    CallPhase(String element) {
        this.element = element;
    }

    /** The element name IBM uses, also the wire name of the phase. */
    public String element() {
        return element;
    }

    /** This phase's call of {@code calls}, or null. */
    public ProgramCall of(ProgramCalls calls) {
        return switch (this) {
            case PRE_SOURCE -> calls.preSource();
            case POST_SOURCE -> calls.postSource();
            case PRE_DESTINATION -> calls.preDestination();
            case POST_DESTINATION -> calls.postDestination();
        };
    }

    /**
     * @param element an element (wire) name
     * @return the phase
     * @throws IllegalArgumentException for an unknown name
     */
    public static CallPhase fromElement(String element) {
        for (CallPhase p : values()) {
            if (p.element.equals(element)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown call phase " + element);
    }
}
