package org.openmft.cli.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import jakarta.jms.Connection;
import jakarta.jms.Session;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.CoordinationConfig;
import org.openmft.agent.config.DataDirectory;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.cli.Mft;
import org.openmft.coordination.publish.CoordinationPublisher;
import org.openmft.coordination.publish.Publication;
import org.openmft.coordination.template.TemplateStore;
import org.openmft.xml.ExistAction;
import org.openmft.xml.TemplateParser;
import org.openmft.xml.TransferTemplate;

/**
 * Transfer templates on one embedded queue manager QM1 (coordination, commands, and two agents in
 * its process): created, replaced with -f, listed (-v, -x), a malformed retained template skipped
 * with a warning, a transfer sent from a template with a flag overriding it, deleted. The queue
 * manager runs in its own process as the launcher starts it; every command runs in this JVM
 * ({@link Mft#run}), which is quicker than a JVM per command and goes through the same code.
 */
class TemplateIT {
    @TempDir
    static Path data;
    static Distribution mft;
    static Path home;

    @BeforeAll
    static void queueManagerAndAgents() {
        home = data.resolve("mft");
        mft = new Distribution(home).jvmOptions(Distribution.QUICK_START.replace("-Xmx512m", "-Xmx256m"));
        // Set-up in this JVM too, but for the queue manager's own process: each launcher is a JVM start.
        run("qmgr", "create", "QM1", "--port", String.valueOf(Distribution.freePort())).expect(0);
        run("setup", "coordination", "-coordinationQMgr", "QM1").expect(0);
        run("setup", "commands", "-connectionQMgr", "QM1").expect(0);
        for (String agent : List.of("AGENT1", "AGENT2")) {
            run("agent", "create", "-agentName", agent, "-agentQMgr", "QM1", "--sandbox-dir", data.toString())
                    .expect(0);
        }
        // AGENT2 puts files on queues (file to message), as an administrator would set it up.
        try {
            Files.writeString(DataDirectory.of(home).agentProperties("QM1", "AGENT2"), "enableQueueInputOutput=true\n",
                    java.nio.file.StandardOpenOption.APPEND);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        mft.mft("qmgr", "start", "QM1").expect(0);
        // AGENT2's user may put on application queues (three command words: the data directory after them).
        assertThat(Mft.run(new String[] {"qmgr", "user", "grant", "--data-dir", home.toString(), "QM1", "AGENT2",
                "requester"})).isZero();
        run("agent", "start", "AGENT1").expect(0);
        run("agent", "start", "AGENT2").expect(0);
    }

    @AfterAll
    static void stopEverything() throws Exception {
        if (mft != null) {
            mft.close();
        }
    }

    /** Runs an mft command line in this JVM, its output and errors captured. */
    static synchronized Distribution.Result run(String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream to = new PrintStream(captured, true, StandardCharsets.UTF_8);
        System.setOut(to);
        System.setErr(to);
        try {
            List<String> all = new java.util.ArrayList<>(List.of(args));
            all.addAll(2, List.of("--data-dir", home.toString()));
            int code = Mft.run(all.toArray(String[]::new));
            to.flush();
            return new Distribution.Result(code, captured.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }

    @Test
    void createListSubmitReplaceAndDelete() throws Exception {
        Path in = Files.createDirectories(data.resolve("in"));
        Path out = Files.createDirectories(data.resolve("out"));
        Files.writeString(in.resolve("a.txt"), "alpha from a template\n");

        assertThat(run("template", "create", "-tn", "NIGHTLY", "-sa", "AGENT1", "-sm", "QM1", "-da", "AGENT2",
                "-dm", "QM1", "-dd", out.toString(), "-jn", "J1", in.resolve("a.txt").toString()).expect(0).output())
                .contains("Template NIGHTLY created");
        assertThat(run("template", "create", "-tn", "NIGHTLY", "-sa", "AGENT1", "-da", "AGENT2").expect(1).output())
                .contains("a template named NIGHTLY already exists", "-f");
        assertThat(run("template", "create", "-tn", "NIGHTLY", "-f", "-sa", "AGENT1", "-sm", "QM1", "-da", "AGENT2",
                "-dm", "QM1", "-dd", out.toString(), "-de", "overwrite", "-pr", "5", "-jn", "J1",
                in.resolve("a.txt").toString()).expect(0).output()).contains("Template NIGHTLY replaced");
        // A retained publication under Templates that is not a template: skipped, named, nothing else hidden.
        publishRaw("bad-one", "<transferTemplate version=\"4.00\" id=\"bad-one\"><name>BAD</name><unknown/>"
                + "</transferTemplate>");

        Distribution.Result names = run("template", "list").expect(0);
        assertThat(names.output()).contains("NIGHTLY", "Warning: skipped the retained publication"
                + " SYSTEM.FTE/Templates/bad-one: not a valid template").doesNotContain("BAD\n");
        assertThat(run("template", "list", "-v", "night*").expect(0).output())
                .containsPattern("NIGHTLY\\s+AGENT1@QM1\\s+AGENT2@QM1\\s+\\S*a.txt -> \\S*out\\s+5\\s+J1");

        Path exported = Files.createDirectories(data.resolve("exported"));
        run("template", "list", "-x", "-o", exported.toString(), "NIGHTLY").expect(0);
        TransferTemplate t = new TemplateParser().parse(Files.readAllBytes(exported.resolve("NIGHTLY.xml")));
        assertThat(t.name()).isEqualTo("NIGHTLY");
        assertThat(t.priority()).isEqualTo(5);
        assertThat(t.items()).singleElement().satisfies(i -> assertThat(i.destination().exist())
                .isEqualTo(ExistAction.OVERWRITE));
        assertThat(run("template", "list", "-x", "-o", exported.toString()).expect(1).output())
                .contains("NIGHTLY.xml exists", "-f");
        run("template", "list", "-x", "-o", exported.toString(), "-f").expect(0);

        // Sent from the template as it is, then with -df overriding its destination.
        assertThat(run("transfer", "create", "--template", "NIGHTLY", "-w", "120").expect(0).output())
                .contains("BFGCL0035I");
        assertThat(out.resolve("a.txt")).hasContent("alpha from a template");
        run("transfer", "create", "--template", "NIGHTLY", "-df", out.resolve("renamed.txt").toString(), "-w", "120")
                .expect(0);
        assertThat(out.resolve("renamed.txt")).hasContent("alpha from a template");

        assertThat(run("template", "delete", "NOPE", "NIGHTLY").expect(1).output()).contains("NOPE",
                "nothing was deleted");
        assertThat(run("template", "list").expect(0).output()).contains("NIGHTLY");
        run("template", "delete", "NIGHTLY").expect(0);
        assertThat(run("template", "list").expect(0).output()).contains("No templates exist");
        assertThat(run("transfer", "create", "--template", "NIGHTLY").expect(1).output())
                .contains("there is no template 'NIGHTLY'", "nothing was sent");
    }

    /** A template of IBM's file-to-message flags (-dq ...): stored with its queue; a transfer from it puts there. */
    @Test
    void aTemplateToAQueuePutsTheFileThere() throws Exception {
        Path in = Files.createDirectories(data.resolve("in-queue"));
        Files.writeString(in.resolve("payment.txt"), "a payment from a template");
        try (Connection c = connect()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            jakarta.jms.MessageConsumer payments = s.createConsumer(s.createQueue("APP.PAYMENTS")); // makes the queue
            c.start();
            run("template", "create", "-tn", "PAYMENTS", "-sa", "AGENT1", "-da", "AGENT2", "-dq", "APP.PAYMENTS",
                    "-qmp", "true", in.resolve("payment.txt").toString()).expect(0);
            assertThat(run("template", "list", "-v", "PAYMENTS").expect(0).output()).contains("-> APP.PAYMENTS");
            run("transfer", "create", "--template", "PAYMENTS", "-w", "120").expect(0);
            jakarta.jms.Message m = payments.receive(30_000);
            assertThat(m).as("the file as a message on the template's queue").isNotNull();
            byte[] body = m.getBody(byte[].class);
            assertThat(new String(body, StandardCharsets.UTF_8)).isEqualTo("a payment from a template");
            assertThat(m.getStringProperty("WMQFTESourceAgent")).as("-qmp true: IBM's properties").isEqualTo("AGENT1");
        }
        run("template", "delete", "PAYMENTS").expect(0);
    }

    private static Connection connect() throws Exception {
        DataDirectory dd = DataDirectory.of(home);
        CoordinationConfig config = CoordinationConfig.load(dd.coordinationProperties("QM1"), Map.of());
        return QueueManagerConnector.forCommand(config.endpoint(), dd.qmgrsDir(), null).connect();
    }

    /** Publishes a retained body on SYSTEM.FTE/Templates/ID as any application with the authority could. */
    private static void publishRaw(String id, String body) throws Exception {
        DataDirectory dd = DataDirectory.of(home);
        CoordinationConfig config = CoordinationConfig.load(dd.coordinationProperties("QM1"), Map.of());
        try (Connection c = connect()) {
            CoordinationPublisher.publish(c, config.provider(), new Publication(Publication.Kind.STATUS,
                    TemplateStore.topic(id), body, "it:" + id));
        }
    }
}
