package org.openmft.agent.transfer.text;

import java.util.Locale;

/**
 * Line ending written to a text-mode destination (IBM {@code EOL} attribute, CLI {@code -dle}).
 * The source side needs no such setting: LF and CRLF are both recognised there.
 */
public enum LineEnding {
    /** A single line feed, as on UNIX and z/OS UNIX System Services. */
    LF,
    /** Carriage return then line feed, as on Windows. */
    CRLF;

    /**
     * Returns the line ending of the platform this JVM runs on, which IBM uses when a transfer
     * does not name one.
     *
     * @return {@link #CRLF} where {@link System#lineSeparator()} is CR LF, otherwise {@link #LF}
     */
    public static LineEnding platformDefault() {
        return "\r\n".equals(System.lineSeparator()) ? CRLF : LF;
    }

    /**
     * Parses the value of an {@code EOL} attribute or {@code -dle} option.
     *
     * @param name {@code LF} or {@code CRLF}, in any case
     * @return the line ending
     * @throws IllegalArgumentException if the name is neither
     */
    public static LineEnding fromName(String name) {
        if (name != null) {
            switch (name.trim().toUpperCase(Locale.ROOT)) {
                case "LF":
                    return LF;
                case "CRLF":
                    return CRLF;
                default:
                    break;
            }
        }
        throw new IllegalArgumentException("unknown line ending '" + name + "'; expected LF or CRLF");
    }
}
