package org.openmft.agent.command;

import org.openmft.agent.authority.AuthorityCheck;
import org.openmft.agent.authority.HeldAuthorities;
import org.openmft.xml.CommandDocument;
import org.openmft.xml.Reply;
import org.openmft.xml.ReplyTo;

/**
 * Acts on a parsed command document. Implementations must not block for long: a transfer request
 * is queued, not run, before the handler returns.
 */
@FunctionalInterface
public interface CommandHandler {

    /**
     * Handles a request.
     *
     * @return what to answer; never null
     */
    Outcome handle(CommandDocument document, RequestContext context);

    /**
     * Where a request came from.
     *
     * @param messageId     the JMS message id of the request (IBM uses the request's message id as
     *                      the transfer id)
     * @param correlationId the request's correlation id, or null
     * @param replyTo       the request's JMSReplyTo, or null; it wins over the document's reply
     *                      element
     * @param requesterUser who sent the request, as the queue manager vouches for it: the message's
     *                      {@code JMSXUserID}, which an embedded queue manager sets from the login
     *                      over anything the sender wrote (IBM MQ: the MQMD UserIdentifier); null
     *                      when the message has none. This, never the document's
     *                      {@code <originator><userID>} (which anyone can write), is the requester for
     *                      any decision (authority checks, user sandboxes)
     * @param authorities   the authorities the queue manager says the requester holds on this agent's
     *                      {@code SYSTEM.FTE.AUTH*} queues ({@link AuthorityCheck}); none when it
     *                      said none or nothing
     * @param requestText   the request document as received (for the NotAuthorized log), or null
     * @param scheduleId    the message's {@code mftScheduleId} property (an occurrence the agent's
     *                      scheduler submitted), or null
     * @param scheduleTag   the message's {@code mftStateTag} property, which proves the former, or null
     */
    record RequestContext(String messageId, String correlationId, jakarta.jms.Destination replyTo,
            String requesterUser, HeldAuthorities authorities, String requestText, String scheduleId,
            String scheduleTag) {

        public RequestContext {
            authorities = authorities == null ? HeldAuthorities.NONE : authorities;
        }

        /** A context of a request that is no schedule's occurrence. */
        public RequestContext(String messageId, String correlationId, jakarta.jms.Destination replyTo,
                String requesterUser, HeldAuthorities authorities, String requestText) {
            this(messageId, correlationId, replyTo, requesterUser, authorities, requestText, null, null);
        }

        /**
         * A context with a validated user and no authorities.
         */
        public RequestContext(String messageId, String correlationId, jakarta.jms.Destination replyTo,
                String requesterUser) {
            this(messageId, correlationId, replyTo, requesterUser, HeldAuthorities.NONE, null);
        }

        /**
         * A context without a validated user.
         *
         * @param messageId     the JMS message id of the request
         * @param correlationId the request's correlation id, or null
         * @param replyTo       the request's JMSReplyTo, or null
         */
        public RequestContext(String messageId, String correlationId, jakarta.jms.Destination replyTo) {
            this(messageId, correlationId, replyTo, null);
        }
    }

    /**
     * What the intake should do after handling.
     *
     * @param reply    the reply to send, or null for none
     * @param replyTo  where the request asked replies to go (used when the message has no JMSReplyTo)
     * @param rejected whether the request was refused (reported to the listener)
     * @param afterCommit what to do once the request's consumption and its reply are committed
     *                 (starting the work it asked for, so no later reply can overtake the first),
     *                 or null
     */
    record Outcome(Reply reply, ReplyTo replyTo, boolean rejected, Runnable afterCommit) {
        /** An outcome with nothing to do after the commit. */
        public Outcome(Reply reply, ReplyTo replyTo, boolean rejected) {
            this(reply, replyTo, rejected, null);
        }

        /** Nothing to answer. */
        public static Outcome none() {
            return new Outcome(null, null, false);
        }
    }
}
