package org.openmft.agent.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** IBM's wildcards, matched without a regular expression, against the regular expression they mean. */
class FilePatternsTest {

    /** The wildcard as a Java regular expression: {@code *} is {@code .*}, {@code ?} is {@code .}, the rest quoted. */
    private static Pattern regex(String wildcard) {
        StringBuilder regex = new StringBuilder();
        for (char c : wildcard.toCharArray()) {
            regex.append(c == '*' ? ".*" : c == '?' ? "." : Pattern.quote(String.valueOf(c)));
        }
        return Pattern.compile(regex.toString(), Pattern.DOTALL);
    }

    @Test
    void wildcardsMatchTheWholeNameCaseSensitively() {
        assertThat(FilePatterns.wildcardMatches("*.csv", "a.csv")).isTrue();
        assertThat(FilePatterns.wildcardMatches("*.csv", ".csv")).isTrue();
        assertThat(FilePatterns.wildcardMatches("*.csv", "a.csv.tmp")).isFalse();
        assertThat(FilePatterns.wildcardMatches("*.csv", "a.CSV")).isFalse();
        assertThat(FilePatterns.wildcardMatches("a?c", "abc")).isTrue();
        assertThat(FilePatterns.wildcardMatches("a?c", "ac")).isFalse();
        assertThat(FilePatterns.wildcardMatches("*a*b*", "xxaxxbxx")).isTrue();
        assertThat(FilePatterns.wildcardMatches("*a*b", "xxaxxbxxb")).isTrue();
        assertThat(FilePatterns.wildcardMatches("*a*b", "xxbxxa")).isFalse();
        assertThat(FilePatterns.wildcardMatches("[a].*", "[a].txt")).as("regex characters are themselves").isTrue();
        assertThat(FilePatterns.wildcardMatches("[a].*", "a.txt")).isFalse();
        assertThat(FilePatterns.wildcardMatches("", "")).isTrue();
        assertThat(FilePatterns.wildcardMatches("*", "")).isTrue();
        assertThat(FilePatterns.wildcardMatches("?", "")).isFalse();
        assertThat(FilePatterns.wildcardMatches("?.txt", "\uD83D\uDE00.txt")).as("one character outside the BMP").isTrue();
    }

    @Test
    void wildcardsAgreeWithTheRegularExpressionTheyMean() {
        Random random = new Random(17);
        char[] inWildcards = {'a', 'b', '.', '*', '?', '\\', '$'};
        char[] inNames = {'a', 'b', '.', '\\', '$', '\n'};
        for (int i = 0; i < 20_000; i++) {
            String wildcard = text(random, inWildcards, 6);
            String name = text(random, inNames, 8);
            assertThat(FilePatterns.wildcardMatches(wildcard, name)).as("%s against %s", wildcard, name)
                    .isEqualTo(regex(wildcard).matcher(name).matches());
        }
    }

    private static String text(Random random, char[] alphabet, int most) {
        StringBuilder s = new StringBuilder();
        for (int i = random.nextInt(most + 1); i > 0; i--) {
            s.append(alphabet[random.nextInt(alphabet.length)]);
        }
        return s.toString();
    }
}
