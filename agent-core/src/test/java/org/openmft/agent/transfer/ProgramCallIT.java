package org.openmft.agent.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.AgentListener.Role;
import org.openmft.agent.calls.CallResult.Outcome;
import org.openmft.agent.config.ConfigurationException;
import org.openmft.xml.CallSpecs;
import org.openmft.xml.DestinationType;
import org.openmft.xml.ProgramCall;
import org.openmft.xml.ProgramCalls;
import org.openmft.xml.Reply;
import org.openmft.xml.TransferRequest;
import org.openmft.xml.TransferSet;

/**
 * Program calls between two in-JVM agents on one queue manager, with real shell scripts in a
 * {@code commandPath} directory: IBM's order and conditions, arguments passed without a shell,
 * retries and success codes, output for the log, a failing pre-call (40, nothing moved), a failed
 * post-destination call (no post-source call), calls outside the path refused with nothing run; and
 * the sample transfer exit (samples/exits), which cancels a transfer, and exits that cannot be loaded.
 */
class ProgramCallIT {
    @TempDir
    Path dir;
    private Path cmds;
    private Path marks;

    @BeforeEach
    void scripts() throws Exception {
        CallScripts scripts = new CallScripts(dir);
        cmds = scripts.cmds;
        marks = scripts.marks;
        CallScripts.script(cmds.resolve("four.sh"), "echo four; exit 4");
        Files.createSymbolicLink(cmds.resolve("link.sh"), dir.resolve("outside/evil.sh"));
    }

    private TransferRequest request(String out, ProgramCalls calls) {
        TransferRequest r = TransferHarness.request("SRC", "DST", 0, TransferHarness.item(dir.resolve("in.txt").toString(),
                dir.resolve("out").resolve(out).toString(), DestinationType.FILE));
        TransferSet set = r.transferSet();
        return new TransferRequest(r.version(), r.originator(), r.sourceAgent(), r.destinationAgent(), r.reply(),
                new TransferSet(set.priority(), set.recoveryTimeoutSeconds(), set.metadata(), calls, set.items()),
                r.jobName());
    }

    private static ProgramCall call(String spec) {
        return CallSpecs.parse("-test", spec);
    }

    private List<TransferHarness.CallEvent> callsOf(TransferHarness h, String id) {
        return h.calls.stream().filter(c -> c.transferId().equals(id)).toList();
    }

    /**
     * The source agent ends while a call runs (an immediate stop, in this JVM: it leaves the agent's
     * durable state as {@code kill -9} would, a journaled start and no end; only the program, which
     * the JVM ends here and a killed agent would leave running, differs) and starts again: the call
     * is not run again, and its outcome is an error that says it is not known. A pre-source call's
     * then fails the transfer (40, nothing moved); a post-source call's leaves the transfer's result
     * as its data made it (0), with the call's outcome in the supplement and the log.
     */
    @Test
    void aCallRunningWhenTheAgentEndsIsNotRunAgainAndItsOutcomeIsNotKnown() throws Exception {
        try (TransferHarness h = new TransferHarness(dir, false)) {
            Map<String, String> withPath = Map.of("commandPath", cmds.toString());
            h.agent("SRC", withPath);
            h.agent("DST", withPath);

            // 1. During the post-source call: every item has ended; the restarted source completes.
            try (TransferHarness.Submission s = h.submit("SRC", request("p.txt", new ProgramCalls(null,
                    call("hold.sh(post)"), null, null)))) {
                Reply fin = restartedWhileRunning(h, s, "post", withPath);
                assertThat(fin.resultCode()).as("%s", fin.supplements()).isZero();
                assertThat(String.join(" ", fin.supplements())).contains("postSourceCall", "hold.sh", "not known");
                assertThat(dir.resolve("out/p.txt")).hasContent("payload");
                assertThat(Files.readAllLines(marks.resolve("post.count"))).as("runs of the post-source call")
                        .hasSize(1);
                TransferHarness.CallEvent last = callsOf(h, s.id()).get(callsOf(h, s.id()).size() - 1);
                assertThat(last.phase()).isEqualTo("postSourceCall");
                assertThat(last.result().outcome()).isEqualTo(Outcome.ERROR);
                assertThat(last.result().error()).contains("not known");
            }

            // 2. During the pre-source call (the transfer not started yet: it is queued again): 40.
            try (TransferHarness.Submission s = h.submit("SRC", request("q.txt", new ProgramCalls(
                    call("hold.sh(pre)"), null, null, null)))) {
                Reply fin = restartedWhileRunning(h, s, "pre", withPath);
                assertThat(fin.resultCode()).as("%s", fin.supplements()).isEqualTo(40);
                assertThat(String.join(" ", fin.supplements())).contains("preSourceCall", "not known");
                assertThat(Files.readAllLines(marks.resolve("pre.count"))).as("runs of the pre-source call").hasSize(1);
                assertThat(dir.resolve("out/q.txt")).doesNotExist();
            }
            TransferHarness.awaitNoTransferState("the source forgot both transfers", dir.resolve("state-SRC"));
        }
    }

    /** Stops SRC while {@code hold.sh(name)} runs, starts it again, and waits for the transfer's end. */
    private Reply restartedWhileRunning(TransferHarness h, TransferHarness.Submission s, String name,
            Map<String, String> properties) throws Exception {
        TransferHarness.await(name + " runs", 30, () -> Files.exists(marks.resolve(name + ".running")));
        h.stopImmediately("SRC");
        assertThat(h.sourceOutcomes).as("an immediate stop suspends the transfer, it does not end it")
                .noneMatch(o -> o.transferId().equals(s.id()));
        h.agent("SRC", properties);
        return s.awaitFinal(60);
    }

    @Test
    void callsRunInIbmsOrderOnTheirAgentsWithRetriesSuccessCodesAndOutput() throws Exception {
        try (TransferHarness h = new TransferHarness(dir, false)) {
            Map<String, String> withPath = Map.of("commandPath", cmds.toString());
            h.agent("SRC", withPath);
            h.agent("DST", withPath);

            // 1. All four calls: arguments reach the program as written (no shell), retries, success codes.
            Reply ok = h.transfer(request("a.txt", new ProgramCalls(
                    call("record.sh(presrc,hello world,$\\(touch " + marks + "/injected\\);x)"),
                    call("record.sh(postsrc)"),
                    call("flaky.sh,2,0"),
                    call("four.sh,0,0,0|4"))), 60);
            assertThat(ok.resultCode()).as("%s %s", ok.supplements(), h.events).isZero();
            assertThat(dir.resolve("out/a.txt")).hasContent("payload");
            assertThat(Files.readAllLines(marks.resolve("presrc")))
                    .containsExactly("hello world", "$(touch " + marks + "/injected);x");
            assertThat(marks.resolve("injected")).doesNotExist();
            assertThat(marks.resolve("postsrc")).exists();
            String id = h.sourceOutcomes.get(0).transferId();
            TransferHarness.await("the destination's own call events", 10, () -> callsOf(h, id).size() == 6);
            List<TransferHarness.CallEvent> atSource = callsOf(h, id).stream().filter(c -> c.role() == Role.SOURCE)
                    .toList();
            assertThat(atSource).extracting(TransferHarness.CallEvent::phase).containsExactly("preSourceCall",
                    "preDestinationCall", "postDestinationCall", "postSourceCall");
            assertThat(callsOf(h, id).stream().filter(c -> c.role() == Role.DESTINATION))
                    .extracting(TransferHarness.CallEvent::phase)
                    .containsExactly("preDestinationCall", "postDestinationCall");
            assertThat(atSource).allSatisfy(c -> assertThat(c.result().outcome()).isEqualTo(Outcome.SUCCESS));
            assertThat(atSource.get(0).result().stdout()).containsExactly("out:hello world $(touch " + marks
                    + "/injected);x");
            assertThat(atSource.get(0).result().stderr()).containsExactly("err line");
            assertThat(atSource.get(1).result().retries()).isEqualTo(1);
            assertThat(atSource.get(2).result().returnCode()).isEqualTo(4);
            assertThat(atSource.get(2).result().stdout()).containsExactly("four");

            // 2. A failing pre-destination call: 40, no data moved, no post calls.
            Reply failed = h.transfer(request("b.txt", new ProgramCalls(null, call("record.sh(postsrc2)"),
                    call("fail.sh"), call("record.sh(postdst2)"))), 60);
            assertThat(failed.resultCode()).isEqualTo(40);
            assertThat(String.join(" ", failed.supplements())).contains("preDestinationCall", "fail.sh", "failure");
            assertThat(dir.resolve("out/b.txt")).doesNotExist();
            assertThat(dir.resolve("out/b.txt.part")).doesNotExist();
            assertThat(marks.resolve("postsrc2")).doesNotExist();
            assertThat(marks.resolve("postdst2")).doesNotExist();

            // 3. A failed post-destination call: the data arrived, the post-source call is not run.
            Reply post = h.transfer(request("c.txt", new ProgramCalls(null, call("record.sh(postsrc3)"), null,
                    call("fail.sh"))), 60);
            assertThat(post.resultCode()).isZero();
            assertThat(dir.resolve("out/c.txt")).hasContent("payload");
            assertThat(marks.resolve("postsrc3")).doesNotExist();

            // 4. Outside the commandPath: an absolute path elsewhere, a symbolic link leading out, a
            //    path with "..": refused (BFGCR0003E), nothing run, nothing moved.
            for (String name : List.of(dir.resolve("outside/evil.sh").toString(), "link.sh", "../outside/evil.sh")) {
                Reply refused = h.transfer(request("d.txt", new ProgramCalls(ProgramCall.executable(name, List.of()),
                        null, null, null)), 60);
                assertThat(refused.resultCode()).as(name).isEqualTo(40);
                assertThat(String.join(" ", refused.supplements())).as(name).contains("BFGCR0003E", name);
            }
            assertThat(marks.resolve("evil")).doesNotExist();
            assertThat(dir.resolve("out/d.txt")).doesNotExist();

            // 5. The sample exit (samples/exits), compiled here, cancels a transfer of a temporary file (21).
            Path exitClasses = compileSampleExit();
            String exit = "org.openmft.samples.exits.RefuseTemporaryFilesExit";
            h.agent("GATE", Map.of("exitClassPath", exitClasses.toString(), "sourceTransferStartExitClasses", exit,
                    "sourceTransferEndExitClasses", exit));
            Files.writeString(dir.resolve("in.tmp"), "half");
            TransferRequest tmp = TransferHarness.request("GATE", "DST", 0, TransferHarness.item(
                    dir.resolve("in.tmp").toString(), dir.resolve("out/e.tmp").toString(), DestinationType.FILE));
            Reply gated = h.transfer(tmp, 60);
            assertThat(gated.resultCode()).isEqualTo(21);
            assertThat(String.join(" ", gated.supplements())).contains("cancelled by a user exit", "in.tmp",
                    "still being written");
            assertThat(dir.resolve("out/e.tmp")).doesNotExist();
            assertThat(h.transfer(TransferHarness.request("GATE", "DST", 0, TransferHarness.item(
                    dir.resolve("in.txt").toString(), dir.resolve("out/f.txt").toString(), DestinationType.FILE)), 60)
                    .resultCode()).isZero();
            assertThat(dir.resolve("out/f.txt")).hasContent("payload");

            // A destination start exit refuses the transfer before any data: 21 at the source.
            h.agent("CLOSED", Map.of("exitClassPath", exitClasses.toString(), "destinationTransferStartExitClasses",
                    "ClosedExit"));
            Reply closed = h.transfer(TransferHarness.request("SRC", "CLOSED", 0, TransferHarness.item(
                    dir.resolve("in.txt").toString(), dir.resolve("out/g.txt").toString(), DestinationType.FILE)), 60);
            assertThat(closed.resultCode()).isEqualTo(21);
            assertThat(String.join(" ", closed.supplements())).contains("refused by a user exit of destination agent"
                    + " CLOSED: closed for SRC");
            assertThat(dir.resolve("out/g.txt")).doesNotExist();

            // 6. An exit class that cannot be loaded stops the agent at its start, naming key and class.
            assertThatThrownBy(() -> h.agent("BAD", Map.of("destinationTransferStartExitClasses",
                    "org.example.Missing"))).isInstanceOf(ConfigurationException.class)
                    .hasMessageContaining("destinationTransferStartExitClasses", "org.example.Missing", "not found");
            assertThatThrownBy(() -> h.agent("BAD2", Map.of("exitClassPath", exitClasses.toString(),
                    "destinationTransferStartExitClasses", exit))).isInstanceOf(ConfigurationException.class)
                    .hasMessageContaining("does not implement org.openmft.agent.exits.DestinationTransferStartExit");
        }
    }

    /** Compiles samples/exits with the JDK's compiler against this module's classes. */
    private Path compileSampleExit() throws Exception {
        Path source = Path.of("..", "samples", "exits", "src", "org", "openmft", "samples", "exits",
                "RefuseTemporaryFilesExit.java").toAbsolutePath().normalize();
        Path out = Files.createDirectories(dir.resolve("exit-classes"));
        // And a destination start exit that refuses every transfer.
        Path closed = dir.resolve("exit-src/ClosedExit.java");
        Files.createDirectories(closed.getParent());
        Files.writeString(closed, "public class ClosedExit implements"
                + " org.openmft.agent.exits.DestinationTransferStartExit {\n"
                + "  public org.openmft.agent.exits.TransferExitResult onDestinationTransferStart("
                + "org.openmft.agent.exits.TransferExitContext t) {\n"
                + "    return org.openmft.agent.exits.TransferExitResult.cancel(\"closed for \" + t.sourceAgent());\n"
                + "  }\n}\n");
        javax.tools.JavaCompiler javac = javax.tools.ToolProvider.getSystemJavaCompiler();
        int rc = javac.run(null, null, null, "-classpath", System.getProperty("java.class.path"), "-d", out.toString(),
                source.toString(), closed.toString());
        assertThat(rc).as("javac of %s", source).isZero();
        return out;
    }
}
