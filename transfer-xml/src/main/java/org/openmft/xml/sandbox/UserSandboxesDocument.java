package org.openmft.xml.sandbox;

import java.util.List;
import java.util.Objects;

/**
 * IBM MFT's {@code UserSandboxes.xml} (root {@code tns:userSandboxes} in namespace
 * {@value #NAMESPACE}) as read: the {@code <sandbox>} entries of its one {@code <agent>}, in file
 * order, which is the order they are tried in against the requesting user. Nothing is resolved or
 * compiled here beyond checking that every value is usable; the agent decides what the patterns
 * match. Immutable.
 *
 * @param sandboxes the entries, in file order; possibly empty (then no user may touch a file)
 */
public record UserSandboxesDocument(List<Sandbox> sandboxes) {

    /** The namespace of the document's elements. */
    public static final String NAMESPACE = "http://wmqfte.ibm.com/UserSandboxes";

    /** Makes the list immutable. */
    public UserSandboxesDocument {
        sandboxes = List.copyOf(sandboxes);
    }

    /** How the {@code user} attribute of a {@code <sandbox>} is read. */
    public enum UserPattern {
        /** IBM's default: {@code *} is any run of characters, {@code ?} exactly one, the rest literal. */
        WILDCARD,
        /** {@code userPattern="regex"}: a Java regular expression that must match the whole user name. */
        REGEX
    }

    /** What a path rule names. */
    public enum ResourceType {
        /** {@code type="file"} (the default): files and directories. */
        FILE,
        /** {@code type="queue"}: queues, for message transfers. */
        QUEUE
    }

    /**
     * One {@code <sandbox>}: the users it applies to and what they may read and write.
     *
     * @param user the {@code user} attribute as written
     * @param userPattern how {@code user} is read
     * @param read the {@code <read>} rules, or {@code null} when the element is absent (no reads)
     * @param write the {@code <write>} rules, or {@code null} when the element is absent (no writes)
     * @param line the line of the {@code <sandbox>} start tag, for messages
     */
    public record Sandbox(String user, UserPattern userPattern, Rules read, Rules write, int line) {
        /** Checks the components. */
        public Sandbox {
            Objects.requireNonNull(user, "user");
            Objects.requireNonNull(userPattern, "userPattern");
        }
    }

    /**
     * The {@code <include>} and {@code <exclude>} children of a {@code <read>} or {@code <write>},
     * in file order.
     *
     * @param rules the rules; possibly empty (then nothing is allowed)
     */
    public record Rules(List<PathRule> rules) {
        /** Makes the list immutable. */
        public Rules {
            rules = List.copyOf(rules);
        }
    }

    /**
     * One {@code <include>} or {@code <exclude>}.
     *
     * @param name the {@code name} attribute: a path pattern (or a queue name pattern), as written
     * @param type what the pattern names
     * @param exclude whether this is an {@code <exclude>}
     * @param line the line of its start tag, for messages
     */
    public record PathRule(String name, ResourceType type, boolean exclude, int line) {
        /** Checks the components. */
        public PathRule {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(type, "type");
        }
    }
}
