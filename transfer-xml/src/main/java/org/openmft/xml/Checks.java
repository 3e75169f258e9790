package org.openmft.xml;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Value rules shared by the records. Every string a record accepts must survive a write and a
 * parse unchanged, so the rules are as much about XML 1.0 as about MFT: attribute values are
 * whitespace-normalised by every XML parser and most control characters cannot be written at all.
 * Also how values from untrusted documents are quoted in messages ({@link #quote}).
 *
 * <p><b>Internal to transfer-xml</b>: public only so that {@code org.openmft.xml.log} can quote
 * values the same way; its public methods are not part of the API and may change in any release.
 */
public final class Checks {
    /** Longest path accepted, in characters; longer ones are hostile or broken, never real. */
    static final int MAX_PATH_LENGTH = 4096;

    private static final Pattern VERSION = Pattern.compile("[0-9]{1,2}\\.[0-9]{1,2}");
    private static final BigDecimal LOWEST_VERSION = new BigDecimal("1.00");
    private static final BigDecimal HIGHEST_VERSION = new BigDecimal("6.00");

    private Checks() {}

    /**
     * A name, identifier or single-line value: present, not blank, no surrounding whitespace (the
     * parser strips it, so it could not survive a round trip) and no control characters (they
     * cannot be written into an attribute without being normalised away).
     */
    /** xsd:boolean's four spellings ({@code true}, {@code 1}, {@code false}, {@code 0}); null for anything else. */
    static Boolean xsdBoolean(String value) {
        switch (value.strip()) {
            case "true":
            case "1":
                return Boolean.TRUE;
            case "false":
            case "0":
                return Boolean.FALSE;
            default:
                return null;
        }
    }

    static String name(String value, String what) {
        Objects.requireNonNull(value, what);
        if (value.isBlank()) {
            throw new IllegalArgumentException(what + " must not be empty");
        }
        if (!value.equals(value.strip())) {
            throw new IllegalArgumentException(what + " " + quote(value) + " must not start or end with whitespace");
        }
        for (int i = 0; i < value.length(); i++) {
            if (Character.isISOControl(value.charAt(i))) {
                throw new IllegalArgumentException(what + " " + quote(value) + " contains a control character");
            }
        }
        return xmlText(value, what);
    }

    /** Like {@link #name} but {@code null} or empty mean "not given" and become {@code null}. */
    static String optionalName(String value, String what) {
        return value == null || value.isEmpty() ? null : name(value, what);
    }

    /** A file path: a {@link #name} of at most {@link #MAX_PATH_LENGTH} characters. */
    static String path(String value, String what) {
        Objects.requireNonNull(value, what);
        if (value.length() > MAX_PATH_LENGTH) {
            throw new IllegalArgumentException(
                    what + " is " + value.length() + " characters long; the limit is " + MAX_PATH_LENGTH);
        }
        return name(value, what);
    }

    /** Free text (metadata values, supplements): anything XML 1.0 can carry, including line breaks. */
    static String xmlText(String value, String what) {
        Objects.requireNonNull(value, what);
        for (int i = 0; i < value.length(); i++) {
            char ch = value.charAt(i);
            boolean ok;
            if (Character.isHighSurrogate(ch)) {
                ok = i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1));
                i++;
            } else {
                ok = ch == '\t' || ch == '\n' || ch == '\r'
                        || (ch >= 0x20 && ch <= 0xD7FF) || (ch >= 0xE000 && ch <= 0xFFFD);
            }
            if (!ok) {
                throw new IllegalArgumentException(what + " contains a character that XML 1.0 cannot carry");
            }
        }
        return value;
    }

    /**
     * A transfer id: the 24 bytes of an MQ message id as 48 hexadecimal characters. Returned in
     * lower case, the form IBM prints and publishes.
     */
    static String transferId(String id) {
        Objects.requireNonNull(id, "transfer ID");
        boolean hex = id.length() == 48;
        for (int i = 0; hex && i < id.length(); i++) {
            char ch = id.charAt(i);
            hex = (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F');
        }
        if (!hex) {
            throw new IllegalArgumentException("transfer ID " + quote(id) + " must be 48 hexadecimal characters");
        }
        return id.toLowerCase(Locale.ROOT);
    }

    /** A request or reply version: N.NN (or N.N) between 1.00 and 6.00 inclusive. */
    static String version(String value) {
        Objects.requireNonNull(value, "version");
        if (!isSupportedVersion(value)) {
            throw new IllegalArgumentException(
                    "version " + quote(value) + " is not supported; expected 1.00 to 6.00");
        }
        return value;
    }

    static boolean isSupportedVersion(String value) {
        if (value == null || !VERSION.matcher(value).matches()) {
            return false;
        }
        BigDecimal number = new BigDecimal(value);
        return number.compareTo(LOWEST_VERSION) >= 0 && number.compareTo(HIGHEST_VERSION) <= 0;
    }

    /**
     * Quotes a value for an error message. Values come from untrusted documents and end up in logs
     * and replies, so they are shortened and their control characters made visible.
     *
     * @param value the value, or {@code null}
     * @return it in double quotes, shortened to about 80 characters; {@code "null"} for {@code null}
     */
    public static String quote(String value) {
        return value == null ? "null" : '"' + printable(value, 80) + '"';
    }

    /**
     * A value made safe for a message: one that can go into a log line and into the supplement of
     * a reply as it is.
     *
     * @param value the value
     * @param max how many of its characters to keep
     * @return {@code value} shortened to about {@code max} characters, never between the two halves
     *     of a surrogate pair; control characters, unpaired surrogates and the non-characters
     *     U+FFFE and U+FFFF (which XML 1.0 cannot carry) written as backslash-u escapes
     */
    public static String printable(String value, int max) {
        StringBuilder out = new StringBuilder();
        int limit = Math.min(value.length(), max);
        if (limit > 0 && limit < value.length() && Character.isHighSurrogate(value.charAt(limit - 1))
                && Character.isLowSurrogate(value.charAt(limit))) {
            // Cutting here would leave half a character, which no XML document can carry.
            limit--;
        }
        for (int i = 0; i < limit; i++) {
            char ch = value.charAt(i);
            boolean pair = Character.isHighSurrogate(ch) && i + 1 < limit && Character.isLowSurrogate(value.charAt(i + 1));
            if (pair) {
                out.append(ch).append(value.charAt(++i));
            } else if (Character.isISOControl(ch) || Character.isSurrogate(ch) || ch == '\uFFFE' || ch == '\uFFFF') {
                out.append(String.format(Locale.ROOT, "\\u%04x", (int) ch));
            } else {
                out.append(ch);
            }
        }
        if (limit < value.length()) {
            out.append("...(").append(value.length()).append(" characters)");
        }
        return out.toString();
    }
}
