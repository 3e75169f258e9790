package org.openmft.agent.qmgr.security;

import java.util.EnumSet;
import java.util.Set;

import org.apache.activemq.artemis.api.core.ActiveMQSecurityException;
import org.apache.activemq.artemis.api.core.Message;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.core.security.CheckType;
import org.apache.activemq.artemis.core.security.SecurityStore;
import org.apache.activemq.artemis.core.server.ActiveMQServer;
import org.apache.activemq.artemis.core.server.ServerSession;
import org.apache.activemq.artemis.core.server.plugin.ActiveMQServerMessagePlugin;
import org.apache.activemq.artemis.core.transaction.Transaction;
import org.openmft.agent.authority.Authority;
import org.openmft.agent.authority.AuthorityStamp;

/**
 * IBM MQ's alternate-user authority check for {@code authorityChecking=true}, done where the
 * identity is known: when a client sends a message, this broker plugin removes the
 * {@link AuthorityStamp} properties whatever the sender wrote, and for a message to an agent's
 * COMMAND queue (or a START or START_OK between agents, see {@link AuthorityStamp#target}) asks
 * Artemis's own security store which of the agent's {@code SYSTEM.FTE.AUTH*.<agent>} authorities
 * the sending session's login holds ({@code browse} or {@code send} on that address, from its roles
 * and the security settings of {@link Permissions}), and writes them. The agent then decides with
 * what the queue manager vouched for, as it uses {@code JMSXUserID} for the user.
 *
 * <p>A session the security store does not know (none, or without a user) holds nothing, and
 * with security off nobody holds anything: the stamp fails closed.
 *
 * <p>Thread-safety: stateless after {@link #registered}; Artemis calls it on many threads.
 */
public final class AuthorityStamper implements ActiveMQServerMessagePlugin {
    private static final SimpleString AUTHORITIES = SimpleString.of(AuthorityStamp.AUTHORITIES_PROPERTY);
    private static final SimpleString AGENT = SimpleString.of(AuthorityStamp.AGENT_PROPERTY);

    private volatile SecurityStore store;

    @Override
    public void registered(ActiveMQServer server) {
        this.store = server.getSecurityStore();
    }

    @Override
    public void beforeSend(ServerSession session, Transaction tx, Message message, boolean direct,
            boolean noAutoCreateQueue) {
        boolean claimed = message.removeProperty(AUTHORITIES) != null;
        claimed |= message.removeProperty(AGENT) != null;
        AuthorityStamp.Target target = AuthorityStamp.target(message.getAddress(),
                message.getStringProperty("mftType"));
        if (target == null) {
            if (claimed) {
                message.reencode();
            }
            return;
        }
        message.putStringProperty(AGENT, SimpleString.of(target.agent()));
        message.putStringProperty(AUTHORITIES, SimpleString.of(AuthorityStamp.encode(held(session, target))));
        message.reencode();
    }

    private Set<Authority> held(ServerSession session, AuthorityStamp.Target target) {
        Set<Authority> held = EnumSet.noneOf(Authority.class);
        SecurityStore s = store;
        if (s == null || !s.isSecurityEnabled() || session == null || session.getUsername() == null) {
            return held;
        }
        for (Authority a : target.authorities()) {
            CheckType type = a.access() == Authority.Access.PUT ? CheckType.SEND : CheckType.BROWSE;
            try {
                s.check(SimpleString.of(a.queue(target.agent())), type, session);
                held.add(a);
            } catch (ActiveMQSecurityException e) {
                // Not held: that is the answer.
            } catch (Exception e) {
                // Anything else also counts as not held: an authority is never assumed.
            }
        }
        return held;
    }
}
