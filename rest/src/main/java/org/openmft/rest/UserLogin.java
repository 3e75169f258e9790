package org.openmft.rest;

import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import javax.security.auth.Subject;

import org.apache.activemq.artemis.spi.core.security.ActiveMQJAASSecurityManager;
import org.apache.activemq.artemis.spi.core.security.jaas.NoCacheLoginException;
import org.apache.activemq.artemis.spi.core.security.jaas.RolePrincipal;
import org.openmft.agent.qmgr.security.PropertiesLogin;
import org.openmft.agent.qmgr.security.QueueManagerUsers;

/**
 * Checks a user name and password against an embedded queue manager's users ({@code mft qmgr
 * user}), the way the queue manager itself does: through Artemis's JAAS
 * {@code PropertiesLoginModule} over the same {@code security/users.properties}, whose
 * {@code ENC(...)} PBKDF2 hashes it verifies ({@link PropertiesLogin}). A user added, changed or
 * removed by a command is seen at the next request, as the queue manager sees it at the next
 * login. Thread-safe.
 */
public final class UserLogin {
    /** The longest user name or password looked at; longer ones are refused unread. */
    static final int MAX_LENGTH = 1024;

    private final ActiveMQJAASSecurityManager login;
    private final String qmgrName;

    /**
     * The users of a queue manager.
     *
     * @param users the queue manager's users
     * @param qmgrName its name, for messages
     */
    public UserLogin(QueueManagerUsers users, String qmgrName) {
        this.login = PropertiesLogin.securityManager(Objects.requireNonNull(users, "users"));
        this.qmgrName = qmgrName;
    }

    /**
     * The roles of a user whose password is right.
     *
     * @param user the user name
     * @param password the password
     * @return the user's roles ({@code mft qmgr user grant}), possibly none; empty when the queue
     *     manager would not let this user log in with this password
     */
    public Optional<Set<String>> check(String user, String password) {
        if (user == null || password == null || user.isEmpty() || user.length() > MAX_LENGTH
                || password.length() > MAX_LENGTH) {
            return Optional.empty();
        }
        Subject subject;
        try {
            subject = login.authenticate(user, password, null, null);
        } catch (NoCacheLoginException e) {
            return Optional.empty();
        }
        if (subject == null) {
            return Optional.empty();
        }
        Set<String> roles = new TreeSet<>();
        for (RolePrincipal r : subject.getPrincipals(RolePrincipal.class)) {
            roles.add(r.getName());
        }
        return Optional.of(Set.copyOf(roles));
    }

    /** @return the queue manager whose users log in */
    public String qmgrName() {
        return qmgrName;
    }
}
