package org.openmft.agent.transfer.source;

import java.time.Duration;
import java.util.concurrent.ThreadFactory;

import javax.jms.JMSException;
import javax.jms.Message;
import javax.jms.Session;

import org.openmft.agent.AgentListener;
import org.openmft.agent.ResultCode;
import org.openmft.agent.authority.Authority;
import org.openmft.agent.authority.AuthorityCheck;
import org.openmft.agent.authority.AuthorityRefusal;
import org.openmft.agent.authority.AuthorityStamp;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.messaging.ConsumerLoop;
import org.openmft.agent.transfer.protocol.Control;
import org.openmft.agent.transfer.protocol.ProtocolCodec;
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

    /** @param session the dispatcher's own session */
    public ReplyDispatcher(String agentName, Session session, SourceScheduler scheduler, ThreadFactory threads,
            boolean authorityChecking, AuthorityCheck authorityCheck, AgentListener listener) throws JMSException {
        this.agentName = agentName;
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
            Control c = ProtocolCodec.readControl(m);
            if (authorityChecking && Wire.START_OK.equals(c.type())
                    && !authorityCheck.held(m, agentName).holds(Authority.AGENT_RECEIVE)) {
                String user = AuthorityStamp.sender(m);
                String why = AuthorityRefusal.message(user, Authority.AGENT_RECEIVE, agentName,
                        "receive a transfer from it");
                log.warn("Agent {}: transfer {} refused: {}", agentName, id, why);
                listener.notAuthorized(agentName, new AuthorityRefusal(id, user, Authority.AGENT_RECEIVE, "sourceAgent",
                        why, null));
                c = new Control(Wire.START_REFUSED, c.incarnation(), c.seq(), c.nextSeq(), c.item(),
                        ResultCode.NOT_AUTHORIZED.code(), why, null, null, 0, false, false);
            }
            scheduler.deliver(id, c);
        }
    }

    /** Stops serving. @return whether its thread ended within {@code wait} */
    public boolean close(Duration wait) {
        return loop.close(wait);
    }
}
