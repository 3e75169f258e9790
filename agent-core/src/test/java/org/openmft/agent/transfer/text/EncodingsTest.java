package org.openmft.agent.transfer.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class EncodingsTest {

    @ParameterizedTest
    @CsvSource({
        "UTF-8, UTF-8", "1208, UTF-8", "IBM-1208, UTF-8", "utf8, UTF-8",
        "819, ISO-8859-1", "ISO-8859-1, ISO-8859-1",
        "IBM-1047, IBM1047", "1047, IBM1047", "IBM1047, IBM1047",
        "IBM-037, IBM037", "037, IBM037", "37, IBM037",
        "1252, windows-1252", "windows-1252, windows-1252",
        "1200, UTF-16", "1140, IBM01140", "' IBM-500 ', IBM500", "UTF-16LE, UTF-16LE"
    })
    void mapsIbmAndJavaNames(String name, String javaName) {
        assertEquals(Charset.forName(javaName), Encodings.forName(name));
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"  "})
    void missingNameMeansPlatformDefault(String name) {
        assertEquals(Charset.defaultCharset(), Encodings.forName(name));
    }

    @ParameterizedTest
    @ValueSource(strings = {"IBM-99999", "no-such-charset", "bad name!"})
    void unknownNameIsRejectedByName(String name) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Encodings.forName(name));
        assertTrue(e.getMessage().contains("'" + name + "'"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"LF", "lf", "CRLF", " crlf "})
    void parsesLineEndings(String name) {
        assertEquals(name.trim().length() == 2 ? LineEnding.LF : LineEnding.CRLF, LineEnding.fromName(name));
        assertThrows(IllegalArgumentException.class, () -> LineEnding.fromName("CR"));
        assertEquals(StandardCharsets.UTF_8, Encodings.forName("UTF-8"));
    }
}
