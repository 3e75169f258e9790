package org.openmft.xml.sandbox;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import org.openmft.xml.Checks;
import org.openmft.xml.DocumentCursor;
import org.openmft.xml.DocumentCursor.Frame;
import org.openmft.xml.sandbox.UserSandboxesDocument.PathRule;
import org.openmft.xml.sandbox.UserSandboxesDocument.ResourceType;
import org.openmft.xml.sandbox.UserSandboxesDocument.Rules;
import org.openmft.xml.sandbox.UserSandboxesDocument.Sandbox;
import org.openmft.xml.sandbox.UserSandboxesDocument.UserPattern;

/**
 * Reads IBM MFT's {@code UserSandboxes.xml}, verbatim:
 *
 * <pre>{@code
 * <tns:userSandboxes xmlns:tns="http://wmqfte.ibm.com/UserSandboxes" ...>
 *   <tns:agent>
 *     <tns:sandbox user="account[0-9]" userPattern="regex">
 *       <tns:read><tns:include name="/home/user/**"/><tns:exclude name="/home/user/private/**"/></tns:read>
 *       <tns:write><tns:include name="/home/user/output/**"/></tns:write>
 *     </tns:sandbox>
 *   </tns:agent>
 * </tns:userSandboxes>
 * }</pre>
 *
 * The file decides who may read and write what, so it is read as strictly as a request: with the
 * hardened reading the request parser uses (the JDK's StAX parser, no DTD, no entities, a DOCTYPE
 * refused before anything in it is resolved, limits on size, depth, element count and value length),
 * every element in IBM's namespace, and nothing unknown accepted: an element or attribute we do not
 * understand could be a restriction we would not apply. {@code <read>} and {@code <write>} may come
 * in either order, each at most once; {@code userPattern} is {@code wildcard} (the default) or
 * {@code regex}, and a regex must compile; {@code type} is {@code file} (the default) or {@code queue};
 * {@code name} and {@code user} must not be empty. Comments and processing instructions are allowed
 * anywhere.
 *
 * <p>Immutable and thread-safe. Nothing but {@link MalformedSandboxesException} leaves {@link #parse}.
 */
public final class UserSandboxesParser {

    /** Largest file read, in bytes: 1 MiB, far beyond any real sandbox file. */
    public static final int MAX_DOCUMENT_BYTES = 1024 * 1024;
    private static final int MAX_DEPTH = 16;
    private static final int MAX_ELEMENTS = 50_000;
    private static final int MAX_TEXT_LENGTH = 8 * 1024;

    private static final String ROOT = "userSandboxes";

    /**
     * Reads a document from the bytes of a file.
     *
     * @param xml the document; its encoding comes from its declaration or byte-order mark
     * @return the sandboxes, in file order
     * @throws MalformedSandboxesException if it is not a usable {@code UserSandboxes.xml}, including null
     */
    public UserSandboxesDocument parse(byte[] xml) throws MalformedSandboxesException {
        return DocumentCursor.read(xml, null, MAX_DOCUMENT_BYTES, MalformedSandboxesException::new,
                reader -> new SandboxCursor(reader, MAX_DEPTH, MAX_ELEMENTS, MAX_TEXT_LENGTH), this::document);
    }

    /**
     * Reads a document from text (for tests and tools). Any encoding named in its declaration is ignored.
     *
     * @param xml the document
     * @return the sandboxes, in file order
     * @throws MalformedSandboxesException if it is not a usable {@code UserSandboxes.xml}, including null
     */
    public UserSandboxesDocument parse(String xml) throws MalformedSandboxesException {
        return DocumentCursor.read(null, xml, MAX_DOCUMENT_BYTES, MalformedSandboxesException::new,
                reader -> new SandboxCursor(reader, MAX_DEPTH, MAX_ELEMENTS, MAX_TEXT_LENGTH), this::document);
    }

    private UserSandboxesDocument document(SandboxCursor c) throws MalformedSandboxesException {
        String root = c.root();
        Frame f = c.current();
        if (!ROOT.equals(root) || !UserSandboxesDocument.NAMESPACE.equals(c.namespace())) {
            throw c.error(f, "the root element is <" + root + ">"
                    + (c.namespace().isEmpty() ? " in no namespace" : " in namespace " + Checks.quote(c.namespace()))
                    + "; a user sandboxes file has <" + ROOT + "> in namespace "
                    + Checks.quote(UserSandboxesDocument.NAMESPACE));
        }
        c.attributes(Set.of());
        String child = c.nextChild();
        if (!"agent".equals(child)) {
            throw child == null ? c.error(f, "missing required element <agent>")
                    : c.error(c.current(), "unexpected element <" + child + "> in <" + ROOT + ">; expected <agent>");
        }
        List<Sandbox> sandboxes = agent(c);
        String after = c.nextChild();
        if (after != null) {
            throw c.error(c.current(), "unexpected element <" + after + "> in <" + ROOT + ">; it holds one <agent>");
        }
        return new UserSandboxesDocument(sandboxes);
    }

    private List<Sandbox> agent(SandboxCursor c) throws MalformedSandboxesException {
        c.attributes(Set.of());
        List<Sandbox> sandboxes = new ArrayList<>();
        for (String child = c.nextChild(); child != null; child = c.nextChild()) {
            if (!"sandbox".equals(child)) {
                throw c.error(c.current(), "unexpected element <" + child + "> in <agent>; it holds <sandbox> elements");
            }
            sandboxes.add(sandbox(c));
        }
        return sandboxes;
    }

    private Sandbox sandbox(SandboxCursor c) throws MalformedSandboxesException {
        Frame f = c.current();
        Map<String, String> attributes = c.attributes(Set.of("user", "userPattern"));
        String user = attributes.get("user");
        if (user == null || user.isEmpty()) {
            throw c.error(f, "attribute user is required and must not be empty");
        }
        String kind = attributes.getOrDefault("userPattern", "wildcard");
        UserPattern pattern = switch (kind) {
            case "wildcard" -> UserPattern.WILDCARD;
            case "regex" -> UserPattern.REGEX;
            default -> throw c.error(f, "userPattern=" + Checks.quote(kind)
                    + " is not allowed; expected \"wildcard\" or \"regex\"");
        };
        if (pattern == UserPattern.REGEX) {
            try {
                Pattern.compile(user);
            } catch (PatternSyntaxException e) {
                throw c.error(f, "user=" + Checks.quote(user) + " is not a valid regular expression: "
                        + Checks.printable(e.getDescription(), 200) + " near index " + e.getIndex());
            }
        }
        Rules read = null;
        Rules write = null;
        for (String child = c.nextChild(); child != null; child = c.nextChild()) {
            switch (child) {
                case "read" -> {
                    if (read != null) {
                        throw c.error(c.current(), "<read> is repeated in <sandbox>; it may appear once");
                    }
                    read = rules(c);
                }
                case "write" -> {
                    if (write != null) {
                        throw c.error(c.current(), "<write> is repeated in <sandbox>; it may appear once");
                    }
                    write = rules(c);
                }
                default -> throw c.error(c.current(), "unexpected element <" + child
                        + "> in <sandbox>; it may hold <read> and <write>");
            }
        }
        return new Sandbox(user, pattern, read, write, f.line());
    }

    private Rules rules(SandboxCursor c) throws MalformedSandboxesException {
        String parent = c.current().name();
        c.attributes(Set.of());
        List<PathRule> rules = new ArrayList<>();
        for (String child = c.nextChild(); child != null; child = c.nextChild()) {
            boolean exclude = "exclude".equals(child);
            if (!exclude && !"include".equals(child)) {
                throw c.error(c.current(), "unexpected element <" + child + "> in <" + parent
                        + ">; it may hold <include> and <exclude>");
            }
            rules.add(rule(c, exclude));
        }
        return new Rules(rules);
    }

    private PathRule rule(SandboxCursor c, boolean exclude) throws MalformedSandboxesException {
        Frame f = c.current();
        Map<String, String> attributes = c.attributes(Set.of("name", "type"));
        String name = attributes.get("name");
        if (name == null || name.isBlank()) {
            throw c.error(f, "attribute name is required and must not be empty");
        }
        String kind = attributes.getOrDefault("type", "file");
        ResourceType type = switch (kind) {
            case "file" -> ResourceType.FILE;
            case "queue" -> ResourceType.QUEUE;
            default -> throw c.error(f, "type=" + Checks.quote(kind) + " is not allowed; expected \"file\" or \"queue\"");
        };
        if (c.nextChild() != null) {
            throw c.error(c.current(), "element <" + c.current().name() + "> is not allowed here; <" + f.name()
                    + "> must be empty");
        }
        return new PathRule(name.strip(), type, exclude, f.line());
    }
}
