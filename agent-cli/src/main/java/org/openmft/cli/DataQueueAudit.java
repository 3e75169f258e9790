package org.openmft.cli;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.apache.activemq.artemis.api.core.ActiveMQException;
import org.apache.activemq.artemis.api.core.Message;
import org.apache.activemq.artemis.core.postoffice.RoutingStatus;
import org.apache.activemq.artemis.core.server.ServerSession;
import org.apache.activemq.artemis.core.server.plugin.ActiveMQServerMessagePlugin;
import org.apache.activemq.artemis.core.transaction.Transaction;

/**
 * A measurement hook of the queue manager, off unless asked for: appends one line per chunk an
 * agent puts on a {@code SYSTEM.FTE.DATA.<AGENT>} queue ({@code <address> <transferId> <mftSeq>
 * <bodyBytes>}) to a file, so that what a crash costs can be counted by the queue manager instead
 * of by the agents whose counters it is meant to check (an agent's count restarts with its process,
 * and a log line that is missing reads as zero).
 *
 * <p>It is installed with Artemis's own broker properties, in the JVM of {@code mft qmgr start}:
 * {@code BFG_JVM_PROPERTIES="-Dbroker.properties=/path/audit.properties"} with the line
 * {@code brokerPlugins."org.openmft.cli.DataQueueAudit.class".init=file=/path/chunks.txt}
 * (Artemis splits the init value at commas, so the path has none).
 *
 * <p>Each line is written with one {@code write} call before the send returns to the agent, so a
 * {@code kill -9} of the queue manager loses no line of a chunk that was accepted; a line of a chunk
 * that the kill then lost is kept, as the agent has to send that chunk again too.
 *
 * <p>Thread-safety: Artemis calls {@link #afterSend} on many threads; lines are appended whole under
 * a lock.
 */
public final class DataQueueAudit implements ActiveMQServerMessagePlugin {
    /** The prefix of the addresses whose chunks are counted. */
    static final String DATA_PREFIX = "SYSTEM.FTE.DATA.";

    private FileOutputStream out;

    @Override
    public void init(Map<String, String> properties) {
        String file = properties.get("file");
        if (file == null || file.isBlank()) {
            throw new IllegalArgumentException("DataQueueAudit needs init=file=<path>");
        }
        try {
            out = new FileOutputStream(file, true);
        } catch (IOException e) {
            throw new UncheckedIOException("DataQueueAudit cannot open " + file, e);
        }
    }

    @Override
    public void afterSend(ServerSession session, Transaction tx, Message message, boolean direct,
            boolean noAutoCreateQueue, RoutingStatus result) throws ActiveMQException {
        String address = message.getAddress();
        if (result != RoutingStatus.OK || address == null || !address.startsWith(DATA_PREFIX)
                || !"DATA".equals(String.valueOf(message.getObjectProperty("mftType")))) {
            return;
        }
        String line = address + " " + message.getObjectProperty("mftTransferId") + " "
                + message.getObjectProperty("mftSeq") + " " + message.getWholeMessageSize() + "\n";
        synchronized (this) {
            try {
                out.write(line.getBytes(StandardCharsets.US_ASCII));
            } catch (IOException e) {
                throw new UncheckedIOException("DataQueueAudit cannot append", e);
            }
        }
    }
}
