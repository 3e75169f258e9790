package org.openmft.rest;

import java.util.Objects;

import org.apache.activemq.artemis.spi.core.security.ActiveMQJAASSecurityManager;
import org.apache.activemq.artemis.spi.core.security.jaas.NoCacheLoginException;
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
     * Whether the password is the user's.
     *
     * @param user the user name
     * @param password the password
     * @return true when the queue manager would let this user log in with this password
     */
    public boolean check(String user, String password) {
        if (user == null || password == null || user.isEmpty() || user.length() > MAX_LENGTH
                || password.length() > MAX_LENGTH) {
            return false;
        }
        try {
            return login.authenticate(user, password, null, null) != null;
        } catch (NoCacheLoginException e) {
            return false;
        }
    }

    /** @return the queue manager whose users log in */
    public String qmgrName() {
        return qmgrName;
    }
}
