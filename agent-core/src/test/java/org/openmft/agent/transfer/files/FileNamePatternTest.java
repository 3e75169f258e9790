package org.openmft.agent.transfer.files;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FileNamePatternTest {

    @ParameterizedTest
    @CsvSource({
        "*.txt, a.txt, true", "*.txt, a.txt.bak, false", "*.txt, .txt, false", ".*, .profile, true",
        "*, .profile, false", "a?c, abc, true", "a?c, ac, false", "a?c, abbc, false",
        "a*b*c, aXbYbZc, true", "a*b*c, aXbYbZ, false", "*, '', true", "**x, yx, true",
        "[ab].txt, [ab].txt, true", "[ab].txt, a.txt, false", "?.txt, \u20AC.txt, true",
        "?.txt, \uD83D\uDE00.txt, true", "data_*_2024?.csv, data_x_y_20241.csv, true"
    })
    void matchesLikeIbmWildcards(String pattern, String name, boolean expected) {
        assertEquals(expected, new FileNamePattern(pattern).matches(name), pattern + " vs " + name);
    }
}
