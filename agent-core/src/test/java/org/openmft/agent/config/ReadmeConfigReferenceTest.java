package org.openmft.agent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/** The configuration reference in README.md is generated; this test keeps it in step with the registries. */
class ReadmeConfigReferenceTest {

    static final String START = "<!-- config-reference:start -->";
    static final String END = "<!-- config-reference:end -->";

    private static final String HOW_TO_FIX = "README.md's configuration reference is out of date. Regenerate it: run "
            + "'mvn -q -pl agent-core -am compile' and then "
            + "'java -cp agent-core/target/classes org.openmft.agent.config.ConfigReference' from the repository root, "
            + "and paste the output between the lines " + START + " and " + END + " of README.md.";

    /** Walks up from the working directory to the reactor root, the directory whose pom is openmft-parent itself. */
    static Path repositoryRoot() throws IOException {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path pom = dir.resolve("pom.xml");
            if (Files.isRegularFile(pom)) {
                // A module's pom names openmft-parent inside <parent>; only the root pom names it as itself.
                String ownCoordinates = Files.readString(pom).replaceAll("(?s)<parent>.*?</parent>", "");
                if (ownCoordinates.contains("<artifactId>openmft-parent</artifactId>")) {
                    return dir;
                }
            }
        }
        throw new IllegalStateException("no openmft-parent pom.xml above " + Path.of("").toAbsolutePath());
    }

    static String referenceSection(String readme) {
        String text = readme.replace("\r\n", "\n");
        int start = text.indexOf(START + "\n");
        int end = text.indexOf("\n" + END);
        if (start < 0 || end < 0 || end < start) {
            return null;
        }
        return text.substring(start + START.length() + 1, end + 1);
    }

    @Test
    void readmeHoldsTheGeneratedReference() throws IOException {
        Path readme = repositoryRoot().resolve("README.md");
        assertTrue(Files.isRegularFile(readme), readme + " is missing. " + HOW_TO_FIX);
        String section = referenceSection(Files.readString(readme));
        if (section == null) {
            fail("README.md has no " + START + " ... " + END + " section. " + HOW_TO_FIX);
        }
        assertEquals(ConfigReference.markdown(), section, HOW_TO_FIX);
    }

    @Test
    void sectionExtractionTakesExactlyTheTextBetweenTheMarkers() {
        String readme = "# T\r\n\r\n" + START + "\r\nline 1\r\n\r\nline 2\r\n" + END + "\r\nafter\r\n";
        assertEquals("line 1\n\nline 2\n", referenceSection(readme));
        assertEquals(null, referenceSection("no markers"));
    }
}
