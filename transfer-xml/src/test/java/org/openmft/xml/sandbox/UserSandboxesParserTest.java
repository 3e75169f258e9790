package org.openmft.xml.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.xml.sandbox.UserSandboxesDocument.PathRule;
import org.openmft.xml.sandbox.UserSandboxesDocument.ResourceType;
import org.openmft.xml.sandbox.UserSandboxesDocument.Sandbox;
import org.openmft.xml.sandbox.UserSandboxesDocument.UserPattern;

/** IBM's UserSandboxes.xml read verbatim; hostile and invalid files refused with the line at fault. */
class UserSandboxesParserTest {
    private static final String OPEN = "<tns:userSandboxes xmlns:tns=\"http://wmqfte.ibm.com/UserSandboxes\">";
    private static final String CLOSE = "</tns:userSandboxes>";
    private static final String SECRET = "SECRET-91ac-from-the-file-system";

    private final UserSandboxesParser parser = new UserSandboxesParser();

    private static String agent(String sandboxes) {
        return OPEN + "<tns:agent>" + sandboxes + "</tns:agent>" + CLOSE;
    }

    private MalformedSandboxesException refused(String xml) {
        return assertThrows(MalformedSandboxesException.class, () -> parser.parse(xml));
    }

    @Test
    void ibmsSampleIsReadInFileOrderWithItsPatterns() throws Exception {
        byte[] sample;
        try (InputStream in = getClass().getResourceAsStream("ibm-sample.xml")) {
            sample = in.readAllBytes();
        }
        UserSandboxesDocument doc = parser.parse(sample);

        assertThat(doc.sandboxes()).hasSize(2);
        Sandbox accounts = doc.sandboxes().get(0);
        assertThat(accounts.user()).isEqualTo("account[0-9]");
        assertThat(accounts.userPattern()).isEqualTo(UserPattern.REGEX);
        assertThat(accounts.read().rules()).containsExactly(
                new PathRule("/home/user/**", ResourceType.FILE, false, 11),
                new PathRule("/home/user/private/**", ResourceType.FILE, true, 12));
        assertThat(accounts.write().rules()).extracting(PathRule::name).containsExactly("/home/user/output/**");
        assertThat(accounts.line()).isEqualTo(9);
        Sandbox guest = doc.sandboxes().get(1);
        assertThat(guest.user()).isEqualTo("guest");
        assertThat(guest.userPattern()).as("IBM's default").isEqualTo(UserPattern.WILDCARD);
        assertThat(guest.read().rules()).extracting(PathRule::name).containsExactly("/home/user/public/**");
        assertThat(guest.write()).as("no <write>: no writes").isNull();
    }

    @Test
    void anEmptyAgentQueueRulesAndWriteBeforeReadAreAccepted() throws Exception {
        assertThat(parser.parse(agent("")).sandboxes()).isEmpty();
        UserSandboxesDocument doc = parser.parse(agent("<tns:sandbox user=\"svc_*\" userPattern=\"wildcard\">"
                + "<tns:write><tns:include name=\"**\" type=\"queue\"/></tns:write>"
                + "<tns:read><!-- none --></tns:read></tns:sandbox>"));
        Sandbox s = doc.sandboxes().get(0);
        assertThat(s.write().rules()).singleElement().extracting(PathRule::type).isEqualTo(ResourceType.QUEUE);
        assertThat(s.read().rules()).isEmpty();
    }

    @Test
    void hostileDocumentsAreRefusedWithoutReadingAnything(@TempDir Path dir) throws Exception {
        Path secret = Files.writeString(dir.resolve("secret.txt"), SECRET);
        String xxe = "<?xml version=\"1.0\"?><!DOCTYPE tns:userSandboxes [<!ENTITY x SYSTEM \"" + secret.toUri()
                + "\">]>" + agent("<tns:sandbox user=\"&x;\"/>");
        assertThat(refused(xxe)).hasMessage("DOCTYPE is not allowed").message().doesNotContain(SECRET);
        assertThat(refused("<!DOCTYPE x SYSTEM \"" + dir.resolve("evil.dtd").toUri() + "\">" + agent("")))
                .hasMessage("DOCTYPE is not allowed");

        StringBuilder laughs = new StringBuilder("<!DOCTYPE l [<!ENTITY a \"aaaaaaaaaa\">");
        for (int i = 1; i < 10; i++) {
            laughs.append("<!ENTITY a").append(i).append(" \"").append(("&a" + (i == 1 ? "" : i - 1) + ";").repeat(10))
                    .append("\">");
        }
        String bomb = laughs.append("]>").append(agent("<tns:sandbox user=\"&a9;\"/>")).toString();
        MalformedSandboxesException e = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
                Duration.ofSeconds(10), () -> refused(bomb));
        assertThat(e).hasMessage("DOCTYPE is not allowed");

        assertThat(refused(agent("<tns:sandbox user=\"a\"/>").replace("user=\"a\"", "user=\"&undeclared;\"")))
                .hasMessageContaining("undeclared");
        byte[] big = new byte[UserSandboxesParser.MAX_DOCUMENT_BYTES + 1];
        assertThat(assertThrows(MalformedSandboxesException.class, () -> parser.parse(big)))
                .hasMessageContaining("the limit is " + UserSandboxesParser.MAX_DOCUMENT_BYTES + " bytes");
        assertThat(assertThrows(MalformedSandboxesException.class, () -> parser.parse((byte[]) null)))
                .hasMessageContaining("no document");
    }

    @Test
    void invalidPatternsAndUnknownPartsAreRefusedNamingLineAndElement() {
        assertThat(refused(agent("\n<tns:sandbox user=\"account[0-9\" userPattern=\"regex\"/>")))
                .hasMessageStartingWith("line 2, column ")
                .hasMessageContaining("element <sandbox>: user=\"account[0-9\" is not a valid regular expression");
        assertThat(refused(agent("<tns:sandbox user=\"a\" userPattern=\"regexp\"/>")))
                .hasMessageContaining("userPattern=\"regexp\" is not allowed; expected \"wildcard\" or \"regex\"");
        assertThat(refused(agent("<tns:sandbox user=\"\"/>"))).hasMessageContaining("attribute user is required");
        assertThat(refused(agent("<tns:sandbox/>"))).hasMessageContaining("attribute user is required");
        assertThat(refused(agent("<tns:sandbox user=\"a\"><tns:read><tns:include name=\" \"/></tns:read></tns:sandbox>")))
                .hasMessageContaining("element <include>: attribute name is required");
        assertThat(refused(agent("<tns:sandbox user=\"a\"><tns:read><tns:include name=\"/x\" type=\"dataset\"/>"
                + "</tns:read></tns:sandbox>"))).hasMessageContaining("type=\"dataset\" is not allowed");
        assertThat(refused(agent("<tns:sandbox user=\"a\" group=\"staff\"/>")))
                .hasMessageContaining("attribute group is not allowed; expected user, userPattern");
        assertThat(refused(agent("<tns:sandbox user=\"a\"><tns:read/><tns:read/></tns:sandbox>")))
                .hasMessageContaining("<read> is repeated");
        assertThat(refused(agent("<tns:sandbox user=\"a\"><tns:execute/></tns:sandbox>")))
                .hasMessageContaining("unexpected element <execute> in <sandbox>");
        assertThat(refused(agent("<tns:sandbox user=\"a\"><read/></tns:sandbox>")))
                .hasMessageContaining("element <read> is in no namespace; expected \"http://wmqfte.ibm.com/UserSandboxes\"");
        assertThat(refused(agent("<tns:sandbox user=\"a\"><tns:read><tns:include name=\"/x\">"
                + "<tns:exclude name=\"/y\"/></tns:include></tns:read></tns:sandbox>")))
                .hasMessageContaining("<include> must be empty");
        assertThat(refused("<userSandboxes><agent/></userSandboxes>"))
                .hasMessageContaining("the root element is <userSandboxes> in no namespace");
        assertThat(refused("<tns:userSandboxRoot xmlns:tns=\"http://wmqfte.ibm.com/UserSandboxes\"/>"))
                .hasMessageContaining("the root element is <userSandboxRoot>");
        assertThat(refused(OPEN + CLOSE)).hasMessageContaining("missing required element <agent>");
        assertThat(refused(OPEN + "<tns:agent/><tns:agent/>" + CLOSE)).hasMessageContaining("it holds one <agent>");
        assertThat(refused(agent("<tns:sandbox user=\"a\">"))).hasMessageContaining("not well-formed XML");
        assertThat(refused(agent("") + "<tns:agent/>")).hasMessageContaining("not well-formed XML");
    }

    @Test
    void theDocumentsRecordsAreImmutable() throws Exception {
        UserSandboxesDocument doc = parser.parse(agent("<tns:sandbox user=\"a\"/>"));
        assertThrows(UnsupportedOperationException.class, () -> doc.sandboxes().add(null));
        java.util.List<PathRule> rules = new java.util.ArrayList<>();
        UserSandboxesDocument.Rules copy = new UserSandboxesDocument.Rules(rules);
        rules.add(new PathRule("/x", ResourceType.FILE, false, 1));
        assertThat(copy.rules()).as("copied, not shared").isEmpty();
    }
}
