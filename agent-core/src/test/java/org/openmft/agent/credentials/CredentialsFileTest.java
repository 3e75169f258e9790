package org.openmft.agent.credentials;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** IBM's MQMFTCredentials.xml: which entry applies, and what is refused. */
class CredentialsFileTest {
    @TempDir
    Path dir;

    Path secret(String name, String text) throws Exception {
        Path f = dir.resolve(name);
        Files.writeString(f, text);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
        return f;
    }

    @Test
    void theEntryOfTheLocalUserWinsOverTheGenericOneAndBothNamespacesAreRead() throws Exception {
        for (String ns : new String[] {CredentialsFile.NAMESPACE, CredentialsFile.ZOS_NAMESPACE}) {
            Path f = secret("c.xml", "<?xml version=\"1.0\"?>\n<tns:mqmftCredentials xmlns:tns=\"" + ns + "\">"
                    + "<tns:qmgr name=\"QM1\" mqUserId=\"generic\" mqPassword=\"g&amp;1\"/>"
                    + "<tns:qmgr name=\"QM1\" user=\"alice\" mqUserId=\"alice1\" mqPassword=\"a\"/>"
                    + "<tns:qmgr name=\"QM2\" mqUserId=\"two\" mqPassword=\"\"/>"
                    + "<tns:file path=\"/x/trust.p12\" password=\"tp\"/></tns:mqmftCredentials>");
            CredentialsFile c = CredentialsFile.read(f);
            assertThat(c.queueManager("QM1", "alice")).contains(new Credentials("alice1", "a"));
            assertThat(c.queueManager("QM1", "bob")).contains(new Credentials("generic", "g&1"));
            assertThat(c.queueManager("QM2", "alice")).contains(new Credentials("two", ""));
            assertThat(c.queueManager("qm1", "alice")).as("queue manager names are case-sensitive").isEmpty();
            assertThat(c.storePassword(Path.of("/x/../x/trust.p12"))).contains("tp");
            Files.delete(f);
        }
    }

    @Test
    void whatOpenMftWritesItReadsBack() throws Exception {
        Credentials c = new Credentials("u", "p\"<&>'");
        Path f = secret("w.xml", CredentialsFile.document("QM/1%", c));
        assertThat(CredentialsFile.read(f).queueManager("QM/1%", "anyone")).contains(c);
        assertThat(c.toString()).doesNotContain("p\"").contains("****");
    }

    @Test
    void obfuscatedEntriesDoctypesOtherRootsAndFilesOthersCanReadAreRefusedNamingTheFile() throws Exception {
        Path cipher = secret("cipher.xml", "<tns:mqmftCredentials xmlns:tns=\"" + CredentialsFile.NAMESPACE + "\">"
                + "<tns:qmgr name=\"QM1\" mqUserIdCipher=\"x\" mqPasswordCipher=\"y\"/></tns:mqmftCredentials>");
        assertThatThrownBy(() -> CredentialsFile.read(cipher).queueManager("QM1", "u"))
                .isInstanceOf(CredentialsException.class).hasMessageContaining(cipher.toString())
                .hasMessageContaining("mqUserIdCipher").hasMessageContaining("fteObfuscate");
        Path doctype = secret("doctype.xml", "<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>"
                + "<tns:mqmftCredentials xmlns:tns=\"" + CredentialsFile.NAMESPACE + "\">&e;</tns:mqmftCredentials>");
        assertThatThrownBy(() -> CredentialsFile.read(doctype)).hasMessageContaining("not a well-formed");
        Path other = secret("other.xml", "<credentials/>");
        assertThatThrownBy(() -> CredentialsFile.read(other)).hasMessageContaining("not an MQMFTCredentials.xml");
        Path noUser = secret("nouser.xml", "<tns:mqmftCredentials xmlns:tns=\"" + CredentialsFile.NAMESPACE + "\">"
                + "<tns:qmgr name=\"QM1\" mqPassword=\"p\"/></tns:mqmftCredentials>");
        assertThatThrownBy(() -> CredentialsFile.read(noUser).queueManager("QM1", "u")).hasMessageContaining(
                "has no mqUserId");
        for (String perms : new String[] {"rw-r-----", "rw----r--", "rw--w----"}) {
            Path open = secret("open.xml", CredentialsFile.document("QM1", new Credentials("u", "p")));
            Files.setPosixFilePermissions(open, PosixFilePermissions.fromString(perms));
            assertThatThrownBy(() -> CredentialsFile.read(open)).as(perms).isInstanceOf(CredentialsException.class)
                    .hasMessage(open + ": the credentials file may be read or changed by other users of this machine"
                            + " (" + perms + "); it is refused: protect it first with 'chmod 600 " + open + "'");
            Files.delete(open);
        }
        assertThatThrownBy(() -> CredentialsFile.read(dir.resolve("missing.xml")))
                .hasMessageContaining("does not exist");
    }
}
