package org.openmft.agent.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Store passwords from a plain file or from IBM's MQMFTCredentials.xml. */
class StorePasswordsTest {
    @TempDir
    Path dir;

    Path secret(String name, String content) throws Exception {
        Path f = dir.resolve(name);
        Files.writeString(f, content);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
        return f;
    }

    @Test
    void aPlainFileHoldsThePasswordOnItsFirstLine() throws Exception {
        Path f = secret("trust.p12.pw", "s3cret word\nignored\n");
        assertThat(StorePasswords.read(f, dir.resolve("trust.p12"), "agentSslTrustStoreCredentialsFile"))
                .isEqualTo("s3cret word");
    }

    @Test
    void anMqmftCredentialsFileGivesThePasswordOfTheEntryForTheStore() throws Exception {
        Path store = dir.resolve("stores/trust.jks");
        Path f = secret("MQMFTCredentials.xml", """
                <?xml version="1.0" encoding="UTF-8"?>
                <tns:mqmftCredentials xmlns:tns="http://wmqfte.ibm.com/MQMFTCredentials">
                  <tns:qmgr name="QM1" mqUserId="mft" mqPassword="x"/>
                  <tns:file path="%s" password="other"/>
                  <tns:file path="%s" password="right"/>
                </tns:mqmftCredentials>
                """.formatted(dir.resolve("key.jks"), dir.resolve("stores/../stores/trust.jks")));
        assertThat(StorePasswords.read(f, store, "k")).isEqualTo("right");
        assertThatThrownBy(() -> StorePasswords.read(f, dir.resolve("none.jks"), "agentSslKeyStoreCredentialsFile"))
                .isInstanceOf(TlsSettingException.class)
                .hasMessageContaining("agentSslKeyStoreCredentialsFile=" + f)
                .hasMessageContaining("no <file path=\"" + dir.resolve("none.jks") + "\"");
    }

    @Test
    void obfuscatedPasswordsDoctypesAndFilesOthersCanReadAreRefused() throws Exception {
        Path store = dir.resolve("trust.jks");
        Path cipher = secret("c.xml", "<tns:mqmftCredentials xmlns:tns=\"http://wmqfte.ibm.com/MQMFTCredentials\">"
                + "<tns:file path=\"" + store + "\" passwordCipher=\"abc\"/></tns:mqmftCredentials>");
        assertThatThrownBy(() -> StorePasswords.read(cipher, store, "k")).hasMessageContaining("passwordCipher");
        Path doctype = secret("d.xml", "<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><x>&e;</x>");
        assertThatThrownBy(() -> StorePasswords.read(doctype, store, "k")).hasMessageContaining("not a well-formed");
        Path open = secret("open.pw", "pw\n");
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
        assertThatThrownBy(() -> StorePasswords.read(open, store, "agentSslTrustStoreCredentialsFile"))
                .hasMessageContaining("may be read or changed by other users").hasMessageContaining("chmod 600");
        assertThatThrownBy(() -> StorePasswords.read(dir.resolve("missing"), store, "k"))
                .hasMessageContaining("cannot read");
    }
}
