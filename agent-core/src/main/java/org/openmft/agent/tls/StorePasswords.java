package org.openmft.agent.tls;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Reads the password of a key store or trust store from the file that {@code *SslTrustStoreCredentialsFile}
 * or {@code *SslKeyStoreCredentialsFile} names. Two forms are accepted:
 * <ul>
 *   <li>IBM's {@code MQMFTCredentials.xml}: the {@code <tns:file path="..." password="..."/>} entry
 *       whose path is the store's (compared after resolving both to absolute, normalised paths).
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
        } catch (IOException e) {
            throw new TlsSettingException(key + "=" + credentialsFile + ": cannot read the credentials file: "
                    + e.getMessage(), key, credentialsFile.toString());
        }
        checkNotWorldReadable(credentialsFile, key);
        String text = new String(bytes, StandardCharsets.UTF_8);
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1);
        }
        if (text.stripLeading().startsWith("<")) {
            return fromXml(bytes, credentialsFile, store, key);
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

    private static void checkNotWorldReadable(Path file, String key) {
        try {
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
            if (perms.contains(PosixFilePermission.OTHERS_READ)) {
                throw new TlsSettingException(key + "=" + file + ": the credentials file may be read by every user"
                        + " of this machine; protect it first (chmod 600 " + file + ")", key, file.toString());
            }
        } catch (UnsupportedOperationException | IOException e) {
            // Not a POSIX file system: its access control is the administrator's.
        }
    }

    private static String fromXml(byte[] bytes, Path file, Path store, String key) {
        Document doc;
        try (InputStream in = new java.io.ByteArrayInputStream(bytes)) {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setXIncludeAware(false);
            f.setExpandEntityReferences(false);
            doc = f.newDocumentBuilder().parse(in);
        } catch (Exception e) {
            throw new TlsSettingException(key + "=" + file + ": not a well-formed MQMFTCredentials.xml file: "
                    + e.getMessage(), key, file.toString());
        }
        Path wanted = store.toAbsolutePath().normalize();
        NodeList files = doc.getElementsByTagNameNS("*", "file");
        for (int i = 0; i < files.getLength(); i++) {
            Element e = (Element) files.item(i);
            String path = e.getAttribute("path");
            if (path.isEmpty() || !Path.of(path).toAbsolutePath().normalize().equals(wanted)) {
                continue;
            }
            if (e.hasAttribute("passwordCipher")) {
                throw new TlsSettingException(key + "=" + file + ": the entry for " + path + " has a passwordCipher"
                        + " (written by fteObfuscate), which OpenMFT cannot decrypt; give the password in the"
                        + " password attribute and protect the file with chmod 600", key, file.toString());
            }
            if (!e.hasAttribute("password")) {
                throw new TlsSettingException(key + "=" + file + ": the entry for " + path + " has no password"
                        + " attribute", key, file.toString());
            }
            return e.getAttribute("password");
        }
        throw new TlsSettingException(key + "=" + file + ": the credentials file has no <file path=\"" + wanted
                + "\" password=\"...\"/> entry", key, file.toString());
    }
}
