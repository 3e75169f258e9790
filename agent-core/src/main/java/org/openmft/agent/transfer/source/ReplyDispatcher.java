package org.openmft.agent.transfer.source;

import java.time.Duration;
import java.util.concurrent.ThreadFactory;

import javax.jms.JMSException;
import javax.jms.Message;
import javax.jms.MessageConsumer;
import javax.jms.Session;

import org.openmft.agent.config.QueueNames;
import org.openmft.agent.lifecycle.Backoff;
import org.openmft.agent.messaging.ProviderErrors;
import org.openmft.agent.transfer.protocol.ProtocolCodec;
import org.openmft.agent.transfer.protocol.Wire;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The source's dispatcher: one thread serves {@code SYSTEM.FTE.REPLY.<agent>}, copies each
 * destination answer out of its message and hands it to the running transfer it is for.
 */
public final class ReplyDispatcher {
    private static final Logger log = LoggerFactory.getLogger(ReplyDispatcher.class);
    private static final long RECEIVE_MILLIS = 500;

    private final String agentName;
    private final MessageConsumer consumer;
    private final SourceScheduler scheduler;
    private final Thread thread;
    private volatile boolean closing;

    /** @param session the dispatcher's own session */
    public ReplyDispatcher(String agentName, Session session, SourceScheduler scheduler, ThreadFactory threads)
            throws JMSException {
        this.agentName = agentName;
        this.consumer = session.createConsumer(session.createQueue(QueueNames.reply(agentName)));
        this.scheduler = scheduler;
        this.thread = threads.newThread(this::serve);
        thread.setName("openmft-" + agentName + "-replies");
    }

    /** Starts serving (the connection must be started too). */
    public void start() {
        thread.start();
    }

    private void serve() {
        MDC.put(org.openmft.agent.Agent.MDC_AGENT, agentName);
        Backoff.Retries errors = Backoff.RECONNECT.retries();
        while (!closing) {
            try {
                Message m = consumer.receive(RECEIVE_MILLIS);
                if (m == null) {
                    continue;
                }
                if (!ProtocolCodec.versionOk(m)) {
                    log.warn("Agent {}: dropped a message with protocol version {} (this agent speaks {})", agentName,
                            ProtocolCodec.version(m), Wire.VERSION);
                    continue;
                }
                scheduler.deliver(ProtocolCodec.transferId(m), ProtocolCodec.readControl(m));
                errors.reset();
            } catch (JMSException e) {
                if (closing) {
                    return;
                }
                log.warn("Agent {}: reading {} failed: {}", agentName, QueueNames.reply(agentName),
                        ProviderErrors.describe(e));
                try {
                    Thread.sleep(errors.next().toMillis());
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** Stops serving. @return whether its thread ended within {@code wait} */
    public boolean close(Duration wait) {
        closing = true;
        if (thread.getState() == Thread.State.NEW) {
            return true;
        }
        try {
            thread.join(wait.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            log.warn("Agent {}: the REPLY dispatcher did not stop within {} ms", agentName, wait.toMillis());
            return false;
        }
        return true;
    }
}
