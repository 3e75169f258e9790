package org.openmft.agent.transfer.text;

import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Maps the encoding names users write in transfer requests ({@code <file encoding="…">},
 * {@code -sce}/{@code -dce}) to Java charsets. IBM users write code pages as CCSIDs ({@code 1208},
 * {@code 819}) or IBM names ({@code IBM-1047}); Java spells several of them differently
 * ({@code IBM1047}, {@code windows-1252}) or not at all ({@code 1208}).
 *
 * <p>Lookup order: a CCSID written as a number, optionally prefixed by {@code IBM}, {@code IBM-} or
 * {@code CCSID}, is looked up in a table of CCSIDs whose Java name differs, then tried as Java's
 * {@code IBMnnn}/{@code IBM0nnnn}; anything else is passed to {@link Charset#forName(String)}.
 * Stateless and thread-safe.
 */
public final class Encodings {

    /** CCSIDs whose Java charset is not named {@code IBMnnn}. */
    private static final Map<Integer, Charset> CCSIDS = Map.of(
            1208, StandardCharsets.UTF_8,
            1200, StandardCharsets.UTF_16,
            819, StandardCharsets.ISO_8859_1,
            367, StandardCharsets.US_ASCII,
            1252, Charset.forName("windows-1252"));

    private static final Pattern CCSID = Pattern.compile("(?i)(?:IBM-?|CCSID-?)?0*(\\d{1,5})");

    private Encodings() {
    }

    /**
     * Returns the charset for an encoding name.
     *
     * @param name an IBM CCSID or code page name, or a Java charset name; {@code null} or blank
     *        means the platform default, which is IBM's default for text transfers
     * @return the charset
     * @throws IllegalArgumentException naming the encoding if this JVM has no such charset
     */
    public static Charset forName(String name) {
        if (name == null || name.isBlank()) {
            return Charset.defaultCharset();
        }
        String trimmed = name.trim();
        Matcher ccsid = CCSID.matcher(trimmed);
        if (ccsid.matches()) {
            Charset charset = forCcsid(Integer.parseInt(ccsid.group(1)));
            if (charset != null) {
                return charset;
            }
        }
        try {
            return Charset.forName(trimmed);
        } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
            throw new IllegalArgumentException("unknown encoding '" + name + "'", e);
        }
    }

    private static Charset forCcsid(int ccsid) {
        Charset known = CCSIDS.get(ccsid);
        if (known != null) {
            return known;
        }
        // Java names IBM EBCDIC and PC code pages IBM037, IBM500, IBM1047, IBM01140 …
        String digits = String.format("%03d", ccsid);
        for (String candidate : new String[] {"IBM" + digits, "IBM0" + digits, "x-IBM" + digits}) {
            if (Charset.isSupported(candidate)) {
                return Charset.forName(candidate);
            }
        }
        return null;
    }
}
