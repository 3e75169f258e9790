package org.openmft.agent.tls;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.openmft.agent.credentials.CredentialsException;
import org.openmft.agent.credentials.CredentialsFile;

/**
 * Reads the password of a key store or trust store from the file that {@code *SslTrustStoreCredentialsFile}
 * or {@code *SslKeyStoreCredentialsFile} names. Two forms are accepted:
 * <ul>
 *   <li>IBM's {@code MQMFTCredentials.xml} (read by {@link CredentialsFile}): the
 *       {@code <tns:file path="..." password="..."/>} entry whose path is the store's.
 *       {@code passwordCipher} (fteObfuscate's output) is refused by name, because IBM's algorithm is
 *       not documented;</li>
 *   <li>a plain file whose first line is the password (what {@code mft qmgr create --tls-generate}
 *       writes beside each store).</li>
 * </ul>
 * A file that others may read is refused: a store password readable by every local user protects
 * nothing. Stateless and thread-safe.
 */
public final class StorePasswords {
    private StorePasswords() {
    }

    /**
     * Reads the password for {@code store} from {@code credentialsFile}.
     *
     * @param credentialsFile the credentials file
     * @param store the key or trust store whose password is wanted
     * @param key the configuration key naming the file, for messages
     * @return the password
     * @throws TlsSettingException naming the file and what is wrong with it
     */
    public static String read(Path credentialsFile, Path store, String key) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(credentialsFile);
            CredentialsFile.checkPrivate(credentialsFile);
        } catch (IOException e) {
            throw new TlsSettingException(key + "=" + credentialsFile + ": cannot read the credentials file: "
                    + e.getMessage(), key, credentialsFile.toString());
        } catch (CredentialsException e) {
            throw new TlsSettingException(key + "=" + e.getMessage(), key, credentialsFile.toString());
        }
        if (CredentialsFile.looksLikeXml(bytes)) {
            try {
                return CredentialsFile.parse(credentialsFile, bytes).storePassword(store)
                        .orElseThrow(() -> new TlsSettingException(key + "=" + credentialsFile + ": the credentials"
                                + " file has no <file path=\"" + store.toAbsolutePath().normalize()
                                + "\" password=\"...\"/> entry", key, credentialsFile.toString()));
            } catch (CredentialsException e) {
                throw new TlsSettingException(key + "=" + e.getMessage(), key, credentialsFile.toString());
            }
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1);
        }
        int eol = text.indexOf('\n');
        String line = (eol < 0 ? text : text.substring(0, eol)).replace("\r", "");
        if (line.isEmpty()) {
            throw new TlsSettingException(key + "=" + credentialsFile + ": the credentials file is empty; it must"
                    + " hold the password of " + store + " on its first line, or be an MQMFTCredentials.xml file",
                    key, credentialsFile.toString());
        }
        return line;
    }
}
