package org.openmft.agent.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.ItemOutcome;
import org.openmft.agent.config.ConfigurationException;
import org.openmft.xml.AgentRef;
import org.openmft.xml.DestinationType;
import org.openmft.xml.ItemResult;
import org.openmft.xml.Originator;
import org.openmft.xml.Reply;
import org.openmft.xml.TransferItem;
import org.openmft.xml.TransferRequest;
import org.openmft.xml.TransferSet;

/**
 * User sandboxes between two running agents on a real queue manager: the source agent reads, and
 * the destination agent writes, only what the UserSandboxes.xml of each allows the user the queue
 * manager validated for the request (JMSXUserID), judged by where files really are; an
 * {@code <originator>} claiming another user counts for nothing. Nothing outside the sandboxes is
 * read into a transfer or written, and the agents go on transferring.
 *
 * <p>Each user logs in to the queue manager as itself ({@link TransferHarness#submitAs}), and the
 * queue manager writes the login into JMSXUserID. A request without a validated user cannot reach
 * an agent through it (it refuses messages without one); {@code CommandIntakeTest} covers the
 * agent's side of that case.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class UserSandboxIT {
    private static final String SECRET = "SECRET-2b7e-outside-every-user-sandbox";
    private static final String NS = "<tns:userSandboxes xmlns:tns=\"http://wmqfte.ibm.com/UserSandboxes\""
            + " xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\""
            + " xsi:schemaLocation=\"http://wmqfte.ibm.com/UserSandboxes UserSandboxes.xsd\"><tns:agent>";

    @TempDir
    static Path dir;
    TransferHarness h;
    Path in;
    Path out;
    Path outside;
    Map<Path, String> outsideBefore;
    int served;

    @BeforeAll
    void startAgentsWithUserSandboxes() throws Exception {
        dir = dir.toRealPath();
        outside = Files.createDirectories(dir.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), SECRET);
        in = Files.createDirectories(dir.resolve("alice/in"));
        Files.writeString(in.resolve("a.txt"), "alice's file\n");
        Files.writeString(Files.createDirectories(in.resolve("private")).resolve("p.txt"), SECRET);
        Files.createSymbolicLink(in.resolve("link-out.txt"), outside.resolve("secret.txt"));
        Files.writeString(Files.createDirectories(dir.resolve("bob/in")).resolve("b.txt"), "bob's file\n");
        out = Files.createDirectories(dir.resolve("alice/out"));
        Files.createSymbolicLink(out.resolve("linkdir"), outside);

        h = new TransferHarness(dir, false);
        // Reads: alice her in/ without private/; bob his in/. Nobody else anything.
        Files.createDirectories(h.configDirectory("SRC"));
        Files.writeString(h.configDirectory("SRC").resolve("UserSandboxes.xml"), NS
                + "<tns:sandbox user=\"alice\"><tns:read><tns:include name=\"" + in + "/**\"/>"
                + "<tns:exclude name=\"" + in + "/private/**\"/></tns:read></tns:sandbox>"
                + "<tns:sandbox user=\"b.b\" userPattern=\"regex\"><tns:read><tns:include name=\"bob/in/\"/></tns:read>"
                + "</tns:sandbox></tns:agent></tns:userSandboxes>");
        // Writes: alice her out/; bob nothing here (no sandbox for him).
        Files.createDirectories(h.configDirectory("DST"));
        Files.writeString(h.configDirectory("DST").resolve("UserSandboxes.xml"), NS
                + "<tns:sandbox user=\"ali*\"><tns:write><tns:include name=\"" + out + "/\"/></tns:write></tns:sandbox>"
                + "</tns:agent></tns:userSandboxes>");
        h.agentFromFile("SRC", Map.of("userSandboxes", "true", "additionalWildcardSandboxChecking", "true"));
        h.agentFromFile("DST", Map.of("userSandboxes", "true"));
        outsideBefore = contents(outside);
    }

    @AfterAll
    void stopAgents() {
        h.close();
    }

    @AfterEach
    void nothingOutsideWasReadOrWrittenAndTheAgentsGoOn() throws Exception {
        assertThat(contents(outside)).as("the directory outside every sandbox").isEqualTo(outsideBefore);
        try (Stream<Path> all = Files.walk(dir.resolve("alice/out"))) {
            assertThat(all.filter(Files::isRegularFile)).noneMatch(p -> read(p).contains(SECRET));
        }
        Path target = out.resolve("served-" + (++served) + ".txt");
        Reply r = transferAs("alice", item(in.resolve("a.txt").toString(), target.toString()));
        assertThat(r.resultCode()).as("%s", failures(r)).isZero();
        assertThat(target).hasContent("alice's file");
    }

    @Test
    void readsAreAllowedExcludedOutsideOrThroughALinkForTheValidatedUser() throws Exception {
        Reply r = transferAs("alice",
                item(in.resolve("a.txt").toString(), out.resolve("r-allowed.txt").toString()),
                item(in.resolve("private/p.txt").toString(), out.resolve("r-excluded.txt").toString()),
                item(outside.resolve("secret.txt").toString(), out.resolve("r-outside.txt").toString()),
                item(in.resolve("link-out.txt").toString(), out.resolve("r-link.txt").toString()));

        assertThat(r.resultCode()).isEqualTo(20);
        assertThat(out.resolve("r-allowed.txt")).hasContent("alice's file");
        Map<String, String> why = failures(r);
        assertThat(why).hasSize(3);
        assertThat(why.get(in.resolve("private/p.txt").toString())).startsWith("BFGIO0056E: Attempt to read file \""
                + in.resolve("private/p.txt") + "\" has been denied. The file is located outside of the restricted"
                + " transfer sandbox: it matches <exclude name=\"" + in + "/private/**\">")
                .contains("user 'alice'");
        assertThat(why.get(outside.resolve("secret.txt").toString())).startsWith("BFGIO0056E: ")
                .contains("allows reads only in \"" + in + "/**\"");
        assertThat(why.get(in.resolve("link-out.txt").toString())).startsWith("BFGIO0056E: ")
                .contains("(it resolves to \"" + outside.resolve("secret.txt") + "\")");
        assertThat(out.resolve("r-excluded.txt")).doesNotExist();
        assertThat(out.resolve("r-outside.txt")).doesNotExist();
        assertThat(out.resolve("r-link.txt")).doesNotExist();
    }

    @Test
    void writesAreJudgedAtTheDestinationForTheSameUser() throws Exception {
        String a = in.resolve("a.txt").toString();
        Reply r = transferAs("alice", item(a, outside.resolve("w-outside.txt").toString()),
                item(a, out.resolve("linkdir/w-link.txt").toString()),
                item(a, dir.resolve("alice/w-beside.txt").toString()));
        assertThat(r.resultCode()).isEqualTo(40);
        for (ItemResult i : r.items()) {
            assertThat(i.supplement()).as(i.destination()).startsWith("BFGIO0057E: Attempt to write ");
        }
        assertThat(r.items()).filteredOn(i -> i.destination().endsWith("w-link.txt")).singleElement()
                .extracting(ItemResult::supplement).asString().contains("resolves to \"" + outside + "/w-link.txt\"");
        assertThat(dir.resolve("alice/w-beside.txt")).doesNotExist();

        // bob may read his file at the source, but the destination has no sandbox for bob.
        Reply bob = transferAs("bob", item(dir.resolve("bob/in/b.txt").toString(), out.resolve("w-bob.txt").toString()));
        assertThat(bob.resultCode()).isEqualTo(40);
        assertThat(bob.items()).singleElement().extracting(ItemResult::supplement).asString()
                .startsWith("BFGIO0057E: ").contains("matches user 'bob'");
        assertThat(out.resolve("w-bob.txt")).doesNotExist();
    }

    @Test
    void theOriginatorsClaimCountsForNothingOnlyTheLoggedInUserDoes() throws Exception {
        TransferRequest claimsAlice = new TransferRequest("6.00", new Originator("somehost", "alice", null),
                new AgentRef("SRC", "QMT"), new AgentRef("DST", "QMT"),
                new org.openmft.xml.ReplyTo("WMQFTE.TEST.REPLY", "QMT", true),
                new TransferSet(0, null, Map.of(), java.util.List.of(item(in.resolve("a.txt").toString(),
                        out.resolve("n-none.txt").toString()))), null);
        Reply r = submitAndWait(claimsAlice, "carol");
        assertThat(r.resultCode()).isEqualTo(40);
        assertThat(r.items()).singleElement().extracting(ItemResult::supplement).asString().startsWith("BFGIO0056E: ")
                .contains("matches user 'carol'").doesNotContain("'alice'");
        assertThat(out.resolve("n-none.txt")).doesNotExist();

        Reply stranger = transferAs("mallory", item(in.resolve("a.txt").toString(), out.resolve("n-m.txt").toString()));
        assertThat(stranger.items()).singleElement().extracting(ItemResult::supplement).asString()
                .contains("no <sandbox> of " + h.configDirectory("SRC").resolve("UserSandboxes.xml")
                        + " matches user 'mallory'");
    }

    @Test
    void aWildcardReachingOutsideTheSandboxFailsTheWholeRequest() throws Exception {
        Reply r = transferAs("alice", item(in.resolve("a.txt").toString(), out.resolve("wc-a.txt").toString()),
                new TransferItem(org.openmft.xml.Mode.BINARY, org.openmft.xml.ChecksumMethod.MD5,
                        new org.openmft.xml.ItemSource(false, org.openmft.xml.Disposition.LEAVE, in + "/*.txt", null),
                        new org.openmft.xml.ItemDestination(DestinationType.DIRECTORY,
                                org.openmft.xml.ExistAction.ERROR, out.toString(), null, null)));
        assertThat(r.resultCode()).isEqualTo(40);
        Map<String, String> why = failures(r);
        assertThat(why.get(in + "/*.txt")).startsWith("BFGSS0077E: Attempt to read file path: " + in + "/*.txt has been"
                + " denied. The file path is located outside of the restricted transfer sandbox")
                .contains("link-out.txt");
        assertThat(why.get(in.resolve("a.txt").toString())).startsWith("BFGSS0078E: Attempt to read file path: "
                + in.resolve("a.txt") + " has been ignored as another transfer item");
        assertThat(out.resolve("wc-a.txt")).doesNotExist();
        assertThat(out.resolve("a.txt")).doesNotExist();
    }

    @Test
    void anInvalidUserSandboxesFileStopsTheAgentAtStart() throws Exception {
        Files.createDirectories(h.configDirectory("BAD"));
        Files.writeString(h.configDirectory("BAD").resolve("UserSandboxes.xml"), NS
                + "<tns:sandbox user=\"x\"><tns:read><tns:include/></tns:read></tns:sandbox></tns:agent></tns:userSandboxes>");
        ConfigurationException e = assertThrows(ConfigurationException.class,
                () -> h.agentFromFile("BAD", Map.of("userSandboxes", "true")));
        assertThat(e.getMessage()).contains("UserSandboxes.xml: line 1", "attribute name is required",
                "the agent does not start");
        ConfigurationException both = assertThrows(ConfigurationException.class,
                () -> h.agentFromFile("BOTH", Map.of("userSandboxes", "true", "sandboxRoot", dir.toString())));
        assertThat(both.getMessage()).contains("mutually exclusive");
    }

    private Reply transferAs(String user, TransferItem... items) throws Exception {
        return submitAndWait(TransferHarness.request("SRC", "DST", 0, items), user);
    }

    private Reply submitAndWait(TransferRequest request, String user) throws Exception {
        try (TransferHarness.Submission s = h.submitAs("SRC", request, user)) {
            assertThat(s.ack.resultCode()).as("acknowledgement: %s", s.ack.supplements()).isZero();
            return s.awaitFinal(60);
        }
    }

    private static TransferItem item(String source, String destination) {
        return TransferHarness.item(source, destination, DestinationType.FILE);
    }

    /** Supplements of the failed items by source. */
    private static Map<String, String> failures(Reply r) {
        Map<String, String> why = new TreeMap<>();
        r.items().stream().filter(i -> i.resultCode() == ItemOutcome.FAILED).forEach(i -> why.put(i.source(),
                i.supplement()));
        return why;
    }

    private static Map<Path, String> contents(Path root) throws Exception {
        Map<Path, String> all = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                all.put(p, Files.isRegularFile(p) ? Files.readString(p) : "<dir>");
            }
        }
        return all;
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (Exception e) {
            return "";
        }
    }
}
