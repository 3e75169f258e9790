package org.openmft.agent.transfer.source;

import java.time.Duration;
import java.util.concurrent.ThreadFactory;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Session;

import org.openmft.agent.AgentListener;
import org.openmft.agent.ResultCode;
import org.openmft.agent.authority.Authority;
import org.openmft.agent.authority.AuthorityCheck;
import org.openmft.agent.authority.AuthorityRefusal;
import org.openmft.agent.authority.AuthorityStamp;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.messaging.ConsumerLoop;
import org.openmft.agent.transfer.protocol.Control;
import org.openmft.agent.transfer.protocol.MessageTag;
import org.openmft.agent.transfer.protocol.ProtocolCodec;
import org.openmft.agent.transfer.protocol.Rejections;
import org.openmft.agent.transfer.protocol.TransferIds;
import org.openmft.agent.transfer.protocol.Wire;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The source's dispatcher: one thread serves {@code SYSTEM.FTE.REPLY.<agent>}, copies each
 * destination answer out of its message and hands it to the running transfer it is for. With
 * {@code authorityChecking=true}, a destination's START_OK whose sender the queue manager did not
 * vouch for holding {@link Authority#AGENT_RECEIVE} here becomes a refusal (53): the transfer fails
 * before any data leaves.
 */
public final class ReplyDispatcher {
    private static final Logger log = LoggerFactory.getLogger(ReplyDispatcher.class);

    private final String agentName;
    private final SourceScheduler scheduler;
    private final ConsumerLoop loop;
    private final boolean authorityChecking;
    private final AuthorityCheck authorityCheck;
    private final AgentListener listener;
    private final ProtocolCodec.Keys keys;
    private final Rejections rejections;

    /**
     * @param session the dispatcher's own session
     * @param keys    the keys of this agent's transfers, which every answer must be tagged with
     */
    public ReplyDispatcher(String agentName, Session session, SourceScheduler scheduler, ThreadFactory threads,
            boolean authorityChecking, AuthorityCheck authorityCheck, ProtocolCodec.Keys keys,
            AgentListener listener)
            throws JMSException {
        this.agentName = agentName;
        this.keys = keys;
        this.rejections = new Rejections(agentName, QueueNames.reply(agentName), listener);
        this.scheduler = scheduler;
        this.authorityChecking = authorityChecking;
        this.authorityCheck = authorityCheck;
        this.listener = listener;
        String queue = QueueNames.reply(agentName);
        this.loop = new ConsumerLoop(agentName, queue, session.createConsumer(session.createQueue(queue)),
                this::handle, threads, "replies");
    }

    /** Starts serving (the connection must be started too). */
    public void start() {
        loop.start();
    }

    private void handle(Message m) throws JMSException {
        if (ProtocolCodec.versionOkOrWarn(m, agentName)) {
            String id = ProtocolCodec.transferId(m);
            if (!TransferIds.isValid(id)) {
                rejections.reject(m, "not a transfer id (48 lower-case hex characters)");
                return;
            }
            // Only the destination that received this agent's START holds the transfer's key.
            if (!MessageTag.verify(m, keys.key(id))) {
                rejections.reject(m, "its tag is not the transfer's: it does not come from the transfer's"
                        + " destination agent");
                return;
            }
            String user = AuthorityStamp.sender(m);
            Control c = ProtocolCodec.readControl(m, user);
            if (authorityChecking && Wire.START_OK.equals(c.type())
                    && !authorityCheck.held(m, agentName).holds(Authority.AGENT_RECEIVE)) {
                String why = AuthorityRefusal.message(user, Authority.AGENT_RECEIVE, agentName,
                        "receive a transfer from it");
                log.warn("Agent {}: transfer {} refused: {}", agentName, id, why);
                listener.notAuthorized(agentName, new AuthorityRefusal(id, user, Authority.AGENT_RECEIVE, "sourceAgent",
                        why, null));
                c = new Control(Wire.START_REFUSED, c.incarnation(), c.seq(), c.nextSeq(), c.item(),
                        ResultCode.NOT_AUTHORIZED.code(), why, null, null, 0, false, false, user, null, false, null);
            }
            scheduler.deliver(id, c);
        }
    }

    /** Messages dropped unread (forged, malformed ids). */
    public long rejected() {
        return rejections.count();
    }

    /** Stops serving. @return whether its thread ended within {@code wait} */
    public boolean close(Duration wait) {
        return loop.close(wait);
    }
}
