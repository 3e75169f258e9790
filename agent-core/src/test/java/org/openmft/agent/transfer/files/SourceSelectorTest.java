package org.openmft.agent.transfer.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SourceSelectorTest {

    @TempDir
    Path tmp;
    Path root;

    @BeforeEach
    void createRoot() throws Exception {
        root = Files.createDirectories(tmp.resolve("root"));
    }

    private SourceSelector selector(SandboxRules rules, int maxFiles) {
        return new SourceSelector(new PathResolver(root, rules), maxFiles);
    }

    private SourceSelector selector() {
        return selector(SandboxRules.unrestricted(), SourceSelector.DEFAULT_MAX_FILES);
    }

    private Path write(String relative, String content) throws Exception {
        Path file = root.resolve(relative);
        Files.createDirectories(file.getParent());
        return Files.writeString(file, content);
    }

    private static List<String> relativePaths(SourceSelection selection) {
        return selection.files().stream().map(SelectedFile::relativePath).collect(Collectors.toList());
    }

    @Test
    void plainFileIsOneItemWithSizeAndTime() throws Exception {
        Path file = write("in/data.csv", "12345");
        Files.setLastModifiedTime(file, FileTime.fromMillis(1_700_000_000_000L));
        SourceSelection selection = selector().select("in/data.csv", false);
        assertEquals(List.of(new SelectedFile(file, "data.csv", 5, 1_700_000_000_000L)), selection.files());
        assertEquals(List.of(), selection.emptyDirectories());
    }

    @Test
    void starWildcardMatchesFileNamesInItsDirectoryOnly() throws Exception {
        write("in/b.txt", "b");
        write("in/a.txt", "a");
        write("in/a.txt.bak", "x");
        write("in/.hidden.txt", "h");
        write("in/sub/c.txt", "c");
        Files.createDirectories(root.resolve("in/dir.txt"));
        assertEquals(List.of("a.txt", "b.txt"), relativePaths(selector().select("in/*.txt", false)));
        assertEquals(List.of(".hidden.txt"), relativePaths(selector().select("in/.*.txt", false)));
        assertEquals(List.of("a.txt", "b.txt"), relativePaths(selector().select(root.resolve("in") + "/*.txt", false)));
    }

    @Test
    void questionMarkMatchesExactlyOneCharacter() throws Exception {
        write("abc", "1");
        write("axc", "2");
        write("ac", "3");
        write("abbc", "4");
        assertEquals(List.of("abc", "axc"), relativePaths(selector().select("a?c", false)));
    }

    @Test
    void wildcardWithoutMatchesGivesAnEmptySelection() throws Exception {
        write("in/a.txt", "a");
        SourceSelection selection = selector().select("in/*.csv", false);
        assertEquals(List.of(), selection.files());
        assertEquals(List.of(), selection.skipped());
    }

    @Test
    void wildcardInAMissingDirectoryIsAMissingSource() {
        SourceNotFoundException e = assertThrows(SourceNotFoundException.class,
                () -> selector().select("nowhere/*.txt", false));
        assertTrue(e.getMessage().startsWith("BFGIO0001E"), e.getMessage());
    }

    @Test
    void recursiveDirectoryKeepsRelativePathsAndListsEmptyDirectories() throws Exception {
        write("tree/top.txt", "t");
        write("tree/a/one.txt", "1");
        write("tree/a/b/two.txt", "22");
        Files.createDirectories(root.resolve("tree/empty"));
        Files.createDirectories(root.resolve("tree/a/nested-empty/deeper"));
        SourceSelection selection = selector().select("tree", true);
        assertEquals(List.of("tree/a/b/two.txt", "tree/a/one.txt", "tree/top.txt"), relativePaths(selection));
        assertEquals(root.resolve("tree/a/b/two.txt"), selection.files().get(0).source());
        assertEquals(2, selection.files().get(0).size());
        // Only leaves are listed: recreating them recreates their parents.
        assertEquals(List.of("tree/a/nested-empty/deeper", "tree/empty"), selection.emptyDirectories());
    }

    @Test
    void recursiveWildcardWalksMatchingDirectories() throws Exception {
        write("in/x1/a.txt", "a");
        write("in/x2.txt", "b");
        write("in/y/c.txt", "c");
        assertEquals(List.of("x1/a.txt", "x2.txt"), relativePaths(selector().select("in/x*", true)));
        assertEquals(List.of("x2.txt"), relativePaths(selector().select("in/x*", false)));
    }

    @Test
    void emptyDirectoryGivesNoFilesButIsListed() throws Exception {
        Files.createDirectories(root.resolve("nothing"));
        SourceSelection selection = selector().select("nothing", true);
        assertEquals(List.of(), selection.files());
        assertEquals(List.of("nothing"), selection.emptyDirectories());
    }

    @Test
    void directoryWithoutRecursiveIsRefused() throws Exception {
        Files.createDirectories(root.resolve("dir"));
        SourceIsDirectoryException e = assertThrows(SourceIsDirectoryException.class,
                () -> selector().select("dir", false));
        assertTrue(e.getMessage().contains("is a directory; use recursive"), e.getMessage());
    }

    @Test
    void missingSourceIsReportedWithIbmMessageId() {
        SourceNotFoundException e = assertThrows(SourceNotFoundException.class,
                () -> selector().select("missing.txt", false));
        assertEquals(root.resolve("missing.txt"), e.path());
        assertTrue(e.getMessage().startsWith("BFGIO0001E"), e.getMessage());
    }

    @Test
    void exceedingMaxFilesReportsTheCountAndTheLimit() throws Exception {
        for (int i = 0; i < 7; i++) {
            write("many/f" + i, "x");
        }
        TooManyFilesException wildcard = assertThrows(TooManyFilesException.class,
                () -> selector(SandboxRules.unrestricted(), 6).select("many/f?", false));
        assertEquals(7, wildcard.count());
        TooManyFilesException e = assertThrows(TooManyFilesException.class,
                () -> selector(SandboxRules.unrestricted(), 5).select("many", true));
        assertEquals(7, e.count());
        assertEquals(5, e.limit());
        assertEquals(46, TooManyFilesException.RESULT_CODE);
        assertTrue(e.getMessage().startsWith("BFGSS0033E") && e.getMessage().contains("7") && e.getMessage().contains("5"),
                e.getMessage());
        assertEquals(7, selector(SandboxRules.unrestricted(), 7).select("many", true).files().size());
    }

    @Test
    void parentSegmentsAreRefused() {
        assertThrows(PathRefusedException.class, () -> selector().select("../root/x", false));
        assertThrows(PathRefusedException.class, () -> selector().select("a/../*.txt", false));
    }

    @Test
    void symbolicLinksAreNotFollowedAndLinkedFilesOutsideTheSandboxAreSkipped() throws Exception {
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), "secret");
        write("tree/ok.txt", "ok");
        write("tree/target.txt", "t");
        Files.createSymbolicLink(root.resolve("tree/inside-link.txt"), root.resolve("tree/target.txt"));
        Files.createSymbolicLink(root.resolve("tree/secret-link.txt"), outside.resolve("secret.txt"));
        Files.createSymbolicLink(root.resolve("tree/dir-link"), outside);
        SourceSelector selector = selector(SandboxRules.parse(root.toString(), ':'), 100);

        SourceSelection selection = selector.select("tree", true);
        assertEquals(List.of("tree/inside-link.txt", "tree/ok.txt", "tree/target.txt"), relativePaths(selection));
        assertEquals(List.of("tree/dir-link", "tree/secret-link.txt"),
                selection.skipped().stream().map(SkippedEntry::relativePath).collect(Collectors.toList()));
        assertTrue(selection.skipped().get(0).reason().contains("not followed"), selection.skipped().get(0).reason());
        assertTrue(selection.skipped().get(1).reason().contains("outside sandboxRoot"), selection.skipped().get(1).reason());

        assertEquals(List.of("inside-link.txt"), relativePaths(selector.select("tree/*link*", false)));
        assertThrows(SandboxViolationException.class, () -> selector.select("tree/secret-link.txt", false));
    }

    @Test
    void excludedSubTreeIsSkippedWhileWalking() throws Exception {
        write("tree/public/a.txt", "a");
        write("tree/private/b.txt", "b");
        write("tree/c.txt", "c");
        SourceSelector selector = selector(SandboxRules.parse(root + ":!" + root.resolve("tree/private"), ':'), 100);
        SourceSelection selection = selector.select("tree", true);
        assertEquals(List.of("tree/c.txt", "tree/public/a.txt"), relativePaths(selection));
        assertEquals(1, selection.skipped().size());
        assertEquals("tree/private", selection.skipped().get(0).relativePath());
        assertTrue(selection.skipped().get(0).reason().contains("!" + root.resolve("tree/private")));
        assertThrows(SandboxViolationException.class, () -> selector.select("tree/private/b.txt", false));
        assertThrows(SandboxViolationException.class, () -> selector.select(tmp + "/*", false));
    }
}
