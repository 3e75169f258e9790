package org.openmft.agent.transfer.files;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SandboxRulesTest {

    @TempDir
    Path tmp;
    Path sandbox;
    Path privateDir;
    Path outside;

    @BeforeEach
    void createTree() throws Exception {
        sandbox = Files.createDirectories(tmp.resolve("sandbox"));
        privateDir = Files.createDirectories(sandbox.resolve("private"));
        outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), "secret");
        Files.writeString(sandbox.resolve("a.txt"), "a");
    }

    private SandboxRules rules() {
        return SandboxRules.parse(sandbox + ":!" + privateDir, ':');
    }

    @Test
    void permitsPathsInsideTheRootIncludingOnesNotCreatedYet() throws Exception {
        SandboxRules rules = rules();
        assertTrue(rules.isRestricted());
        assertTrue(rules.permits(sandbox));
        assertTrue(rules.permits(sandbox.resolve("a.txt")));
        assertTrue(rules.permits(sandbox.resolve("new/dir/file.txt")));
        assertDoesNotThrow(() -> rules.check(sandbox.resolve("out.txt"), Access.WRITE));
    }

    @Test
    void refusesPathsOutsideTheRootsNamingTheRule() {
        SandboxRules rules = rules();
        Path secret = outside.resolve("secret.txt");
        SandboxViolationException e = assertThrows(SandboxViolationException.class,
                () -> rules.check(secret, Access.READ));
        assertEquals(secret.toString(), e.path());
        assertEquals(Access.READ, e.access());
        assertEquals(sandbox + ":!" + privateDir, e.rule());
        assertTrue(e.getMessage().contains("outside sandboxRoot"), e.getMessage());
        // A sibling whose name merely starts with the root's name is not inside it.
        assertFalse(rules.permits(tmp.resolve("sandbox2/x")));
    }

    @Test
    void exclusionWinsInsideAnAllowedRoot() {
        SandboxRules rules = rules();
        SandboxViolationException e = assertThrows(SandboxViolationException.class,
                () -> rules.check(privateDir.resolve("deep/x.txt"), Access.WRITE));
        assertEquals("!" + privateDir, e.rule());
        assertTrue(e.getMessage().contains("WRITE"), e.getMessage());
        assertFalse(rules.permits(privateDir));
        assertTrue(rules.permits(sandbox.resolve("privateer")));
    }

    @Test
    void parentSegmentsAreRefusedBeforeNormalisationEvenWithoutASandbox() {
        Path sneaky = sandbox.resolve("private/../a.txt"); // would normalise to an allowed file
        assertFalse(rules().permits(sneaky));
        assertFalse(SandboxRules.unrestricted().permits(sneaky));
        SandboxViolationException e = assertThrows(SandboxViolationException.class,
                () -> SandboxRules.parse("", ':').check(Path.of("x/../y"), Access.READ));
        assertTrue(e.getMessage().contains("'..'"), e.getMessage());
    }

    @Test
    void symbolicLinkLeadingOutsideIsRefusedAndOneStayingInsideIsNot() throws Exception {
        Path toSecret = Files.createSymbolicLink(sandbox.resolve("secret-link"), outside.resolve("secret.txt"));
        Path toOutsideDir = Files.createSymbolicLink(sandbox.resolve("outside-dir"), outside);
        Path toPrivate = Files.createSymbolicLink(sandbox.resolve("private-link"), privateDir);
        Path toA = Files.createSymbolicLink(sandbox.resolve("a-link"), sandbox.resolve("a.txt"));
        SandboxRules rules = rules();
        SandboxViolationException e = assertThrows(SandboxViolationException.class,
                () -> rules.check(toSecret, Access.READ));
        assertTrue(e.getMessage().contains("resolves to"), e.getMessage());
        assertFalse(rules.permits(toOutsideDir.resolve("new-file.txt")), "write through a link to outside");
        assertFalse(rules.permits(toPrivate.resolve("x")), "excluded tree reached through a link");
        assertTrue(rules.permits(toA));
    }

    @Test
    void danglingLinkIsRefusedBecauseWritingThroughItWouldCreateItsTarget() throws Exception {
        Path dangling = Files.createSymbolicLink(sandbox.resolve("dangling"), outside.resolve("created-later.txt"));
        assertFalse(rules().permits(dangling));
    }

    @Test
    void rootsReachedThroughALinkMatchTheirRealLocation() throws Exception {
        Path linkToSandbox = Files.createSymbolicLink(tmp.resolve("sandbox-link"), sandbox);
        SandboxRules rules = SandboxRules.parse(linkToSandbox.toString(), ':');
        assertTrue(rules.permits(sandbox.resolve("a.txt")));
        assertTrue(rules.permits(linkToSandbox.resolve("a.txt")));
        assertFalse(rules.permits(outside.resolve("secret.txt")));
    }

    @Test
    void emptyOrAbsentSandboxPermitsEverything() {
        for (SandboxRules rules : new SandboxRules[] {SandboxRules.parse(null), SandboxRules.parse("  "),
                SandboxRules.unrestricted()}) {
            assertFalse(rules.isRestricted());
            assertTrue(rules.permits(outside.resolve("secret.txt")));
        }
    }

    @Test
    void onlyExclusionsPermitEverythingElse() {
        SandboxRules rules = SandboxRules.parse("!" + privateDir, ':');
        assertTrue(rules.permits(outside.resolve("secret.txt")));
        assertFalse(rules.permits(privateDir.resolve("x")));
    }

    @Test
    void badEntriesAreRejectedAtParse() {
        assertThrows(IllegalArgumentException.class, () -> SandboxRules.parse("relative/dir", ':'));
        assertThrows(IllegalArgumentException.class, () -> SandboxRules.parse("/tmp/../etc", ':'));
        SandboxRules rules = SandboxRules.parse(" " + sandbox + " :: ! " + privateDir + " ", ':');
        assertTrue(rules.permits(sandbox.resolve("a.txt")));
        assertFalse(rules.permits(privateDir));
    }

    @Test
    void platformSeparatorIsUsedByDefault() {
        SandboxRules rules = SandboxRules.parse(sandbox + java.io.File.pathSeparator + "!" + privateDir);
        assertTrue(rules.permits(sandbox.resolve("a.txt")));
        assertFalse(rules.permits(privateDir.resolve("b")));
    }
}
