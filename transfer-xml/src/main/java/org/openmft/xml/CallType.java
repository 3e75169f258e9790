package org.openmft.xml;

import java.util.Locale;

/**
 * The kind of program a call runs ({@code <command type>}, or the CLI's {@code type:} prefix).
 * Only {@link #EXECUTABLE} runs in OpenMFT: Ant scripts and z/OS JCL are refused as not supported.
 */
public enum CallType {
    /** A program on the agent's {@code commandPath}, run without a shell. The default. */
    EXECUTABLE("executable"),
    /** An Ant script run by IBM's {@code fteAnt}; not supported. */
    ANT_SCRIPT("antScript"),
    /** A z/OS JCL job; not supported. */
    JCL("jcl");

    private final String xml;

    CallType(String xml) {
        this.xml = xml;
    }

    /** The attribute value IBM writes. */
    public String xml() {
        return xml;
    }

    /**
     * Reads {@code executable}, {@code antScript} (IBM's XML) or {@code antscript} (its CLI) and
     * {@code jcl}, in any case.
     *
     * @throws IllegalArgumentException for anything else
     */
    public static CallType fromXml(String value) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        for (CallType t : values()) {
            if (t.xml.toLowerCase(Locale.ROOT).equals(v)) {
                return t;
            }
        }
        throw new IllegalArgumentException("call type " + Checks.quote(value)
                + " is not valid; expected executable, antscript or jcl");
    }
}
