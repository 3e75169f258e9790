package org.openmft.agent.transfer.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PathResolverTest {

    @TempDir
    Path tmp;

    @Test
    void relativePathsAreTakenAgainstTransferRootAndAbsoluteOnesUsedAsIs() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("root"));
        PathResolver resolver = new PathResolver(root, SandboxRules.unrestricted());
        assertEquals(root.resolve("in/a.txt"), resolver.resolve("in/a.txt", Access.READ));
        assertEquals(root.resolve("b.txt"), resolver.resolve("./b.txt", Access.READ));
        Path elsewhere = tmp.resolve("elsewhere/c.txt");
        assertEquals(elsewhere, resolver.resolve(elsewhere.toString(), Access.WRITE));
        assertEquals(root, resolver.transferRoot());
    }

    @Test
    void missingTransferRootMeansTheHomeDirectory() throws Exception {
        PathResolver resolver = new PathResolver(null, SandboxRules.unrestricted());
        assertEquals(Path.of(System.getProperty("user.home")).toAbsolutePath().normalize().resolve("x"),
                resolver.resolve("x", Access.READ));
    }

    @Test
    void parentSegmentsAreRefusedWithAClearMessage() {
        PathResolver resolver = new PathResolver(tmp, SandboxRules.unrestricted());
        for (String path : new String[] {"../etc/passwd", "a/../b", "a\\..\\b", tmp + "/x/.."}) {
            PathRefusedException e = assertThrows(PathRefusedException.class, () -> resolver.resolve(path, Access.READ));
            assertEquals(path, e.path());
            assertTrue(e.getMessage().contains("may not contain '..'"), e.getMessage());
        }
        assertThrows(PathRefusedException.class, () -> resolver.resolve(" ", Access.READ));
        assertThrows(PathRefusedException.class, () -> resolver.resolve("nul\0char", Access.READ));
    }

    @Test
    void sandboxIsAppliedToTheResolvedPath() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("root"));
        PathResolver resolver = new PathResolver(root, SandboxRules.parse(root + ":!" + root.resolve("private"), ':'));
        assertEquals(root.resolve("ok.txt"), resolver.resolve("ok.txt", Access.WRITE));
        SandboxViolationException excluded = assertThrows(SandboxViolationException.class,
                () -> resolver.resolve("private/x.txt", Access.WRITE));
        assertEquals("!" + root.resolve("private"), excluded.rule());
        assertThrows(SandboxViolationException.class, () -> resolver.resolve(tmp.resolve("x").toString(), Access.READ));
    }
}
