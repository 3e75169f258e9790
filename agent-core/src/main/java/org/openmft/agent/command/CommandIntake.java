package org.openmft.agent.command;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Enumeration;
import java.util.HexFormat;
import java.util.List;

import jakarta.jms.BytesMessage;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

import org.openmft.agent.AgentListener;
import org.openmft.agent.ResultCode;
import org.openmft.agent.authority.AuthorityCheck;
import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.messaging.MessageSizes;
import org.openmft.agent.messaging.Routing;
import org.openmft.xml.CommandDocument;
import org.openmft.xml.DocumentWriter;
import org.openmft.xml.MalformedRequestException;
import org.openmft.xml.Reply;
import org.openmft.xml.ReplyTo;
import org.openmft.xml.RequestParser;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes one message from the agent's COMMAND queue and deals with it inside the caller's
 * transacted session: the request is parsed (hardened, size-limited), handed to the
 * {@link CommandHandler}, and its reply sent; a message that cannot be parsed, or whose handling
 * fails unexpectedly, is moved to {@code SYSTEM.FTE.CMD.RJCT.<agent>} with the reason, so it is
 * never redelivered forever and the agent keeps serving. The caller commits.
 *
 * <p>Not thread-safe: one instance per command session.
 */
public final class CommandIntake {
    private static final Logger log = LoggerFactory.getLogger(CommandIntake.class);

    /** Message property naming why a command message was moved to the reject queue. */
    public static final String REJECT_REASON_PROPERTY = "OPENMFT_REJECT_REASON";
    /** Message property holding the MFT result code given to a rejected command message. */
    public static final String REJECT_RESULT_PROPERTY = "OPENMFT_RESULT_CODE";
    /** Message property holding the JMS message id of the message that was moved aside. */
    public static final String ORIGINAL_ID_PROPERTY = "OPENMFT_ORIGINAL_MESSAGE_ID";
    /**
     * The JMS property in which the queue manager gives the user it validated for a message: on IBM
     * MQ the MQMD UserIdentifier (blank-padded to 12 characters), on Artemis the validated user
     * ({@code _AMQ_VALIDATED_USER}, written by the broker when {@code populate-validated-user} is
     * on). The only source of a requester's identity: the request document's {@code <originator>}
     * is whatever its sender wrote.
     */
    public static final String VALIDATED_USER_PROPERTY = "JMSXUserID";
    /** The largest command message read by default: the COMMAND queue's MAXMSGL, 4 MiB. */
    public static final int DEFAULT_MAX_MESSAGE_BYTES = 4 << 20;
    /** IBM MFT's result code for malformed XML. */
    public static final int MALFORMED = ResultCode.MALFORMED_XML.code();
    /** Longest reason given in a reply, a reject queue property or an event, in characters. */
    static final int MAX_REASON_LENGTH = 4096;

    private static final SecureRandom RANDOM = new SecureRandom();

    private final String agentName;
    private final MessagingProvider provider;
    /** How replies reach requesters on other queue managers. */
    private final Routing routing;
    private final RequestParser parser;
    private final DocumentWriter writer = new DocumentWriter();
    private final CommandHandler handler;
    private final AgentListener listener;
    private final int maxMessageBytes;
    private final AuthorityCheck authorityCheck;

    /**
     * @param maxMessageBytes the largest command message read; bigger ones are refused unread
     * @param authorityCheck  what the queue manager says a request's sender may do on this agent
     */
    public CommandIntake(String agentName, MessagingProvider provider, CommandHandler handler,
            AgentListener listener, int maxMessageBytes, AuthorityCheck authorityCheck, Routing routing) {
        this.agentName = agentName;
        this.provider = provider;
        this.routing = routing;
        this.handler = handler;
        this.listener = listener;
        this.maxMessageBytes = maxMessageBytes;
        this.authorityCheck = authorityCheck;
        this.parser = RequestParser.builder().maxDocumentBytes(maxMessageBytes).build();
    }

    /**
     * Handles one command message within {@code session}'s transaction.
     *
     * @return what to run once the caller has committed, or null
     * @throws JMSException only for messaging failures (the caller rolls back and reconnects)
     */
    public Runnable accept(Session session, Message message) throws JMSException {
        String messageId = requestId(message);
        CommandDocument document;
        byte[] body;
        try {
            body = body(message);
            document = parser.parse(body);
        } catch (MalformedRequestException e) {
            reject(session, message, messageId, MALFORMED, e.getMessage());
            return null;
        } catch (OversizedMessageException e) {
            // Read no further: the copy on the reject queue keeps the properties, not the body.
            reject(session, message, messageId, MALFORMED, e.getMessage() + "; its body is not kept", false);
            return null;
        } catch (UnreadableMessageException e) {
            reject(session, message, messageId, MALFORMED, e.getMessage());
            return null;
        }
        CommandHandler.Outcome outcome;
        try {
            outcome = handler.handle(document, new CommandHandler.RequestContext(messageId,
                    message.getJMSCorrelationID(), message.getJMSReplyTo(), validatedUser(message),
                    authorityCheck.held(message, agentName), new String(body, StandardCharsets.UTF_8),
                    message.getStringProperty("mftScheduleId"), message.getStringProperty("mftStateTag")));
        } catch (RuntimeException e) {
            log.error("Agent {}: handling request {} failed unexpectedly; the message is moved aside", agentName,
                    messageId, e);
            reject(session, message, messageId, ResultCode.COMMAND_UNSUCCESSFUL.code(),
                    "internal error while handling the request: " + e);
            return null;
        }
        if (outcome.rejected()) {
            listener.requestRejected(agentName, messageId, outcome.reply().resultCode(),
                    String.join("; ", outcome.reply().supplements()));
        }
        if (outcome.reply() != null) {
            if (!replyRouted(session, message, outcome.replyTo(), messageId, outcome.reply())) {
                Destination to = replyDestination(session, message, outcome.replyTo());
                if (to != null) {
                    sendReply(session, to, messageId, outcome.reply());
                }
            }
        }
        return outcome.afterCommit();
    }

    /**
     * The user the queue manager says sent {@code message}: {@code JMSXUserID}, which the embedded
     * queue manager writes from the login (populateValidatedUser) and IBM MQ from the connection's
     * identity (the MQMD UserIdentifier, blank-padded to 12). Null when there is none.
     */
    static String validatedUser(Message message) throws JMSException {
        String user = message.getStringProperty(VALIDATED_USER_PROPERTY);
        if (user == null || user.isBlank()) {
            return null;
        }
        return sendable(user.strip());
    }

    /**
     * The id a request is known by: its JMS message id. A producer may switch message ids off
     * ({@code setDisableMessageID}); such a request gets a made-up id of the same shape, so that its
     * reply, its transfer and its events still have one.
     */
    private static String requestId(Message message) throws JMSException {
        String id = message.getJMSMessageID();
        if (id != null && !id.isBlank()) {
            return id;
        }
        byte[] unique = new byte[24];
        RANDOM.nextBytes(unique);
        return "ID:" + HexFormat.of().formatHex(unique);
    }

    /**
     * The body as bytes, its size checked before it is decoded wherever the provider tells the size
     * ({@link MessageSizes}), and again after encoding text as UTF-8.
     */
    private byte[] body(Message message) throws JMSException, UnreadableMessageException {
        long known = MessageSizes.minimumBodyBytes(message);
        if (known > maxMessageBytes) {
            throw new OversizedMessageException("the command message (at least " + known
                    + " bytes) is larger than the limit of " + maxMessageBytes + " bytes");
        }
        if (message instanceof TextMessage text) {
            String s = text.getText();
            if (s == null) {
                throw new UnreadableMessageException("the command message has no body");
            }
            // A char is at least one byte in any encoding: refuse without encoding when hopeless.
            if (s.length() > maxMessageBytes) {
                throw new OversizedMessageException("the command message (" + s.length()
                        + " characters) is larger than the limit of " + maxMessageBytes + " bytes");
            }
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            if (b.length > maxMessageBytes) {
                throw new OversizedMessageException("the command message (" + b.length
                        + " bytes as UTF-8) is larger than the limit of " + maxMessageBytes + " bytes");
            }
            return b;
        }
        if (message instanceof BytesMessage bytes) {
            long length = bytes.getBodyLength();
            if (length > maxMessageBytes) {
                throw new OversizedMessageException("the command message (" + length
                        + " bytes) is larger than the limit of " + maxMessageBytes + " bytes");
            }
            byte[] b = new byte[(int) length];
            bytes.readBytes(b);
            return b;
        }
        throw new UnreadableMessageException("a command message must be a text or bytes message, not "
                + message.getClass().getSimpleName());
    }

    private void reject(Session session, Message message, String messageId, int resultCode, String reason)
            throws JMSException {
        reject(session, message, messageId, resultCode, reason, true);
    }

    /** @param keepBody whether the copy on the reject queue carries the message's body */
    private void reject(Session session, Message message, String messageId, int resultCode, String reason,
            boolean keepBody) throws JMSException {
        // The reason may quote the message; it goes into a reply document, a property and an event.
        String safeReason = sendable(reason);
        log.warn("Agent {}: command message {} rejected (result {}): {}; moved to {}", agentName, messageId,
                resultCode, safeReason, QueueNames.rejected(agentName));
        BytesMessage copy = session.createBytesMessage();
        if (keepBody) {
            copy.writeBytes(rawBody(message));
        }
        copyProperties(message, copy);
        copy.setStringProperty(REJECT_REASON_PROPERTY, safeReason);
        copy.setIntProperty(REJECT_RESULT_PROPERTY, resultCode);
        copy.setStringProperty(ORIGINAL_ID_PROPERTY, messageId);
        try (MessageProducer producer = session.createProducer(
                session.createQueue(QueueNames.rejected(agentName)))) {
            producer.send(copy);
        }
        listener.requestRejected(agentName, messageId, resultCode, safeReason);
        Destination replyTo = message.getJMSReplyTo();
        Reply refusal = new Reply(DocumentWriter.VERSION, messageId, resultCode, List.of(safeReason), List.of());
        if (replyTo != null && !replyRouted(session, message, null, messageId, refusal)) {
            sendReply(session, replyTo, messageId, refusal);
        }
    }

    private static byte[] rawBody(Message message) throws JMSException {
        if (message instanceof TextMessage text) {
            String s = text.getText();
            return s == null ? new byte[0] : s.getBytes(StandardCharsets.UTF_8);
        }
        if (message instanceof BytesMessage bytes) {
            bytes.reset();
            long length = Math.min(bytes.getBodyLength(), 64L << 20);
            byte[] b = new byte[(int) length];
            bytes.readBytes(b);
            return b;
        }
        return new byte[0];
    }

    private static void copyProperties(Message from, Message to) throws JMSException {
        Enumeration<?> names = from.getPropertyNames();
        while (names.hasMoreElements()) {
            String name = (String) names.nextElement();
            if (name.startsWith("JMS") || name.startsWith("_")) {
                continue;
            }
            try {
                to.setObjectProperty(name, from.getObjectProperty(name));
            } catch (JMSException | RuntimeException e) {
                // A provider-specific property that cannot be copied does not stop the move.
            }
        }
    }

    private Destination replyDestination(Session session, Message message, ReplyTo replyTo) throws JMSException {
        if (message.getJMSReplyTo() != null) {
            return message.getJMSReplyTo();
        }
        return documentReplyDestination(session, provider, replyTo);
    }

    /**
     * The destination a document's {@code <reply QMGR="QM">QUEUE</reply>} names, or null. On IBM MQ a
     * named queue manager is honoured through the {@code queue://QM/QUEUE} form.
     */
    public static Destination documentReplyDestination(Session session, MessagingProvider provider, ReplyTo replyTo)
            throws JMSException {
        if (replyTo == null) {
            return null;
        }
        if (provider == MessagingProvider.IBMMQ && replyTo.qmgr() != null && !replyTo.qmgr().isBlank()) {
            return session.createQueue("queue://" + replyTo.qmgr() + "/" + replyTo.queue());
        }
        return session.createQueue(replyTo.queue());
    }

    /**
     * Sends the reply of a request from another queue manager through the channel there: to its
     * JMSReplyTo queue on the queue manager its {@link Routing#REPLY_TO_QMGR} names, else to the
     * document's {@code <reply QMGR="...">} queue when that names another queue manager.
     *
     * @return false when the reply stays on this queue manager (nothing was sent)
     */
    private boolean replyRouted(Session session, Message request, ReplyTo document, String requestId, Reply reply)
            throws JMSException {
        String qmgr = request.getStringProperty(Routing.REPLY_TO_QMGR);
        String queue = null;
        if (request.getJMSReplyTo() instanceof jakarta.jms.Queue q && routing.isRemote(qmgr)) {
            queue = q.getQueueName();
        } else if (request.getJMSReplyTo() == null && document != null && routing.isRemote(document.qmgr())) {
            queue = document.queue();
            qmgr = document.qmgr();
        }
        if (queue == null) {
            return false;
        }
        sendRouted(session, routing, queue, qmgr, requestId, writer.write(reply));
        return true;
    }

    /**
     * Sends a reply document to {@code queue} on queue manager {@code qmgr}, correlated to the request.
     *
     * @param routing   how this agent reaches other queue managers
     * @param requestId the request's id, or null
     * @param document  the reply document
     */
    public static void sendRouted(Session session, Routing routing, String queue, String qmgr, String requestId,
            String document) throws JMSException {
        TextMessage m = session.createTextMessage(document);
        if (requestId != null) {
            m.setJMSCorrelationID(requestId);
        }
        routing.address(m, queue, qmgr);
        try (MessageProducer producer = session.createProducer(routing.destination(session, queue, qmgr))) {
            producer.send(m);
        }
    }

    /** Sends a reply document, correlated to the request as IBM MFT does (CorrelId = request MsgId). */
    public void sendReply(Session session, Destination to, String requestId, Reply reply) throws JMSException {
        TextMessage m = session.createTextMessage(writer.write(reply));
        if (requestId != null) {
            m.setJMSCorrelationID(requestId);
        }
        try (MessageProducer producer = session.createProducer(to)) {
            producer.send(m);
        } catch (jakarta.jms.JMSSecurityException e) {
            // A requester may name a reply queue the agent's user may not put to (or create): the reply is
            // lost, as one to a missing queue is; failing the intake would redeliver the request forever.
            log.warn("Agent {}: the reply to request {} cannot be sent to {}: {}", agentName, requestId, to,
                    sendable(e.getMessage()));
        }
    }

    /**
     * A reason as it can be sent: at most {@link #MAX_REASON_LENGTH} characters (never cut inside a
     * surrogate pair), with anything XML 1.0 cannot carry (most control characters, unpaired
     * surrogates, U+FFFE and U+FFFF) replaced by U+FFFD, so that building the reply cannot fail.
     */
    static String sendable(String reason) {
        String s = reason == null || reason.isBlank() ? "the request was refused" : reason;
        int end = Math.min(s.length(), MAX_REASON_LENGTH);
        if (end < s.length() && Character.isHighSurrogate(s.charAt(end - 1))) {
            end--;
        }
        StringBuilder out = new StringBuilder(end + 3);
        for (int i = 0; i < end; i++) {
            char ch = s.charAt(i);
            if (Character.isHighSurrogate(ch) && i + 1 < end && Character.isLowSurrogate(s.charAt(i + 1))) {
                out.append(ch).append(s.charAt(++i));
            } else if (ch == '\t' || ch == '\n' || ch == '\r' || ch >= 0x20 && ch <= 0xD7FF
                    || ch >= 0xE000 && ch <= 0xFFFD) {
                out.append(ch);
            } else {
                out.append('\uFFFD');
            }
        }
        return end < s.length() ? out.append("...").toString() : out.toString();
    }

    private static class UnreadableMessageException extends Exception {
        private static final long serialVersionUID = 1L;

        UnreadableMessageException(String message) {
            super(message);
        }
    }

    /** A body over {@code maxMessageBytes}: refused without reading (or copying) it further. */
    private static final class OversizedMessageException extends UnreadableMessageException {
        private static final long serialVersionUID = 1L;

        OversizedMessageException(String message) {
            super(message);
        }
    }
}
