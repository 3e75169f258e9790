package org.openmft.agent.transfer.sandbox;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Pattern;

import org.openmft.agent.transfer.files.Sandbox;
import org.openmft.agent.transfer.files.SandboxPolicy;
import org.openmft.xml.sandbox.UserSandboxesDocument;
import org.openmft.xml.sandbox.UserSandboxesDocument.PathRule;
import org.openmft.xml.sandbox.UserSandboxesDocument.ResourceType;
import org.openmft.xml.sandbox.UserSandboxesDocument.UserPattern;

/**
 * The rules of one {@code UserSandboxes.xml}, compiled: for a requesting user, the first
 * {@code <sandbox>} in file order whose {@code user} pattern matches the whole user name (IBM's
 * wildcard, or a Java regex with {@code userPattern="regex"}) gives the user's {@link UserSandbox};
 * when none matches, or the request carries no validated user, no file may be read or written.
 *
 * <p>The user is the one the queue manager validated for the request ({@code JMSXUserID}), never the
 * {@code <originator>} the request claims: that is written by whoever sends it.
 *
 * <p>Immutable and thread-safe.
 */
public final class UserSandboxes implements SandboxPolicy {

    /** Why a request without a validated user may touch no file. */
    static final String NO_VALIDATED_USER = "user sandboxes need an authenticated requester, and this request carries"
            + " no user validated by the queue manager (JMSXUserID), so no file may be read or written for it";

    private record Entry(String text, Predicate<String> user, UserSandbox.Rules read, UserSandbox.Rules write,
            UserSandbox.QueueRules readQueues, UserSandbox.QueueRules writeQueues) {
    }

    private final List<Entry> entries;
    private final String source;

    private UserSandboxes(List<Entry> entries, String source) {
        this.entries = List.copyOf(entries);
        this.source = source;
    }

    /**
     * Compiles a document.
     *
     * @param document the parsed file
     * @param transferRoot the absolute directory relative path patterns are taken against
     * @param source the file's name for messages, such as its path
     * @return the rules
     * @throws IllegalArgumentException naming the line of a pattern that cannot be used (a {@code ..}
     *         level, not a valid path)
     */
    public static UserSandboxes compile(UserSandboxesDocument document, Path transferRoot, String source) {
        List<Entry> entries = new ArrayList<>();
        for (UserSandboxesDocument.Sandbox s : document.sandboxes()) {
            String text = "<sandbox user=\"" + s.user() + "\""
                    + (s.userPattern() == UserPattern.REGEX ? " userPattern=\"regex\"" : "") + "> (line " + s.line()
                    + " of " + source + ")";
            Predicate<String> user = s.userPattern() == UserPattern.REGEX
                    ? Pattern.compile(s.user()).asMatchPredicate() : new Glob(s.user())::matches;
            entries.add(new Entry(text, user, rules(s.read(), transferRoot), rules(s.write(), transferRoot),
                    queueRules(s.read()), queueRules(s.write())));
        }
        return new UserSandboxes(entries, source);
    }

    private static UserSandbox.Rules rules(UserSandboxesDocument.Rules rules, Path transferRoot) {
        if (rules == null) {
            return null;
        }
        List<UserSandbox.Rule> includes = new ArrayList<>();
        List<UserSandbox.Rule> excludes = new ArrayList<>();
        for (PathRule r : rules.rules()) {
            if (r.type() != ResourceType.FILE) {
                continue;
            }
            PathPattern pattern;
            try {
                pattern = PathPattern.compile(r.name(), transferRoot);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("line " + r.line() + ", element <" + (r.exclude() ? "exclude" : "include")
                        + ">: " + e.getMessage(), e);
            }
            (r.exclude() ? excludes : includes).add(new UserSandbox.Rule(pattern, r.line()));
        }
        return new UserSandbox.Rules(includes, excludes);
    }

    /** The {@code type="queue"} rules of a {@code <read>} or {@code <write>}, or null without one. */
    private static UserSandbox.QueueRules queueRules(UserSandboxesDocument.Rules rules) {
        if (rules == null) {
            return null;
        }
        List<UserSandbox.QueueRule> includes = new ArrayList<>();
        List<UserSandbox.QueueRule> excludes = new ArrayList<>();
        for (PathRule r : rules.rules()) {
            if (r.type() == ResourceType.QUEUE) {
                (r.exclude() ? excludes : includes).add(new UserSandbox.QueueRule(r.name(), new Glob(r.name()),
                        r.line()));
            }
        }
        return new UserSandbox.QueueRules(includes, excludes);
    }

    /** @return the number of {@code <sandbox>} entries */
    public int size() {
        return entries.size();
    }

    @Override
    public Sandbox forRequester(String requesterUser) {
        if (requesterUser == null || requesterUser.isEmpty()) {
            return new ClosedSandbox(NO_VALIDATED_USER, "no validated user");
        }
        for (Entry e : entries) {
            if (e.user().test(requesterUser)) {
                return new UserSandbox(requesterUser, e.text(), e.read(), e.write(), e.readQueues(),
                        e.writeQueues());
            }
        }
        return new ClosedSandbox("no <sandbox> of " + source + " matches user '" + requesterUser
                + "', so no file may be read or written for this request", "no sandbox for '" + requesterUser + "'");
    }
}
