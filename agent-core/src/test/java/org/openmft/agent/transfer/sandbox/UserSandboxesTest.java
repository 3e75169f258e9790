package org.openmft.agent.transfer.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.transfer.files.Access;
import org.openmft.agent.transfer.files.Sandbox;
import org.openmft.agent.transfer.files.SandboxViolationException;
import org.openmft.xml.sandbox.UserSandboxesParser;

/**
 * Matching of user sandboxes: the first sandbox whose user pattern matches applies; a file must
 * match an include and no exclude of the read or write rules, judged by where it really is.
 */
class UserSandboxesTest {
    @TempDir
    Path tmp;
    Path home;
    Path outside;

    @BeforeEach
    void tree() throws Exception {
        tmp = tmp.toRealPath();
        home = Files.createDirectories(tmp.resolve("home/user"));
        Files.writeString(home.resolve("a.txt"), "a");
        Files.writeString(Files.createDirectories(home.resolve("private")).resolve("p.txt"), "p");
        Files.createDirectories(home.resolve("output/deep"));
        Files.writeString(Files.createDirectories(home.resolve("public")).resolve("pub.txt"), "pub");
        outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), "secret");
    }

    /** IBM's sample with the paths under the test's directory. */
    private UserSandboxes ibmSample() throws Exception {
        return compile("<tns:sandbox user=\"account[0-9]\" userPattern=\"regex\">"
                + "<tns:read><tns:include name=\"" + home + "/**\"/><tns:exclude name=\"" + home + "/private/**\"/></tns:read>"
                + "<tns:write><tns:include name=\"" + home + "/output/**\"/></tns:write></tns:sandbox>"
                + "<tns:sandbox user=\"guest\"><tns:read><tns:include name=\"" + home + "/public/**\"/></tns:read>"
                + "</tns:sandbox>");
    }

    private UserSandboxes compile(String sandboxes) throws Exception {
        String xml = "<tns:userSandboxes xmlns:tns=\"http://wmqfte.ibm.com/UserSandboxes\"><tns:agent>" + sandboxes
                + "</tns:agent></tns:userSandboxes>";
        return UserSandboxes.compile(new UserSandboxesParser().parse(xml), tmp, "UserSandboxes.xml");
    }

    private static SandboxViolationException refused(Sandbox s, Path p, Access a) {
        return assertThrows(SandboxViolationException.class, () -> s.check(p, a), p + " " + a);
    }

    @Test
    void allowedExcludedAndOutsideForTheFirstMatchingUser() throws Exception {
        Sandbox account = ibmSample().forRequester("account7");
        account.check(home.resolve("a.txt"), Access.READ);
        account.check(home.resolve("output/deep/new.bin"), Access.WRITE);

        SandboxViolationException excluded = refused(account, home.resolve("private/p.txt"), Access.READ);
        assertThat(excluded.messageId()).isEqualTo("BFGIO0056E");
        assertThat(excluded.supplement()).startsWith("BFGIO0056E: Attempt to read file \"" + home.resolve("private/p.txt")
                + "\" has been denied. The file is located outside of the restricted transfer sandbox: it matches "
                + "<exclude name=\"" + home + "/private/**\"> (line 1) of the sandbox for user 'account7', "
                + "<sandbox user=\"account[0-9]\" userPattern=\"regex\"> (line 1 of UserSandboxes.xml).");
        SandboxViolationException outsideRead = refused(account, outside.resolve("secret.txt"), Access.READ);
        assertThat(outsideRead.getMessage()).contains("allows reads only in \"" + home + "/**\" (line 1)");
        SandboxViolationException write = refused(account, home.resolve("a.txt"), Access.WRITE);
        assertThat(write.messageId()).isEqualTo("BFGIO0057E");
        assertThat(write.getMessage()).startsWith("Attempt to write file").contains("allows writes only in \"" + home
                + "/output/**\"");

        Sandbox guest = ibmSample().forRequester("guest");
        guest.check(home.resolve("public/pub.txt"), Access.READ);
        refused(guest, home.resolve("a.txt"), Access.READ);
        assertThat(refused(guest, home.resolve("public/new.txt"), Access.WRITE).getMessage())
                .contains("has no <write> element, so it allows no writes");
    }

    @Test
    void theUserIsMatchedWholeInFileOrderAndNobodyElseGetsAnything() throws Exception {
        UserSandboxes rules = compile("<tns:sandbox user=\"adm?n\"><tns:read><tns:include name=\"" + outside
                + "/**\"/></tns:read></tns:sandbox>"
                + "<tns:sandbox user=\"a.*\" userPattern=\"regex\"><tns:read><tns:include name=\"" + home
                + "/**\"/></tns:read></tns:sandbox>"
                + "<tns:sandbox user=\"*\"><tns:read><tns:include name=\"" + home + "/public/**\"/></tns:read></tns:sandbox>");
        // "admin" matches the first entry and only that: the regex entry below it never applies to it.
        rules.forRequester("admin").check(outside.resolve("secret.txt"), Access.READ);
        refused(rules.forRequester("admin"), home.resolve("a.txt"), Access.READ);
        rules.forRequester("alice").check(home.resolve("a.txt"), Access.READ);
        refused(rules.forRequester("alice"), outside.resolve("secret.txt"), Access.READ);
        // The regex must match the whole name, and the wildcard too.
        refused(rules.forRequester("badmin"), home.resolve("a.txt"), Access.READ);
        rules.forRequester("badmin").check(home.resolve("public/pub.txt"), Access.READ);

        UserSandboxes sample = ibmSample();
        assertThat(refused(sample.forRequester("account10"), home.resolve("a.txt"), Access.READ).getMessage())
                .contains("no <sandbox> of UserSandboxes.xml matches user 'account10'");
        for (String nobody : new String[] {null, ""}) {
            SandboxViolationException e = refused(sample.forRequester(nobody), home.resolve("a.txt"), Access.READ);
            assertThat(e.getMessage()).contains("user sandboxes need an authenticated requester", "JMSXUserID");
            assertThrows(SandboxViolationException.class,
                    () -> sample.forRequester(nobody).checkDirectory(home, Access.WRITE));
        }
    }

    @Test
    void aLinkIsJudgedByWhereItLeads() throws Exception {
        Files.createSymbolicLink(home.resolve("link-out.txt"), outside.resolve("secret.txt"));
        Files.createSymbolicLink(home.resolve("output/linkdir"), outside);
        Path linkToHome = Files.createSymbolicLink(outside.resolve("link-in"), home);
        Sandbox account = ibmSample().forRequester("account1");

        SandboxViolationException e = refused(account, home.resolve("link-out.txt"), Access.READ);
        assertThat(e.getMessage()).contains("(it resolves to \"" + outside.resolve("secret.txt") + "\")");
        refused(account, home.resolve("output/linkdir/new.txt"), Access.WRITE);
        assertThrows(SandboxViolationException.class,
                () -> account.checkDirectory(home.resolve("output/linkdir"), Access.WRITE));
        // A link from outside into the sandbox leads to a file the sandbox allows.
        account.check(linkToHome.resolve("a.txt"), Access.READ);
        // A pattern written through a link matches what is really there.
        UserSandboxes viaLink = compile("<tns:sandbox user=\"u\"><tns:read><tns:include name=\"" + linkToHome
                + "/**\"/></tns:read></tns:sandbox>");
        viaLink.forRequester("u").check(home.resolve("a.txt"), Access.READ);
        refused(viaLink.forRequester("u"), outside.resolve("secret.txt"), Access.READ);
        assertThat(refused(account, Path.of(home + "/../outside/secret.txt"), Access.READ).getMessage())
                .contains("'..'");
    }

    @Test
    void wildcardsStayWithinALevelAndDoubleStarsSpanAny() throws Exception {
        UserSandboxes rules = compile("<tns:sandbox user=\"u\"><tns:read>"
                + "<tns:include name=\"" + home + "/*.txt\"/><tns:include name=\"" + tmp + "/**/deep/**\"/>"
                + "<tns:include name=\"" + tmp + "/file?\"/><tns:include name=\"rel/\"/></tns:read></tns:sandbox>");
        Sandbox u = rules.forRequester("u");
        u.check(home.resolve("a.txt"), Access.READ);
        u.check(home.resolve(".hidden.txt"), Access.READ);
        refused(u, home.resolve("public/pub.txt"), Access.READ);
        u.check(home.resolve("output/deep/x/y.bin"), Access.READ);
        u.check(tmp.resolve("deep"), Access.READ);
        u.check(tmp.resolve("file1"), Access.READ);
        refused(u, tmp.resolve("file12"), Access.READ);
        // A relative name is taken against transferRoot, and a trailing separator means **.
        u.check(tmp.resolve("rel/any/thing"), Access.READ);
        u.check(tmp.resolve("rel"), Access.READ);
        refused(u, tmp.resolve("relative"), Access.READ);
    }

    @Test
    void directoriesMayBeUsedWhenSomethingInThemCouldBeAllowed() throws Exception {
        Sandbox account = ibmSample().forRequester("account1");
        account.checkDirectory(home, Access.READ);
        account.checkDirectory(home.resolve("output"), Access.WRITE);
        account.checkDirectory(tmp, Access.READ); // its home/user/** lies below
        assertThat(assertThrows(SandboxViolationException.class,
                () -> account.checkDirectory(home.resolve("private"), Access.READ)).getMessage())
                .startsWith("Attempt to read directory").contains("<exclude name=");
        assertThrows(SandboxViolationException.class, () -> account.checkDirectory(outside, Access.READ));
        // home/user may hold files to write (in output/), which are then judged one by one.
        account.checkDirectory(home, Access.WRITE);
        refused(account, home.resolve("new.txt"), Access.WRITE);
        assertThrows(SandboxViolationException.class, () -> account.checkDirectory(outside, Access.WRITE));

        Sandbox files = compile("<tns:sandbox user=\"u\"><tns:write><tns:include name=\"" + home
                + "/output/*.csv\"/></tns:write></tns:sandbox>").forRequester("u");
        files.checkDirectory(home.resolve("output"), Access.WRITE);
        files.check(home.resolve("output/r.csv"), Access.WRITE);
        assertThrows(SandboxViolationException.class, () -> files.checkDirectory(home.resolve("output/deep"),
                Access.WRITE));
        // The .part of an allowed file is allowed with it, unless it leads elsewhere.
        files.checkPartFile(home.resolve("output/r.csv.part"), home.resolve("output/r.csv"));
        Files.createSymbolicLink(home.resolve("output/s.csv.part"), outside.resolve("secret.txt"));
        assertThat(assertThrows(SandboxViolationException.class, () -> files.checkPartFile(
                home.resolve("output/s.csv.part"), home.resolve("output/s.csv"))).getMessage())
                .contains("resolves to \"" + outside.resolve("secret.txt") + "\"", "same directory");
    }

    @Test
    void aPatternThatCannotBeUsedIsRefusedWithItsLine() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> compile(
                "<tns:sandbox user=\"u\"><tns:read>\n<tns:exclude name=\"/data/../etc/**\"/></tns:read></tns:sandbox>"));
        assertThat(e).hasMessage("line 2, element <exclude>: the pattern \"/data/../etc/**\" has a '..' level");
    }

    @Test
    void queueRulesSayNothingAboutFiles() throws Exception {
        Sandbox u = compile("<tns:sandbox user=\"u\"><tns:read><tns:include name=\"**\" type=\"queue\"/></tns:read>"
                + "</tns:sandbox>").forRequester("u");
        assertThat(refused(u, home.resolve("a.txt"), Access.READ).getMessage()).contains("allows reads nowhere");
    }

    @Test
    void queuesAreJudgedByTheQueueRulesOnly() throws Exception {
        UserSandboxes sandboxes = compile("<tns:sandbox user=\"payroll\"><tns:write>"
                + "<tns:include name=\"PAY.**\" type=\"queue\"/><tns:exclude name=\"PAY.SECRET*\" type=\"queue\"/>"
                + "<tns:include name=\"" + home + "/**\"/></tns:write></tns:sandbox>"
                + "<tns:sandbox user=\"reader\"><tns:read><tns:include name=\"**\" type=\"queue\"/></tns:read>"
                + "</tns:sandbox>");
        Sandbox payroll = sandboxes.forRequester("payroll");
        payroll.checkQueue("PAY.OUT", Access.WRITE);
        payroll.checkQueue("PAY.OUT@QM2", Access.WRITE);
        SandboxViolationException excluded = assertThrows(SandboxViolationException.class,
                () -> payroll.checkQueue("PAY.SECRET.1", Access.WRITE));
        assertThat(excluded.supplement()).startsWith("BFGIO0057E: The write to queue \"PAY.SECRET.1\" is refused")
                .contains("<exclude name=\"PAY.SECRET*\" type=\"queue\">");
        assertThrows(SandboxViolationException.class, () -> payroll.checkQueue("OTHER", Access.WRITE));
        // A queue rule says nothing about files, and no <read> allows no queue reads.
        refused(payroll, tmp.resolve("PAY.OUT"), Access.WRITE);
        assertThat(assertThrows(SandboxViolationException.class, () -> payroll.checkQueue("PAY.OUT", Access.READ))
                .messageId()).isEqualTo("BFGIO0056E");
        Sandbox reader = sandboxes.forRequester("reader");
        reader.checkQueue("ANY.QUEUE", Access.READ);
        assertThrows(SandboxViolationException.class, () -> reader.checkQueue("ANY.QUEUE", Access.WRITE));
        assertThrows(SandboxViolationException.class,
                () -> sandboxes.forRequester("nobody").checkQueue("PAY.OUT", Access.WRITE));
    }
}
