package org.openmft.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.openmft.cli.MftCommandLineTest.run;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.openmft.client.internal.CommandChannel;
import org.openmft.cli.MftCommandLineTest.Run;
import org.openmft.xml.ChecksumMethod;
import org.openmft.xml.DestinationType;
import org.openmft.xml.Disposition;
import org.openmft.xml.ExistAction;
import org.openmft.xml.ItemDestination;
import org.openmft.xml.ItemSource;
import org.openmft.xml.Mode;
import org.openmft.xml.QueueSource;
import org.openmft.xml.TemplateParser;
import org.openmft.xml.TemplateWriter;
import org.openmft.xml.TransferItem;
import org.openmft.xml.TransferRequest;
import org.openmft.xml.TransferTemplate;

import picocli.CommandLine;

/**
 * The template commands' command lines and how fteCreateTransfer's flags are laid over a template
 * (without a queue manager: refusals come before anything is connected to).
 */
class TemplateCommandLineTest {
    @TempDir
    Path dir;

    private Run mft(String... args) {
        List<String> all = new java.util.ArrayList<>(List.of(args));
        all.add(2, "--data-dir");
        all.add(3, dir.resolve("data").toString());
        return run(all.toArray(String[]::new));
    }

    private static final TransferTemplate STORED = new TemplateBuilder().build();

    /** A template of two items with settings other than IBM's defaults. */
    private static final class TemplateBuilder {
        TransferTemplate build() {
            TransferItem a = new TransferItem(Mode.BINARY, ChecksumMethod.SHA_256,
                    new ItemSource(false, Disposition.DELETE, "/out/a.csv", null),
                    new ItemDestination(DestinationType.DIRECTORY, ExistAction.OVERWRITE, "/in", null, null));
            TransferItem b = new TransferItem(Mode.BINARY, ChecksumMethod.SHA_256,
                    new ItemSource(false, Disposition.DELETE, "/out/b.csv", null),
                    new ItemDestination(DestinationType.DIRECTORY, ExistAction.OVERWRITE, "/in", null, null));
            return new TransferTemplate("id-1", "NIGHTLY", "SRC", "QM1", "DST", "QM1", List.of(a, b), 3, 60L,
                    Map.of("owner", "ops"), "JOB1");
        }
    }

    /** Parses fteCreateTransfer flags as the command would and lays them over {@link #STORED}. */
    private static TransferRequest submit(String... args) throws CommandFailure {
        CreateTransferCommand flags = new CreateTransferCommand();
        new CommandLine(flags).parseArgs(args);
        return TemplateFlags.request(flags, STORED, CommandChannel.originator());
    }

    @Test
    void withoutFlagsTheTemplateIsTheRequest() throws Exception {
        TransferRequest r = submit("--template", "NIGHTLY");
        assertThat(r.sourceAgent().agent()).isEqualTo("SRC");
        assertThat(r.sourceAgent().qmgr()).isEqualTo("QM1");
        assertThat(r.destinationAgent().agent()).isEqualTo("DST");
        assertThat(r.transferSet().items()).isEqualTo(STORED.items());
        assertThat(r.transferSet().priority()).isEqualTo(3);
        assertThat(r.transferSet().recoveryTimeoutSeconds()).isEqualTo(60L);
        assertThat(r.transferSet().metadata()).isEqualTo(Map.of("owner", "ops"));
        assertThat(r.jobName()).isEqualTo("JOB1");
    }

    @Test
    void flagsGivenOverrideTheTemplate() throws Exception {
        TransferRequest r = submit("--template", "NIGHTLY", "-sa", "OTHER", "-de", "error", "-dd", "/elsewhere",
                "-pr", "7", "-md", "owner=me,batch=4", "-jn", "J2");
        assertThat(r.sourceAgent().agent()).isEqualTo("OTHER");
        assertThat(r.sourceAgent().qmgr()).as("the template's QM belongs to its agent").isNull();
        assertThat(r.destinationAgent().qmgr()).isEqualTo("QM1");
        assertThat(r.transferSet().items()).hasSize(2).allSatisfy(i -> {
            assertThat(i.destination().exist()).isEqualTo(ExistAction.ERROR);
            assertThat(i.destination().path()).isEqualTo("/elsewhere");
            assertThat(i.source().disposition()).as("not overridden").isEqualTo(Disposition.DELETE);
            assertThat(i.checksumMethod()).isEqualTo(ChecksumMethod.SHA_256);
        });
        assertThat(r.transferSet().priority()).isEqualTo(7);
        assertThat(r.transferSet().metadata()).containsExactlyInAnyOrderEntriesOf(Map.of("owner", "me", "batch", "4"));
        assertThat(r.jobName()).isEqualTo("J2");
    }

    @Test
    void sourcesReplaceTheItemsKeepingTheFirstItemsSettings() throws Exception {
        TransferRequest r = submit("--template", "NIGHTLY", "/out/c.csv");
        assertThat(r.transferSet().items()).singleElement().satisfies(i -> {
            assertThat(i.source().path()).isEqualTo("/out/c.csv");
            assertThat(i.source().disposition()).isEqualTo(Disposition.DELETE);
            assertThat(i.destination().path()).isEqualTo("/in");
        });
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "-df /one/file | -df names one destination file, but template 'NIGHTLY' has 2 items",
        "-pr 12 | -pr 12 is out of range",
        "-sce UTF-8 | -sce applies to text transfers only",
        "-dd /a -df /b | -df and -dd cannot be used together"})
    void wrongOverridesAreRefusedNamingTheFlag(String flags, String message) {
        List<String> args = new java.util.ArrayList<>(List.of("--template", "NIGHTLY"));
        args.addAll(List.of(flags.split(" ")));
        assertThatThrownBy(() -> submit(args.toArray(String[]::new))).isInstanceOf(CommandFailure.class)
                .hasMessageContaining(message);
    }

    /** fteCreateTemplate's flags as its command parses them, made into a template, written and read back. */
    private static TransferTemplate created(String... args) throws Exception {
        TemplateCommands.Create create = new TemplateCommands.Create();
        CommandLine cl = new CommandLine(create);
        cl.parseArgs(args);
        TransferTemplate t = TemplateFlags.creation(create.flags, cl.getParseResult(), create.name);
        return new TemplateParser().parse(new TemplateWriter().write(t));
    }

    @Test
    void aTemplateHoldsAQueueSourceAsFteCreateTransferWritesIt() throws Exception {
        TransferTemplate t = created("-tn", "ORDERS", "-sa", "SRC", "-da", "DST", "-df", "/in/orders.txt", "-de",
                "overwrite", "-sqgi", "-sqwt", "30", "-sqdt", "\\n", "-sqdp", "prefix", "-sq", "ORDERS@QM1");
        CreateTransferCommand direct = new CreateTransferCommand();
        new CommandLine(direct).parseArgs("-sa", "SRC", "-da", "DST", "-df", "/in/orders.txt", "-de", "overwrite",
                "-sqgi", "-sqwt", "30", "-sqdt", "\\n", "-sqdp", "prefix", "-sq", "ORDERS@QM1");
        assertThat(t.items()).as("the same item as fteCreateTransfer's").isEqualTo(
                direct.request(CommandChannel.originator()).transferSet().items());
        QueueSource q = t.items().get(0).source().queue();
        assertThat(q.spec()).isEqualTo("ORDERS@QM1");
        assertThat(q.useGroups()).isTrue();
        assertThat(q.waitTimeSeconds()).isEqualTo(30);
        assertThat(q.delimiterPosition()).isEqualTo("prefix");

        TransferRequest kept = submitOver(t, "--template", "ORDERS", "-de", "error");
        assertThat(kept.transferSet().items()).singleElement().satisfies(i -> {
            assertThat(i.source().queue()).as("still a queue").isEqualTo(q);
            assertThat(i.destination().exist()).isEqualTo(ExistAction.ERROR);
        });
        TransferRequest replaced = submitOver(t, "--template", "ORDERS", "-df", "/in/b.txt", "-sqwt", "5", "-sq",
                "BATCHES");
        assertThat(replaced.transferSet().items()).singleElement().satisfies(i -> {
            assertThat(i.source().queue().spec()).isEqualTo("BATCHES");
            assertThat(i.source().queue().waitTimeSeconds()).isEqualTo(5);
            assertThat(i.source().queue().useGroups()).as("the -sq flags describe the whole item").isFalse();
        });
        assertThatThrownBy(() -> submitOver(t, "--template", "ORDERS", "-r")).hasMessageContaining(
                "-r cannot be used with the template's source queue 'ORDERS@QM1'");
    }

    @Test
    void aTemplateHoldsADestinationQueueAsFteCreateTransferWritesIt() throws Exception {
        TransferTemplate t = created("-tn", "PAYMENTS", "-sa", "SRC", "-da", "DST", "-dq", "PAYMENTS@QM2", "-qs", "64K",
                "-qmp", "true", "-dqp", "false", "/out/batch.dat");
        CreateTransferCommand direct = new CreateTransferCommand();
        new CommandLine(direct).parseArgs("-sa", "SRC", "-da", "DST", "-dq", "PAYMENTS@QM2", "-qs", "64K", "-qmp",
                "true", "-dqp", "false", "/out/batch.dat");
        assertThat(t.items()).as("the same item as fteCreateTransfer's").isEqualTo(
                direct.request(CommandChannel.originator()).transferSet().items());
        var q = t.items().get(0).destination().queue();
        assertThat(q.spec()).isEqualTo("PAYMENTS@QM2");

        TransferRequest kept = submitOver(t, "--template", "PAYMENTS", "/out/other.dat");
        assertThat(kept.transferSet().items()).singleElement().satisfies(i -> {
            assertThat(i.source().path()).isEqualTo("/out/other.dat");
            assertThat(i.destination().queue()).as("still the template's queue").isEqualTo(q);
        });
        TransferRequest toFile = submitOver(t, "--template", "PAYMENTS", "-df", "/in/batch.dat");
        assertThat(toFile.transferSet().items()).singleElement().satisfies(i -> {
            assertThat(i.destination().queue()).as("-df replaces the queue").isNull();
            assertThat(i.destination().path()).isEqualTo("/in/batch.dat");
        });
        TransferRequest other = submitOver(t, "--template", "PAYMENTS", "-dq", "LINES", "-dqdt", "\\n");
        assertThat(other.transferSet().items()).singleElement().satisfies(i -> assertThat(
                i.destination().queue().spec()).isEqualTo("LINES"));
        assertThatThrownBy(() -> submitOver(t, "--template", "PAYMENTS", "-dq", "X", "-dd", "/in"))
                .hasMessageContaining("-dd cannot be used with -dq");
        assertThatThrownBy(() -> created("-tn", "T", "-dq", "Q")).hasMessageContaining(
                "a destination (-dq) needs sources");
    }

    private static TransferRequest submitOver(TransferTemplate t, String... args) throws CommandFailure {
        CreateTransferCommand flags = new CreateTransferCommand();
        new CommandLine(flags).parseArgs(args);
        return TemplateFlags.request(flags, t, CommandChannel.originator());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "-sqgi -df /in/x Q | -sqgi, -sqwt, -sqdt, -sqdb and -sqdp apply to a queue source: add -sq",
        "-sq -dd /in Q | -dd cannot be used with -sq",
        "-sq Q | a destination file is required with -sq",
        "-sq -df /in/x -sqdt a -sqdb 0A Q | -sqdt and -sqdb cannot be used together",
        "-sq -df /in/x -sqwt soon Q | -sqwt soon is not valid"})
    void aTemplatesQueueSourceIsCheckedAsFteCreateTransferChecksIt(String flags, String message) {
        List<String> args = new java.util.ArrayList<>(List.of("-tn", "T", "-sa", "S", "-da", "D"));
        args.addAll(List.of(flags.split(" ")));
        assertThatThrownBy(() -> created(args.toArray(String[]::new))).isInstanceOf(CommandFailure.class)
                .hasMessageContaining(message);
    }

    @Test
    void aTemplateWithoutAgentsNeedsThemFromTheFlags() {
        TransferTemplate bare = new TransferTemplate("id-2", "BARE", null, null, null, null, STORED.items(), 0, null,
                Map.of(), null);
        CreateTransferCommand flags = new CreateTransferCommand();
        new CommandLine(flags).parseArgs("--template", "BARE", "-da", "DST");
        assertThatThrownBy(() -> TemplateFlags.request(flags, bare, CommandChannel.originator()))
                .hasMessageContaining("-sa (the source agent, which template 'BARE' does not name) is required");
    }

    @Test
    void createTakesFteCreateTransfersFlagsButNotWhatOnlySendingMeans() {
        Run help = mft("template", "create", "--help");
        assertThat(help.exitCode()).isZero();
        assertThat(help.out()).contains("-tn=NAME", "-sa=AGENT", "-dd=DIR", "-de=error|overwrite", "-f ", "SOURCE",
                "Examples");
        assertThat(help.out()).doesNotContain("-gt=", "--template=", "-w[=", "(required; any case)");
        Run gt = mft("template", "create", "-tn", "T", "-gt", "x.xml", "-sa", "S", "-da", "D", "-dd", "/in", "/a");
        assertThat(gt.exitCode()).isEqualTo(1);
        assertThat(gt.err()).contains("-gt");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "template create -sa S | Missing required option: '-tn=NAME'",
        "template create -tn T -dd /in | a destination (-dd) needs sources",
        "template create -tn T* -sa S | -tn: template name \"T*\" must not contain * or ?",
        "template create -tn T -tr file=exist,/a | -tr cannot be used in a template yet",
        "template list -x | -x needs -o DIR",
        "template list -o out | -o applies to -x only",
        "template delete | Missing required parameter",
        "transfer create --template T -tr file=exist,/a | -tr cannot be used with --template yet"})
    void wrongCommandLinesAreRefusedBeforeConnecting(String command, String message) {
        Run r = mft(command.split(" "));
        assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
        assertThat(r.err()).contains(message);
    }

    @Test
    void createWithoutCoordinationSaysSo() {
        Run r = mft("template", "create", "-tn", "T", "-sa", "S", "-da", "D", "-dd", "/in", "/out/a");
        assertThat(r.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
    }
}
