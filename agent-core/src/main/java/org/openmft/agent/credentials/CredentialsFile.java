package org.openmft.agent.credentials;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * IBM MFT's {@code MQMFTCredentials.xml}, read once: the user and password per queue manager
 * ({@code <tns:qmgr name user mqUserId mqPassword/>}) and the passwords of key and trust stores
 * ({@code <tns:file path password/>}). Both namespaces IBM uses are accepted
 * ({@value #NAMESPACE}, and z/OS's {@value #ZOS_NAMESPACE}).
 *
 * <p>What is refused, each with a message naming the file:
 * <ul>
 *   <li>a file that users other than its owner may read or write (group or other permission bits):
 *       a password readable by every local user protects nothing, as IBM tells administrators
 *       ({@code chmod 600});</li>
 *   <li>anything but a small, well-formed document without a DOCTYPE, so no external entity, DTD or
 *       entity expansion is ever read;</li>
 *   <li>{@code mqUserIdCipher}, {@code mqPasswordCipher} and {@code passwordCipher}, written by
 *       {@code fteObfuscate} with an algorithm IBM does not document: never guessed at, never
 *       skipped (that would connect without the credentials the file asks for).</li>
 * </ul>
 *
 * <p>Which {@code qmgr} entry applies, as IBM indexes them: the one whose {@code name} is the queue
 * manager and whose {@code user} is the local user running the process; else the one for the
 * queue manager without a {@code user} attribute (which applies to every local user).
 *
 * <p>Immutable and thread-safe.
 */
public final class CredentialsFile {
    /** IBM's namespace of the file. */
    public static final String NAMESPACE = "http://wmqfte.ibm.com/MQMFTCredentials";
    /** The namespace IBM's z/OS documentation shows; accepted too. */
    public static final String ZOS_NAMESPACE = "http://wmqfte.ibm.com/MFTCredentials";
    /** IBM's name of the file. */
    public static final String FILE_NAME = "MQMFTCredentials.xml";
    /** The largest file read: credentials files are a few lines. */
    static final int MAX_BYTES = 1 << 20;

    private static final Set<PosixFilePermission> OTHERS = EnumSet.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE);

    /** One {@code <qmgr>} entry; {@code localUser} null means every local user. */
    private record QmgrEntry(String name, String localUser, Element element) {
    }

    private final Path file;
    private final Document document;
    private final List<QmgrEntry> qmgrs;
    private final List<Element> files;

    private CredentialsFile(Path file, Document document, List<QmgrEntry> qmgrs, List<Element> files) {
        this.file = file;
        this.document = document;
        this.qmgrs = qmgrs;
        this.files = files;
    }

    /**
     * Reads and checks a credentials file.
     *
     * @param file the file
     * @return its content
     * @throws CredentialsException when the file is missing, unreadable, open to other users or not a
     *                              well-formed MQMFTCredentials.xml document
     */
    public static CredentialsFile read(Path file) throws CredentialsException {
        byte[] bytes;
        try {
            if (Files.size(file) > MAX_BYTES) {
                throw new CredentialsException(file, file + ": the credentials file is larger than " + MAX_BYTES
                        + " bytes: not an MQMFTCredentials.xml file");
            }
            checkPrivate(file);
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new CredentialsException(file, file + ": the credentials file does not exist", e);
        } catch (IOException e) {
            throw new CredentialsException(file, file + ": cannot read the credentials file: " + e.getMessage(), e);
        }
        return parse(file, bytes);
    }

    /**
     * Refuses a file that users other than its owner may read or write.
     *
     * @param file the file
     * @throws CredentialsException naming the file, its permissions and the remedy
     * @throws IOException when its permissions cannot be read
     */
    public static void checkPrivate(Path file) throws CredentialsException, IOException {
        if (!file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            return; // Not a POSIX file system: its access control is the administrator's.
        }
        Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
        if (perms.stream().anyMatch(OTHERS::contains)) {
            throw new CredentialsException(file, file + ": the credentials file may be read or changed by other"
                    + " users of this machine (" + PosixFilePermissions.toString(perms) + "); it is refused: protect it"
                    + " first with 'chmod 600 " + file + "'");
        }
    }

    /**
     * Whether a document looks like XML rather than a one-line password file.
     *
     * @param bytes the file's content
     * @return true when its first non-blank character is {@code <}
     */
    public static boolean looksLikeXml(byte[] bytes) {
        String text = new String(bytes, 0, Math.min(bytes.length, 256), StandardCharsets.UTF_8);
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1);
        }
        return text.stripLeading().startsWith("<");
    }

    /**
     * Parses the content of a credentials file whose permissions the caller has checked.
     *
     * @param file  the file, for messages
     * @param bytes its content
     * @return the content
     * @throws CredentialsException when it is not a well-formed MQMFTCredentials.xml document
     */
    public static CredentialsFile parse(Path file, byte[] bytes) throws CredentialsException {
        Document doc;
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setFeature("http://xml.org/sax/features/external-general-entities", false);
            f.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            f.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            f.setXIncludeAware(false);
            f.setExpandEntityReferences(false);
            var builder = f.newDocumentBuilder();
            builder.setErrorHandler(new org.xml.sax.helpers.DefaultHandler()); // no [Fatal Error] lines on stderr
            doc = builder.parse(new ByteArrayInputStream(bytes));
        } catch (Exception e) {
            throw new CredentialsException(file, file + ": not a well-formed MQMFTCredentials.xml file: "
                    + e.getMessage(), e);
        }
        Element root = doc.getDocumentElement();
        if (!"mqmftCredentials".equals(root.getLocalName())) {
            throw new CredentialsException(file, file + ": not an MQMFTCredentials.xml file: its root element is <"
                    + root.getTagName() + ">, not <tns:mqmftCredentials xmlns:tns=\"" + NAMESPACE + "\">");
        }
        List<QmgrEntry> qmgrs = new ArrayList<>();
        List<Element> files = new ArrayList<>();
        for (Node n = root.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e) {
                switch (e.getLocalName()) {
                    case "qmgr" -> {
                        if (!e.hasAttribute("name") || e.getAttribute("name").isBlank()) {
                            throw new CredentialsException(file, file + ": a <qmgr> entry has no name attribute");
                        }
                        qmgrs.add(new QmgrEntry(e.getAttribute("name").trim(),
                                e.hasAttribute("user") ? e.getAttribute("user").trim() : null, e));
                    }
                    case "file", "logger" -> files.add(e);
                    default -> {
                        // Later additions are not ours to read.
                    }
                }
            }
        }
        return new CredentialsFile(file, doc, List.copyOf(qmgrs), List.copyOf(files));
    }

    /** The file this was read from. */
    public Path file() {
        return file;
    }

    /**
     * The user and password for a queue manager connection.
     *
     * @param qmgr      the queue manager name (case-sensitive, as MQ's)
     * @param localUser the local user running this process ({@code user.name})
     * @return the entry's {@code mqUserId} and {@code mqPassword}; empty when the file has no entry for
     *         this queue manager and user
     * @throws CredentialsException when the entry is obfuscated ({@code *Cipher}) or has no
     *                              {@code mqUserId}
     */
    public Optional<Credentials> queueManager(String qmgr, String localUser) throws CredentialsException {
        return queueManager(qmgr, localUser, null);
    }

    /**
     * The user and password for a queue manager connection, decrypting fteObfuscate's values with
     * {@code cipher}.
     *
     * @param qmgr      the queue manager name (case-sensitive, as MQ's)
     * @param localUser the local user running this process ({@code user.name})
     * @param cipher    the key of IBM's {@code *CredentialsKeyFile}, or null when none is named
     * @return the entry's user and password; empty when the file has no entry for this queue manager
     *         and user
     * @throws CredentialsException when an obfuscated value cannot be decrypted (no key, another key,
     *                              not OpenMFT's), or the entry has no user
     */
    public Optional<Credentials> queueManager(String qmgr, String localUser, CredentialsCipher cipher)
            throws CredentialsException {
        QmgrEntry generic = null;
        QmgrEntry specific = null;
        for (QmgrEntry e : qmgrs) {
            if (!e.name().equals(qmgr)) {
                continue;
            }
            if (e.localUser() == null) {
                generic = generic == null ? e : generic;
            } else if (e.localUser().equals(localUser)) {
                specific = specific == null ? e : specific;
            }
        }
        QmgrEntry entry = specific != null ? specific : generic;
        if (entry == null) {
            return Optional.empty();
        }
        Element e = entry.element();
        String where = "the <qmgr name=\"" + qmgr + "\"> entry";
        String user = value(e, "mqUserId", where, cipher);
        if (user == null || user.isEmpty()) {
            throw new CredentialsException(file, file + ": " + where + " has no mqUserId");
        }
        String password = value(e, "mqPassword", where, cipher);
        return Optional.of(new Credentials(user, password == null ? "" : password));
    }

    /**
     * An attribute's value in clear: {@code name}, or {@code name + "Cipher"} decrypted.
     *
     * @return the value, or null when neither attribute is there
     */
    private String value(Element e, String name, String where, CredentialsCipher cipher) throws CredentialsException {
        String obfuscated = name + "Cipher";
        if (e.hasAttribute(obfuscated)) {
            if (cipher == null) {
                throw new CredentialsException(file, file + ": " + where + " has " + obfuscated + " (written by"
                        + " fteObfuscate), and no credentials key file is named to decrypt it: for a queue manager"
                        + " entry set the *CredentialsKeyFile key of the properties file (agentCredentialsKeyFile,"
                        + " coordinationCredentialsKeyFile, connectionCredentialsKeyFile) to fteObfuscate's key file;"
                        + " key and trust store passwords are read in clear only (in a file only its owner may read)");
            }
            return cipher.decrypt(file, obfuscated, e.getAttribute(obfuscated));
        }
        return e.hasAttribute(name) ? e.getAttribute(name) : null;
    }

    /**
     * A logger's database user and password (IBM's {@code wmqfte.database.credentials}): the
     * {@code <logger name="..." user="..." password="..."/>} entry for the logger, else the one
     * without a name.
     *
     * @param loggerName the logger
     * @param cipher     the key for fteObfuscate's values, or null
     * @return the user and password; empty when there is no entry for the logger
     * @throws CredentialsException when an entry has no user, or an obfuscated value cannot be read
     */
    public Optional<Credentials> logger(String loggerName, CredentialsCipher cipher) throws CredentialsException {
        Element generic = null;
        Element specific = null;
        for (Element e : files) {
            if (!"logger".equals(e.getLocalName())) {
                continue;
            }
            if (!e.hasAttribute("name")) {
                generic = generic == null ? e : generic;
            } else if (e.getAttribute("name").trim().equals(loggerName)) {
                specific = specific == null ? e : specific;
            }
        }
        Element e = specific != null ? specific : generic;
        if (e == null) {
            return Optional.empty();
        }
        String where = "the <logger" + (e.hasAttribute("name") ? " name=\"" + loggerName + "\"" : "") + "> entry";
        String user = value(e, "user", where, cipher);
        if (user == null || user.isEmpty()) {
            throw new CredentialsException(file, file + ": " + where + " has no user");
        }
        String password = value(e, "password", where, cipher);
        return Optional.of(new Credentials(user, password == null ? "" : password));
    }

    /**
     * What {@code fteObfuscate} writes: the document with the clear {@code mqUserId} and
     * {@code mqPassword} of every {@code <qmgr>} entry replaced by {@code mqUserIdCipher} and
     * {@code mqPasswordCipher}. Key and trust store passwords ({@code <file>}) and a logger's database
     * user and password ({@code <logger>}) stay as they are: nothing that reads them has a key file.
     *
     * @param file   the file, for messages
     * @param bytes  its content (its permissions checked by the caller)
     * @param cipher the key
     * @return the new document and how many values were encrypted
     * @throws CredentialsException when it is not a well-formed MQMFTCredentials.xml document
     */
    public static Obfuscated obfuscate(Path file, byte[] bytes, CredentialsCipher cipher) throws CredentialsException {
        CredentialsFile parsed = parse(file, bytes);
        Document doc = parsed.document;
        int count = 0;
        for (Node n = doc.getDocumentElement().getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e) {
                List<String> secrets = switch (e.getLocalName()) {
                    case "qmgr" -> List.of("mqUserId", "mqPassword");
                    default -> List.of();
                };
                for (String name : secrets) {
                    if (e.hasAttribute(name)) {
                        e.setAttribute(name + "Cipher", cipher.encrypt(name + "Cipher", e.getAttribute(name)));
                        e.removeAttribute(name);
                        count++;
                    }
                }
            }
        }
        try {
            javax.xml.transform.TransformerFactory tf = javax.xml.transform.TransformerFactory.newInstance();
            tf.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            tf.setAttribute(XMLConstants.ACCESS_EXTERNAL_STYLESHEET, "");
            javax.xml.transform.Transformer t = tf.newTransformer();
            t.setOutputProperty(javax.xml.transform.OutputKeys.ENCODING, "UTF-8");
            java.io.StringWriter out = new java.io.StringWriter();
            t.transform(new javax.xml.transform.dom.DOMSource(doc), new javax.xml.transform.stream.StreamResult(out));
            return new Obfuscated(out.toString(), count);
        } catch (javax.xml.transform.TransformerException e) {
            throw new CredentialsException(file, file + ": cannot write the obfuscated document: " + e.getMessage(), e);
        }
    }

    /**
     * A document written by {@link #obfuscate}.
     *
     * @param document  the new content
     * @param encrypted how many values were encrypted (0: nothing was in clear)
     */
    public record Obfuscated(String document, int encrypted) {
    }

    /**
     * The password of a key or trust store, from the {@code <file>} entry whose path is the store's
     * (compared after resolving both to absolute, normalised paths).
     *
     * @param store the store
     * @return the password; empty when there is no entry for the store
     * @throws CredentialsException when the entry has a {@code passwordCipher} or no password
     */
    public Optional<String> storePassword(Path store) throws CredentialsException {
        Path wanted = store.toAbsolutePath().normalize();
        for (Element e : files) {
            if (!"file".equals(e.getLocalName())) {
                continue;
            }
            String path = e.getAttribute("path");
            if (path.isEmpty() || !Path.of(path).toAbsolutePath().normalize().equals(wanted)) {
                continue;
            }
            String password = value(e, "password", "the entry for " + path, null);
            if (password == null) {
                throw new CredentialsException(file, file + ": the entry for " + path + " has no password attribute");
            }
            return Optional.of(password);
        }
        return Optional.empty();
    }

    /**
     * The text of a credentials file with one {@code <qmgr>} entry, in IBM's format.
     *
     * @param qmgr        the queue manager name
     * @param credentials the user and password
     * @return the document
     */
    public static String document(String qmgr, Credentials credentials) {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<tns:mqmftCredentials xmlns:tns=\"" + NAMESPACE + "\"\n"
                + "    xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"\n"
                + "    xsi:schemaLocation=\"" + NAMESPACE + " MQMFTCredentials.xsd\">\n"
                + "  <tns:qmgr name=\"" + escape(qmgr) + "\" mqUserId=\"" + escape(credentials.user())
                + "\" mqPassword=\"" + escape(credentials.password()) + "\"/>\n"
                + "</tns:mqmftCredentials>\n";
    }

    private static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&apos;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    /**
     * The local user IBM's {@code user} attribute is compared with: the user running this process.
     *
     * @return {@code user.name}
     */
    public static String localUser() {
        return System.getProperty("user.name", "");
    }
}
