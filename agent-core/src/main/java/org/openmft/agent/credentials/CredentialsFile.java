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
    private final List<QmgrEntry> qmgrs;
    private final List<Element> files;

    private CredentialsFile(Path file, List<QmgrEntry> qmgrs, List<Element> files) {
        this.file = file;
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
                    case "file" -> files.add(e);
                    default -> {
                        // <logger> entries (database credentials) and later additions are not ours to read here.
                    }
                }
            }
        }
        return new CredentialsFile(file, List.copyOf(qmgrs), List.copyOf(files));
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
        for (String cipher : List.of("mqUserIdCipher", "mqPasswordCipher")) {
            if (e.hasAttribute(cipher)) {
                throw new CredentialsException(file, file + ": the <qmgr name=\"" + qmgr + "\"> entry has "
                        + cipher + " (written by fteObfuscate), which OpenMFT cannot decrypt; give mqUserId and"
                        + " mqPassword in clear and protect the file with chmod 600");
            }
        }
        if (!e.hasAttribute("mqUserId") || e.getAttribute("mqUserId").isEmpty()) {
            throw new CredentialsException(file, file + ": the <qmgr name=\"" + qmgr + "\"> entry has no mqUserId");
        }
        return Optional.of(new Credentials(e.getAttribute("mqUserId"), e.getAttribute("mqPassword")));
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
            String path = e.getAttribute("path");
            if (path.isEmpty() || !Path.of(path).toAbsolutePath().normalize().equals(wanted)) {
                continue;
            }
            if (e.hasAttribute("passwordCipher")) {
                throw new CredentialsException(file, file + ": the entry for " + path + " has a passwordCipher"
                        + " (written by fteObfuscate), which OpenMFT cannot decrypt; give the password in the"
                        + " password attribute and protect the file with chmod 600");
            }
            if (!e.hasAttribute("password")) {
                throw new CredentialsException(file, file + ": the entry for " + path + " has no password attribute");
            }
            return Optional.of(e.getAttribute("password"));
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
