package org.openmft.agent.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.ResultCode;
import org.openmft.agent.transfer.files.SandboxRules;
import org.openmft.xml.TriggerContent;

/** Reading the files a trigger file lists (-tc, -tcr, -tcc): formats, bad lines, limits, the sandbox. */
class TriggerContentsTest {
    @TempDir
    Path dir;

    private static final TriggerContent DEFAULT = new TriggerContent(null, false);

    private static List<TriggerContents.Entry> parse(String text, TriggerContent format) throws Exception {
        return TriggerContents.parse("/in/list.trig", text, format);
    }

    private static void assertFails(String text, TriggerContent format, String expected) {
        assertThatThrownBy(() -> parse(text, format)).isInstanceOfSatisfying(TaskVariables.TaskException.class,
                e -> assertThat(e.resultCode()).isEqualTo(ResultCode.MONITOR_TASK_FAILED))
                .hasMessageContaining("/in/list.trig").hasMessageContaining(expected);
    }

    @Test
    void theDefaultFormatIsASourceOrASourceAndDestinationPerLine() throws Exception {
        assertThat(parse("/data/a.txt\r\n/data/b c.txt, /out/b.txt\n\n   \n/data/d.txt,\n", DEFAULT)).containsExactly(
                new TriggerContents.Entry("/data/a.txt", null),
                new TriggerContents.Entry("/data/b c.txt", " /out/b.txt"),
                new TriggerContents.Entry("/data/d.txt", null));
        assertThat(parse("", DEFAULT)).isEmpty();
        assertFails("/a.txt\n/b.txt,/x,/y\n", DEFAULT, "line 2 has more than one comma");
        assertFails(",/out/x.txt", DEFAULT, "line 1 has no source");
    }

    @Test
    void aRegexTakesGroupOneAsSourceAndGroupTwoAsDestinationOrTheOtherWayRound() throws Exception {
        TriggerContent pairs = new TriggerContent("(\\S+)\\s*=>\\s*(\\S+)?", false);
        assertThat(parse("/a.txt => /x/a.txt\n/b.txt =>\n", pairs)).containsExactly(
                new TriggerContents.Entry("/a.txt", "/x/a.txt"), new TriggerContents.Entry("/b.txt", null));
        TriggerContent reversed = new TriggerContent("(\\S+) <= (\\S+)", true);
        assertThat(parse("/x/a.txt <= /a.txt", reversed)).containsExactly(new TriggerContents.Entry("/a.txt", "/x/a.txt"));
        TriggerContent one = new TriggerContent("file: (.+)", false);
        assertThat(parse("file: /a b.txt", one)).containsExactly(new TriggerContents.Entry("/a b.txt", null));
        // The whole line must match; a line that does not fails the whole file.
        assertFails("file: /a.txt\n# a comment\n", one, "line 2 does not match the trigger content regex (-tcr) file: (.+)");
        assertFails("/x/a.txt <= ", new TriggerContent("(\\S+) <= (\\S*)", true), "line 1 gives no source (group 2");
    }

    @Test
    void limitsAreNamed() throws Exception {
        String many = "/data/f.txt\n".repeat(TriggerContents.MAX_LINES);
        assertThat(parse(many, DEFAULT)).hasSize(TriggerContents.MAX_LINES);
        assertFails(many + "/data/one-more.txt", DEFAULT, "lists more than " + TriggerContents.MAX_LINES + " files");

        SandboxRules sandbox = SandboxRules.parse(dir.toString());
        Path big = Files.write(dir.resolve("big.trig"), new byte[TriggerContents.MAX_BYTES + 1]);
        assertThatThrownBy(() -> TriggerContents.read(big, sandbox)).hasMessageContaining(
                "larger than " + TriggerContents.MAX_BYTES + " bytes");
        Path latin1 = Files.write(dir.resolve("latin1.trig"), new byte[] {'/', 'a', (byte) 0xE9});
        assertThatThrownBy(() -> TriggerContents.read(latin1, sandbox)).hasMessageContaining("not UTF-8");
        Path bom = Files.writeString(dir.resolve("bom.trig"), "\uFEFF/a.txt\n");
        assertThat(TriggerContents.read(bom, sandbox)).isEqualTo("/a.txt\n");
        // A link is not followed, even to a file the sandbox allows (it could be changed to lead elsewhere).
        Path link = Files.createSymbolicLink(dir.resolve("link.trig"), bom);
        assertThatThrownBy(() -> TriggerContents.read(link, sandbox)).hasMessageContaining("cannot be read");
    }

    @Test
    void aTriggerFileOutsideTheSandboxIsNotRead() throws Exception {
        Path outside = Files.writeString(dir.resolve("list.trig"), "/etc/passwd");
        SandboxRules sandbox = SandboxRules.parse(dir.resolve("box").toString());
        assertThatThrownBy(() -> TriggerContents.read(outside, sandbox))
                .isInstanceOfSatisfying(TaskVariables.TaskException.class,
                        e -> assertThat(e.resultCode()).isEqualTo(ResultCode.MONITOR_DIRECTORY_ACCESS))
                .hasMessageContaining("may not be read");
    }
}
