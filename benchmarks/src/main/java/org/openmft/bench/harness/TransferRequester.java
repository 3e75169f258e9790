package org.openmft.bench.harness;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TextMessage;

import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.xml.AgentRef;
import org.openmft.xml.DocumentWriter;
import org.openmft.xml.MalformedRequestException;
import org.openmft.xml.Originator;
import org.openmft.xml.Reply;
import org.openmft.xml.ReplyTo;
import org.openmft.xml.RequestParser;
import org.openmft.xml.TransferItem;
import org.openmft.xml.TransferRequest;
import org.openmft.xml.TransferSet;

/**
 * Requests transfers as any MQ application would: the request XML as a text message on the source
 * agent's COMMAND queue of the queue manager this requester is connected to, with a temporary reply
 * queue there that receives the acknowledgement and then the final reply. Its connection is opened
 * once, so that no transfer's time includes connecting. Not thread-safe: one caller at a time.
 */
final class TransferRequester implements AutoCloseable {
    private static final Originator ORIGINATOR = new Originator("localhost", "benchmark", null);

    /** How long a request may wait for its acknowledgement. */
    private static final long ACK_TIMEOUT_MILLIS = 30_000;

    private final String localQMgr;
    private final ToIntFunction<String> resendsOf;
    private final Connection connection;
    private final Session session;
    private final TemporaryQueue replies;
    private final MessageConsumer consumer;
    private final RequestParser parser = new RequestParser();
    private final DocumentWriter writer = new DocumentWriter();

    /**
     * @param connector the queue manager the requests are put to (and the replies come back to)
     * @param localQMgr that queue manager's name, which the requests give as the reply's queue manager
     * @param resendsOf the chunk resends the agents reported for a transfer id
     */
    TransferRequester(QueueManagerConnector connector, String localQMgr, ToIntFunction<String> resendsOf)
            throws Exception {
        this.localQMgr = localQMgr;
        this.resendsOf = resendsOf;
        this.connection = connector.connect();
        try {
            this.session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            this.replies = session.createTemporaryQueue();
            this.consumer = session.createConsumer(replies);
            connection.start();
        } catch (JMSException e) {
            close();
            throw e;
        }
    }

    /**
     * Requests every transfer of {@code transfers} from {@code source} to {@code destination} at once
     * (every request is put, on the source agent's COMMAND queue of this requester's queue manager,
     * before any reply is read) and waits for all their final replies, at most {@code timeoutMillis}
     * from the first put. The caller times this call: from the first put to the last final reply.
     *
     * <p>Acknowledgements and final replies of all the transfers arrive on the one temporary queue, in
     * any order: an acknowledgement is correlated with its request's message id (CorrelId = request
     * MsgId, as IBM MFT does) and names the transfer id, which the final reply carries as its ID.
     *
     * @return one result per transfer, in the order of {@code transfers}
     */
    List<EmbeddedMft.Result> transferAll(AgentRef source, AgentRef destination, List<List<TransferItem>> transfers,
            long timeoutMillis) throws Exception {
        long start = System.nanoTime();
        Map<String, Integer> byMessageId = new HashMap<>();
        for (int i = 0; i < transfers.size(); i++) {
            // As with IBM MFT, the final reply goes only to a requester whose request has a <reply>
            // element; the JMSReplyTo (the same temporary queue) says where it goes.
            TransferRequest request = new TransferRequest("6.00", ORIGINATOR, source, destination,
                    new ReplyTo(replies.getQueueName(), localQMgr, false),
                    new TransferSet(0, null, Map.of(), transfers.get(i)), null);
            byMessageId.put(put("SYSTEM.FTE.COMMAND." + source.agent(), writer.write(request)), i);
        }
        EmbeddedMft.Result[] results = new EmbeddedMft.Result[transfers.size()];
        Reply[] acks = new Reply[transfers.size()];
        Map<String, Integer> byTransferId = new HashMap<>();
        int open = transfers.size();
        long ackDeadline = start + ACK_TIMEOUT_MILLIS * 1_000_000L;
        long deadline = start + timeoutMillis * 1_000_000L;
        while (open > 0) {
            // Until every request is acknowledged, wait no longer than the acknowledgement time-out.
            long until = byTransferId.size() + countDone(results) < transfers.size() ? Math.min(ackDeadline, deadline)
                    : deadline;
            long left = (until - System.nanoTime()) / 1_000_000L;
            Received m = left <= 0 ? null : next(left);
            if (m == null) {
                break;
            }
            Integer ackOf = byMessageId.remove(m.correlationId());
            if (ackOf != null) {
                Reply ack = m.reply();
                acks[ackOf] = ack;
                if (ack.resultCode() != 0) {
                    results[ackOf] = new EmbeddedMft.Result(ack, 0, "request refused with result "
                            + ack.resultCode() + ": " + ack.supplements());
                    open--;
                } else {
                    byTransferId.put(ack.requestId(), ackOf);
                }
                continue;
            }
            Integer doneOf = byTransferId.remove(m.reply().requestId());
            if (doneOf == null) {
                continue; // a reply to an earlier request that timed out
            }
            Reply done = m.reply();
            int resent = resendsOf.applyAsInt(done.requestId());
            results[doneOf] = done.resultCode() != 0 ? new EmbeddedMft.Result(done, resent, "transfer ended with result "
                    + done.resultCode() + ": " + done.supplements() + " " + done.items())
                    : new EmbeddedMft.Result(done, resent, null);
            open--;
        }
        for (int i = 0; i < results.length; i++) {
            if (results[i] == null) {
                results[i] = acks[i] == null
                        ? new EmbeddedMft.Result(null, 0, "no acknowledgement within " + ACK_TIMEOUT_MILLIS / 1000 + " s")
                        : new EmbeddedMft.Result(null, 0, "no final reply within " + timeoutMillis / 1000
                                + " s (transfer " + acks[i].requestId() + ")");
            }
        }
        return List.of(results);
    }

    private static int countDone(EmbeddedMft.Result[] results) {
        int n = 0;
        for (EmbeddedMft.Result r : results) {
            if (r != null) {
                n++;
            }
        }
        return n;
    }

    /** Puts {@code xml} on {@code queue}, replies to come to this requester, and returns its message id. */
    private String put(String queue, String xml) throws JMSException {
        TextMessage m = session.createTextMessage(xml);
        m.setJMSReplyTo(replies);
        try (MessageProducer p = session.createProducer(session.createQueue(queue))) {
            p.send(m);
        }
        return m.getJMSMessageID();
    }

    /** The next reply, or null on time-out. */
    private Received next(long timeoutMillis) throws JMSException, MalformedRequestException {
        Message m = consumer.receive(timeoutMillis);
        return m == null ? null : new Received(m.getJMSCorrelationID(), parser.parseReply(((TextMessage) m).getText()));
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (JMSException e) {
            // Closing at the end of the run: nothing to do about it.
        }
    }

    /** A reply and the correlation id of its message. */
    private record Received(String correlationId, Reply reply) {
    }
}
