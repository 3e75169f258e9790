package org.openmft.agent.config;

import java.util.regex.Pattern;

/**
 * Keeps secrets out of what OpenMFT prints: the effective configuration logged at start-up, the
 * URLs in messages about a database. Two shapes are masked wherever they appear in a text:
 * {@code password=...} (also {@code pwd=}, {@code passwd=}; JDBC URLs and connection strings, up to
 * the next {@code ;}, {@code &}, white space or end) and the password of {@code scheme://user:password@host}.
 * User names and hosts stay, because they are what a person needs to find the problem.
 *
 * <p>Stateless and thread-safe.
 */
public final class Secrets {

    /** What a secret is replaced with. */
    public static final String MASK = "********";

    private static final Pattern PASSWORD_SETTING =
            Pattern.compile("(?i)\\b(password|passwd|pwd)(\\s*=\\s*)[^;&\\s]*");
    private static final Pattern USER_INFO = Pattern.compile("(://[^/@:\\s]*):[^/@\\s]*@");

    private Secrets() {
    }

    /**
     * Masks the passwords in a text that may hold URLs or connection settings.
     *
     * @param text any text, or {@code null}
     * @return the text with every password replaced by {@link #MASK}; {@code null} for {@code null}
     */
    public static String maskCredentials(String text) {
        if (text == null) {
            return null;
        }
        String masked = PASSWORD_SETTING.matcher(text).replaceAll("$1$2" + MASK);
        return USER_INFO.matcher(masked).replaceAll("$1:" + MASK + "@");
    }
}
