package org.openmft.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openmft.cli.MftCommandLineTest.run;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.openmft.client.internal.CommandChannel;
import org.openmft.cli.MftCommandLineTest.Run;
import org.openmft.xml.AgentRef;
import org.openmft.xml.ChecksumMethod;
import org.openmft.xml.DestinationType;
import org.openmft.xml.Disposition;
import org.openmft.xml.DocumentWriter;
import org.openmft.xml.ExistAction;
import org.openmft.xml.ItemDestination;
import org.openmft.xml.ItemSource;
import org.openmft.xml.LineEnding;
import org.openmft.xml.Mode;
import org.openmft.xml.RequestParser;
import org.openmft.xml.CallType;
import org.openmft.xml.ProgramCall;
import org.openmft.xml.ProgramCalls;
import org.openmft.xml.SuccessCodes;
import org.openmft.xml.TransferItem;
import org.openmft.xml.TransferRequest;
import org.openmft.xml.TransferSet;

/**
 * {@code mft transfer create} (fteCreateTransfer) through picocli with captured output: each flag's
 * place in the request XML (written with {@code -gt} and parsed back), refusals of wrong
 * combinations and of IBM flags not supported yet, with nothing written or sent, and the help.
 */
class CreateTransferCommandLineTest {
    @TempDir
    Path dir;

    /** Runs {@code transfer create} against an empty data directory, so nothing can be sent. */
    private Run create(String... args) {
        List<String> all = new ArrayList<>(List.of("transfer", "create", "--data-dir", dir.resolve("data").toString()));
        all.addAll(List.of(args));
        return run(all.toArray(String[]::new));
    }

    private TransferRequest generated(Path file) throws Exception {
        return (TransferRequest) new RequestParser().parse(Files.readAllBytes(file));
    }

    private static TransferRequest request(AgentRef source, AgentRef destination, TransferSet set, String job) {
        return new TransferRequest(DocumentWriter.VERSION, CommandChannel.originator(), source, destination, null, set,
                job);
    }

    @Test
    void helpShowsTheIbmFlagsExamplesAndWhatIsNotSupported() {
        Run r = run("transfer", "create", "--help");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("-sa", "-sm", "-da", "-dm", "-df", "-dd", "-de", "-sd", "-r", "-t", "-cs", "-pr",
                "-jn", "-md", "-rt", "-sce", "-dce", "-dle", "-w", "-gt", "-td", "-p", "--no-progress", "SOURCE",
                "Examples:", "fteCreateTransfer -sa AGENT1 -sm QM1 -da AGENT2 -dm QM1 -dd /data/in",
                "Not supported yet", "-presrc", "Exit codes", "-tr", "-ss", "-oi");
        assertThat(run("transfer", "fteCreateTransfer", "--help").out()).isEqualTo(r.out());
        assertThat(run("transfer", "--help").out()).contains("create", "fteCreateTransfer", "submit");
    }

    @Test
    void everyFlagHasItsPlaceInTheRequest() throws Exception {
        Path xml = dir.resolve("request.xml");
        Run r = create("-sa", "agent1", "-sm", "QM1", "-da", "Agent2", "-dm", "QM2", "-dd", "/data/in",
                "-de", "overwrite", "-sd", "delete", "-r", "-t", "text", "-cs", "none", "-pr", "7", "-jn", "NIGHTLY",
                "-md", "batch=42,owner=ops,expr=a=b,empty=", "-rt", "600", "-sce", "UTF-8", "-dce", "IBM-1047",
                "-dle", "CRLF", "-gt", xml.toString(), "/data/out/a.txt", "/data/out/*.csv");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("written to " + xml, "nothing was sent", "mft transfer submit");

        ItemDestination destination = new ItemDestination(DestinationType.DIRECTORY, ExistAction.OVERWRITE,
                "/data/in", "IBM-1047", LineEnding.CRLF);
        List<TransferItem> items = List.of(
                new TransferItem(Mode.TEXT, ChecksumMethod.NONE,
                        new ItemSource(true, Disposition.DELETE, "/data/out/a.txt", "UTF-8"), destination),
                new TransferItem(Mode.TEXT, ChecksumMethod.NONE,
                        new ItemSource(true, Disposition.DELETE, "/data/out/*.csv", "UTF-8"), destination));
        Map<String, String> metadata = new LinkedHashMap<>();
        metadata.put("batch", "42");
        metadata.put("owner", "ops");
        metadata.put("expr", "a=b");
        metadata.put("empty", "");
        TransferRequest expected = request(new AgentRef("AGENT1", "QM1"), new AgentRef("AGENT2", "QM2"),
                new TransferSet(7, 600L, metadata, items), "NIGHTLY");
        assertThat(generated(xml)).isEqualTo(expected);
        assertThat(List.copyOf(generated(xml).transferSet().metadata().keySet()))
                .containsExactly("batch", "owner", "expr", "empty");
    }

    @Test
    void programCallsGoIntoTheTransferSet() throws Exception {
        Path xml = dir.resolve("calls.xml");
        Run r = create("-sa", "A1", "-da", "A2", "-dd", "/in", "-presrc", "pre.sh(a\\,b,c)", "-postsrc", "post.sh",
                "-predst", "executable:check.sh(),2,5", "-postdst", "notify.sh(x),1,30,>2&<7&!5|0|14",
                "-gt", xml.toString(), "/out/a");
        assertThat(r.exitCode()).as(r.err()).isZero();
        ProgramCalls calls = generated(xml).transferSet().calls();
        assertThat(calls.preSource()).isEqualTo(ProgramCall.executable("pre.sh", List.of("a,b", "c")));
        assertThat(calls.postSource()).isEqualTo(ProgramCall.executable("post.sh", List.of()));
        assertThat(calls.preDestination()).isEqualTo(new ProgramCall(CallType.EXECUTABLE, "check.sh", List.of(), 2, 5,
                SuccessCodes.ZERO));
        assertThat(calls.postDestination()).isEqualTo(new ProgramCall(CallType.EXECUTABLE, "notify.sh", List.of("x"),
                1, 30, SuccessCodes.of(">2&<7&!5|0|14")));
    }

    @Test
    void theDefaultsAreIbms() throws Exception {
        Path xml = dir.resolve("single.xml");
        Run r = create("-sa", "A1", "-da", "A2", "-df", "/in/report.pdf", "-gt", xml.toString(), "/out/report.pdf");
        assertThat(r.exitCode()).as(r.err()).isZero();
        TransferItem item = new TransferItem(Mode.BINARY, ChecksumMethod.MD5,
                new ItemSource(false, Disposition.LEAVE, "/out/report.pdf", null),
                new ItemDestination(DestinationType.FILE, ExistAction.ERROR, "/in/report.pdf", null, null));
        assertThat(generated(xml)).isEqualTo(request(new AgentRef("A1", null), new AgentRef("A2", null),
                new TransferSet(0, null, Map.of(), List.of(item)), null));
        // -rt -1 (recover for ever) and 0 (not at all) are both IBM's.
        assertThat(create("-sa", "A1", "-da", "A2", "-dd", "/in", "-rt", "-1", "-gt", xml.toString(), "/out/x")
                .exitCode()).isZero();
        assertThat(generated(xml).transferSet().recoveryTimeoutSeconds()).isEqualTo(-1L);
    }

    @ParameterizedTest
    @ValueSource(strings = {"SHA-256", "sha256"})
    void sha256IsOpenMftsOwnChecksumWrittenAsSha256(String spelling) throws Exception {
        Path xml = dir.resolve("sha.xml");
        Run r = create("-sa", "A1", "-da", "A2", "-df", "/in/a.bin", "-cs", spelling, "-gt", xml.toString(),
                "/out/a.bin");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(generated(xml).transferSet().items()).singleElement()
                .satisfies(i -> assertThat(i.checksumMethod()).isEqualTo(ChecksumMethod.SHA_256));
        assertThat(Files.readString(xml)).contains("checksumMethod=\"SHA-256\"");
        assertThat(run("transfer", "create", "--help").out()).contains("-cs=MD5|SHA-256|none",
                "SHA-256 is OpenMFT's");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "-da A2 -dd /in /out/a|-sa (the source agent) is required",
            "-sa A1 -dd /in /out/a|-da (the destination agent) is required",
            "-sa A1 -da A2 /out/a|a destination is required: -df FILE or -dd DIR",
            "-sa A1 -da A2 -df /in/a -dd /in /out/a|-df and -dd cannot be used together",
            "-sa A1 -da A2 -dd /in|no source file given",
            "-sa A1 -da A2 -df /in/a /out/a /out/b|-df names one destination file, but 2 sources",
            "-sa A1 -da A2 -df /in/a /out/*.txt|-df names one destination file, but source '/out/*.txt' has a wildcard",
            "-sa A1 -da A2 -df /in/a -r /out/dir|-df names one destination file, but source '/out/dir' is recursive",
            "-sa A1 -da A2 -dd /in -pr 12 /out/a|-pr 12 is out of range; expected 0-9",
            "-sa A1 -da A2 -dd /in -pr high /out/a|-pr 'high' is not a number; expected 0-9",
            "-sa A1 -da A2 -dd /in -rt -2 /out/a|-rt -2 is out of range; expected -1 or more",
            "-sa A1 -da A2 -dd /in -md owner /out/a|-md 'owner' is not valid: no '=' in 'owner'",
            "-sa A1 -da A2 -dd /in -md =x /out/a|-md '=x' is not valid: a key is empty",
            "-sa A1 -da A2 -dd /in -md a=1,a=2 /out/a|-md 'a=1,a=2' is not valid: key 'a' appears twice",
            "-sa A1 -da A2 -dd /in -t ascii /out/a|-t: \"ascii\" is not valid; expected binary or text",
            "-sa A1 -da A2 -dd /in -cs SHA-1 /out/a|-cs: \"SHA-1\" is not valid; expected MD5, SHA-256 or none",
            "-sa A1 -da A2 -dd /in -de replace /out/a|-de: \"replace\" is not valid; expected error or overwrite",
            "-sa A1 -da A2 -dd /in -sd move /out/a|-sd: \"move\" is not valid; expected leave or delete",
            "-sa A1 -da A2 -dd /in -t text -dle CR /out/a|-dle: \"CR\" is not valid; expected LF or CRLF",
            "-sa A1 -da A2 -dd /in -dce IBM-1047 /out/a|-dce applies to text transfers only: add -t text",
            "-sa A-1 -da A2 -dd /in /out/a|-sa: agent name 'A-1' is not valid",
            "-sa A1 -da A2 -dd /in /out/x/*/a|source '/out/x/*/a': source path \"/out/x/*/a\" has a wildcard outside",
            "-sa A1 -da A2 -dd /in -w 0 /out/a|-w 0 is not valid",
            "-sa A1 -da A2 -dd /in -td defs.xml|-dd cannot be used with -td",
            "-sa A1 -da A2 -td defs.xml /out/a|sources cannot be given with -td ('/out/a')",
            "-sa A1 -da A2 -td defs.xml -t text|-t cannot be used with -td",
            "-sa A1 -da A2 -dd /in -presrc run.sh(a /out/a|-presrc \"run.sh(a\": the arguments' '(' is not closed",
            "-sa A1 -da A2 -dd /in -postdst p,1,2,x /out/a|-postdst \"p,1,2,x\": successRC \"x\" has the term",
            "-sa A1 -da A2 -dd /in -predst antscript:b.xml /out/a|-predst: Ant script calls are not supported",
            "-sa A1 -da A2 -dd /in -postsrc jcl:JOB1 /out/a|-postsrc: JCL calls are not supported",
    })
    void wrongCommandLinesAreOneLineNamingTheFlagAndNothingIsWrittenOrSent(String args, String message) {
        Path xml = dir.resolve("never.xml");
        List<String> all = new ArrayList<>(List.of(args.split(" ")));
        all.addAll(List.of("-gt", xml.toString()));
        Run r = create(all.toArray(String[]::new));
        assertThat(r.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(r.err()).startsWith("BFGCL0001E: ").contains(message).doesNotContain("Exception", "\tat ");
        assertThat(r.err().strip().lines()).hasSize(1);
        assertThat(xml).doesNotExist();

        // Without -gt the command line is refused before any configuration is read or queue touched.
        Run send = create(args.split(" "));
        assertThat(send.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(send.err()).contains(message).doesNotContain("configuration");
        assertThat(dir.resolve("data")).doesNotExist();
    }

    @Test
    void ibmFlagsNotSupportedYetAreRefusedByName() {
        for (String flag : CreateTransferCommand.UNSUPPORTED.keySet()) {
            Run r = create("-sa", "A1", "-da", "A2", "-dd", "/in", flag, "value", "/out/a");
            assertThat(r.exitCode()).as(flag).isEqualTo(ExitCodes.FAILED);
            assertThat(r.err()).as(flag).startsWith("BFGCL0001E: " + flag + " (").contains("not supported yet",
                    "nothing was sent");
        }
        // Also without a value, wherever they stand, and before any other complaint.
        for (String flag : List.of("-skeep", "-ds", "-dtr")) {
            assertThat(create(flag, "-sa", "A1").err()).as(flag).contains(flag + " (", "not supported yet");
        }
        assertThat(dir.resolve("data")).doesNotExist();
        // An unknown flag is still picocli's usage error.
        assertThat(create("-sa", "A1", "-bogus").err()).contains("Unknown option: '-bogus'");
    }

    @Test
    void fileToMessageFlagsGoIntoTheQueueElement() throws Exception {
        Path xml = dir.resolve("f2m.xml");
        Run r = create("-sa", "A1", "-da", "A2", "-dq", "PAY@QM2", "-dqp", "qdef", "-qmp", "true", "-dqdb", "x0D0A",
                "-dqdp", "prefix", "-qi", "-gt", xml.toString(), "/out/a.dat", "/out/*.csv");
        assertThat(r.exitCode()).as(r.err()).isZero();
        String written = Files.readString(xml);
        assertThat(written).contains("<queue persistent=\"qdef\" setMqProps=\"true\" delimiter=\"0D0A\""
                + " delimiterType=\"binary\" delimiterPosition=\"prefix\" includeDelimiterInMessage=\"true\">"
                + "PAY@QM2</queue>");
        var q = generated(xml).transferSet().items().get(1).destination().queue();
        assertThat(q.delimiterBytes()).containsExactly(0x0D, 0x0A);
        assertThat(create("-sa", "A1", "-da", "A2", "-dq", "Q", "-qs", "2K", "-gt", xml.toString(), "/out/a").exitCode())
                .isZero();
        assertThat(generated(xml).transferSet().items().get(0).destination().queue().messageLength()).isEqualTo(2048);

        // Wrong combinations name the flag, and nothing is sent.
        assertThat(create("-sa", "A1", "-da", "A2", "-dq", "Q", "-df", "/in/x", "/out/a").err())
                .contains("-df cannot be used with -dq");
        assertThat(create("-sa", "A1", "-da", "A2", "-qs", "1K", "/out/a").err()).contains("need a destination queue");
        assertThat(create("-sa", "A1", "-da", "A2", "-dq", "Q", "-qs", "1Q", "/out/a").err()).contains("-qs 1Q");
        assertThat(create("-sa", "A1", "-da", "A2", "-dq", "Q", "-dqp", "maybe", "/out/a").err())
                .contains("persistent=\"maybe\"");
        assertThat(create("-sa", "A1", "-da", "A2", "-dq", "Q", "-qi", "/out/a").err()).contains("add -dqdt or -dqdb");
        assertThat(create("-sa", "A1", "-da", "A2", "-dq", "Q", "-dqdt", "(", "/out/a").err())
                .contains("regular expression");
        assertThat(dir.resolve("data")).doesNotExist();
    }

    @Test
    void messageToFileFlagsGoIntoTheSourceQueueElement() throws Exception {
        Path xml = dir.resolve("m2f.xml");
        Run r = create("-sa", "A1", "-da", "A2", "-df", "/in/orders.txt", "-sqgi", "-sqwt", "30", "-sqdt", "\\n",
                "-sqdp", "prefix", "-gt", xml.toString(), "-sq", "ORDERS@QM1");
        assertThat(r.exitCode()).as(r.err()).isZero();
        String written = Files.readString(xml);
        assertThat(written).contains("<source type=\"queue\" disposition=\"leave\"><queue useGroups=\"true\""
                + " waitTime=\"30\" delimiter=\"\\n\" delimiterType=\"text\" delimiterPosition=\"prefix\">ORDERS@QM1"
                + "</queue></source>");
        var item = generated(xml).transferSet().items().get(0);
        assertThat(item.source().queue().delimiterBytes(java.nio.charset.StandardCharsets.UTF_8))
                .containsExactly('\n');
        assertThat(item.destination().path()).isEqualTo("/in/orders.txt");
        assertThat(create("-sa", "A1", "-da", "A2", "-df", "/in/o.bin", "-sqdb", "x0D0A", "-gt", xml.toString(),
                "-sq", "Q").exitCode()).isZero();
        assertThat(generated(xml).transferSet().items().get(0).source().queue().delimiterBytes(
                java.nio.charset.StandardCharsets.UTF_8)).containsExactly(0x0D, 0x0A);

        // Wrong combinations name the flag, and nothing is sent.
        assertThat(create("-sa", "A1", "-da", "A2", "-df", "/in/x", "-sqgi", "Q").err()).contains("add -sq");
        assertThat(create("-sa", "A1", "-da", "A2", "-df", "/in/x", "-sqdt", "a", "-sqdb", "0A", "-sq", "Q").err())
                .contains("-sqdt and -sqdb cannot be used together");
        assertThat(create("-sa", "A1", "-da", "A2", "-df", "/in/x", "-sqdp", "prefix", "-sq", "Q").err())
                .contains("add -sqdt or -sqdb");
        assertThat(create("-sa", "A1", "-da", "A2", "-df", "/in/x", "-sqdp", "middle", "-sqdt", "a", "-sq", "Q")
                .err()).contains("-sqdp", "delimiterPosition");
        assertThat(create("-sa", "A1", "-da", "A2", "-df", "/in/x", "-sqdb", "zz", "-sq", "Q").err())
                .contains("-sqdb", "not hex bytes");
        assertThat(create("-sa", "A1", "-da", "A2", "-df", "/in/x", "-sqwt", "soon", "-sq", "Q").err())
                .contains("-sqwt soon is not valid");
        assertThat(create("-sa", "A1", "-da", "A2", "-dd", "/in", "-sq", "Q").err())
                .contains("-dd cannot be used with -sq");
        assertThat(create("-sa", "A1", "-da", "A2", "-dq", "OUT", "-sq", "Q").err()).contains("result 64");
        assertThat(create("-sa", "A1", "-da", "A2", "-sq", "Q").err()).contains("-df FILE");
        assertThat(create("-sa", "A1", "-da", "A2", "-df", "/in/x", "-sq", "Q1", "Q2").err())
                .contains("-sq reads one queue");
        Run bad = create("-sa", "A1", "-da", "A2", "-df", "/in/x", "-sqdt", "\\q", "-sq", "Q");
        assertThat(bad.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(bad.err()).contains("-sqdt", "not a Java escape");
        assertThat(dir.resolve("data")).doesNotExist();
    }

    @Test
    void waitWithoutAValueBeforeTheSourcesStillTakesThemAsSources() {
        // A valid command line gets as far as the configuration (none here): 78, not a usage error.
        Run r = create("-sa", "A1", "-da", "A2", "-dd", "/in", "-w", "/out/a.txt", "/out/b.txt");
        assertThat(r.exitCode()).as(r.err()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(create("-sa", "A1", "-da", "A2", "-dd", "/in", "/out/a.txt", "-w").exitCode())
                .isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(create("-sa", "A1", "-da", "A2", "-dd", "/in", "-w", "600", "/out/a.txt").exitCode())
                .isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(create("-sa", "A1", "-da", "A2", "-dd", "/in", "-w", "-gt", "x.xml", "/out/a.txt").err())
                .contains("-w cannot be used with -gt");
    }

    @Test
    void aTransferDefinitionFileGivesTheItems() throws Exception {
        Path defs = dir.resolve("defs.xml");
        Files.writeString(defs, """
                <?xml version="1.0" encoding="UTF-8"?>
                <transferSpecifications xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
                    xsi:noNamespaceSchemaLocation="FileTransfer.xsd">
                  <!-- two groups, as IBM's example -->
                  <item checksumMethod="MD5" mode="text">
                    <source recursive="false" disposition="leave"><file>/out/summary.txt</file></source>
                    <destination type="file" exist="overwrite">
                      <file encoding="IBM-1047" EOL="CRLF">/in/SUMMARY.TXT</file>
                    </destination>
                  </item>
                  <item checksumMethod="none" mode="binary">
                    <source recursive="true" disposition="delete"><file>/out/reports</file></source>
                    <destination type="directory" exist="error"><file>/in/reports</file></destination>
                  </item>
                  <item checksumMethod="SHA-256">
                    <source><file>/out/ledger.bin</file></source>
                    <destination><file>/in/ledger.bin</file></destination>
                  </item>
                </transferSpecifications>
                """);
        Path xml = dir.resolve("from-defs.xml");
        Run r = create("-sa", "A1", "-da", "A2", "-dm", "QM2", "-td", defs.toString(), "-pr", "3", "-jn", "J1",
                "-gt", xml.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        List<TransferItem> items = List.of(
                new TransferItem(Mode.TEXT, ChecksumMethod.MD5, new ItemSource(false, Disposition.LEAVE,
                        "/out/summary.txt", null), new ItemDestination(DestinationType.FILE, ExistAction.OVERWRITE,
                        "/in/SUMMARY.TXT", "IBM-1047", LineEnding.CRLF)),
                new TransferItem(Mode.BINARY, ChecksumMethod.NONE, new ItemSource(true, Disposition.DELETE,
                        "/out/reports", null), new ItemDestination(DestinationType.DIRECTORY, ExistAction.ERROR,
                        "/in/reports", null, null)),
                new TransferItem(Mode.BINARY, ChecksumMethod.SHA_256, new ItemSource(false, Disposition.LEAVE,
                        "/out/ledger.bin", null), new ItemDestination(DestinationType.FILE, ExistAction.ERROR,
                        "/in/ledger.bin", null, null)));
        assertThat(generated(xml)).isEqualTo(request(new AgentRef("A1", null), new AgentRef("A2", "QM2"),
                new TransferSet(3, null, Map.of(), items), "J1"));
    }

    @Test
    void aBadTransferDefinitionFileIsNamedWithTheReason() throws Exception {
        Path xml = dir.resolve("never.xml");
        Path defs = dir.resolve("defs.xml");
        String[] args = {"-sa", "A1", "-da", "A2", "-td", defs.toString(), "-gt", xml.toString()};

        assertThat(create(args).err()).contains("BFGCL0003E", defs.toString(), "does not exist", "nothing was sent");

        Files.writeString(defs, "<transferSpecifications><item><source><file>/a</file></source></item>"
                + "</transferSpecifications>");
        Run missing = create(args);
        assertThat(missing.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(missing.err()).contains(defs.toString(), "is not valid", "destination");

        Files.writeString(defs, "<request version=\"6.00\"/>");
        assertThat(create(args).err()).contains("root element <request>", "mft transfer submit");

        Files.writeString(defs, "<transferSpecifications><item>");
        assertThat(create(args).err()).contains("is not well-formed XML");

        Files.writeString(defs, "<?xml version=\"1.0\"?>\n<!DOCTYPE t [<!ENTITY x \"boom\">]>\n"
                + "<transferSpecifications><item>&x;</item></transferSpecifications>");
        assertThat(create(args).err()).contains(defs.toString(), "DOCTYPE");

        Files.writeString(defs, "<transferSpecifications>\n<item>\n<source type=\"dataset\"><file>Q</file></source>"
                + "<destination><file>/a</file></destination></item></transferSpecifications>");
        assertThat(create(args).err()).contains("not supported yet", "line 3");
        assertThat(xml).doesNotExist();
    }
}
