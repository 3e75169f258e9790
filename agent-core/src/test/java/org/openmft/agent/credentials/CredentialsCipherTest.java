package org.openmft.agent.credentials;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CredentialsCipherTest {
    private static final String FILE = """
            <?xml version="1.0" encoding="UTF-8"?>
            <tns:mqmftCredentials xmlns:tns="http://wmqfte.ibm.com/MQMFTCredentials">
              <tns:qmgr name="QM1" mqUserId="payroll" mqPassword="s3cret pa&amp;ss"/>
              <tns:file path="/etc/mft/trust.p12" password="storepass"/>
              <tns:logger name="LOG1" user="dbuser" password="dbpass"/>
            </tns:mqmftCredentials>
            """;

    @TempDir
    Path dir;

    private Path privateFile(String name, String content) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, content);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-------"));
        return p;
    }

    @Test
    void obfuscatedValuesAreReadBackWithTheKeyAndNoClearSecretIsLeft() throws Exception {
        CredentialsCipher cipher = CredentialsCipher.fromKeyFile(privateFile("key", "0123456789abcdef-key\n"));
        Path file = privateFile("MQMFTCredentials.xml", FILE);
        CredentialsFile.Obfuscated o = CredentialsFile.obfuscate(file, FILE.getBytes(StandardCharsets.UTF_8), cipher);
        assertThat(o.encrypted()).isEqualTo(2);
        assertThat(o.document()).doesNotContain("payroll", "s3cret")
                .contains("mqUserIdCipher=\"OPENMFT1:").contains("mqPasswordCipher=\"OPENMFT1:")
                .as("store passwords and loggers' entries: what reads them has no key file")
                .contains("password=\"storepass\"").contains("user=\"dbuser\"");
        Files.writeString(file, o.document());

        CredentialsFile read = CredentialsFile.read(file);
        assertThat(read.queueManager("QM1", "anyone", cipher)).contains(new Credentials("payroll", "s3cret pa&ss"));
        assertThat(read.storePassword(Path.of("/etc/mft/trust.p12"))).contains("storepass");
        assertThatThrownBy(() -> read.queueManager("QM1", "anyone"))
                .hasMessageContaining("has mqUserIdCipher (written by fteObfuscate), and no credentials key file is"
                        + " named").hasMessageContaining("agentCredentialsKeyFile");
        assertThat(CredentialsFile.obfuscate(file, Files.readAllBytes(file), cipher).encrypted())
                .as("nothing left in clear").isZero();
    }

    @Test
    void anotherKeyAMovedValueOrIbmsCipherAreRefusedSayingWhich() throws Exception {
        CredentialsCipher cipher = CredentialsCipher.fromKeyFile(privateFile("key", "0123456789abcdef-key"));
        CredentialsCipher other = CredentialsCipher.fromKeyFile(privateFile("other", "fedcba9876543210-key"));
        Path file = dir.resolve("f.xml");
        String password = cipher.encrypt("mqPasswordCipher", "pw");
        assertThat(cipher.decrypt(file, "mqPasswordCipher", password)).isEqualTo("pw");
        assertThatThrownBy(() -> other.decrypt(file, "mqPasswordCipher", password))
                .hasMessageContaining("cannot be decrypted with key file " + dir.resolve("other"));
        assertThatThrownBy(() -> cipher.decrypt(file, "mqUserIdCipher", password))
                .as("a value moved to another attribute").hasMessageContaining("cannot be decrypted");
        assertThatThrownBy(() -> cipher.decrypt(file, "mqPasswordCipher", "4a6f1b2c3d"))
                .hasMessageContaining("was not written by OpenMFT's fteObfuscate");
        assertThatThrownBy(() -> cipher.decrypt(file, "mqPasswordCipher", "OPENMFT1:%%%"))
                .hasMessageContaining("damaged");
        assertThat(cipher.encrypt("a", "x")).as("a fresh salt and nonce each time").isNotEqualTo(cipher.encrypt("a", "x"));
    }

    @Test
    void aKeyFileOthersMayReadOrAShortOneIsRefused() throws Exception {
        Path open = privateFile("open", "0123456789abcdef-key");
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
        assertThatThrownBy(() -> CredentialsCipher.fromKeyFile(open)).hasMessageContaining("chmod 600 " + open);
        Path shortKey = privateFile("short", "  tooshort \n");
        assertThatThrownBy(() -> CredentialsCipher.fromKeyFile(shortKey)).hasMessageContaining("at least 16 bytes");
        assertThatThrownBy(() -> CredentialsCipher.fromKeyFile(dir.resolve("missing")))
                .isInstanceOf(CredentialsException.class);
    }
}
