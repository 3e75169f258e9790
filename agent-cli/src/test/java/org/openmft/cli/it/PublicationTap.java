package org.openmft.cli.it;

import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

import org.openmft.agent.config.CoordinationConfig;
import org.openmft.agent.config.DataDirectory;
import org.openmft.agent.messaging.Publications;
import org.openmft.agent.messaging.QueueManagerConnector;

/**
 * A main for {@link HostProcess}: a durable subscription, as a logger's, to the transfer log
 * ({@code SYSTEM.FTE/Log/#}) on the coordination queue manager of a data directory, connected as that
 * host's commands connect. It prints {@code subscribed} once the subscription exists, then writes
 * every publication it receives, in the order received, as one line {@code <transfer id> <action>
 * <publication id>} to a file, flushed at once; it keeps no memory of what it saw, so a publication
 * delivered twice is written twice. It ends when its standard input closes.
 *
 * <p>Arguments: data directory, coordination queue manager, output file.
 */
final class PublicationTap {
    private static final Pattern TRANSFER_ID = Pattern.compile("<transaction[^>]*\\sID=\"([0-9a-fA-F]+)\"");
    private static final Pattern ACTION = Pattern.compile("<action[^>]*>\\s*([A-Za-z]+)\\s*</action>");

    private PublicationTap() {
    }

    public static void main(String[] args) throws Exception {
        // Standard output is for HostProcess's lines alone; the messaging client's logging goes
        // to standard error, which HostProcess keeps in a file.
        java.io.PrintStream lines = System.out;
        System.setOut(System.err);
        DataDirectory data = DataDirectory.of(Path.of(args[0]));
        CoordinationConfig coordination = CoordinationConfig.load(data.coordinationProperties(args[1]),
                System.getenv());
        QueueManagerConnector connector = QueueManagerConnector.forCommand(coordination.endpoint(), data.qmgrsDir(),
                null);
        try (Connection c = connector.connect();
                BufferedWriter out = Files.newBufferedWriter(Path.of(args[2]), StandardCharsets.UTF_8,
                        StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
            c.setClientID("PUBLICATION.TAP");
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer log = Publications.subscribeDurably(s, coordination.endpoint().provider(), "TAP",
                    "SYSTEM.FTE/Log/#");
            log.setMessageListener(m -> write(out, m));
            c.start();
            lines.println("subscribed");
            lines.flush();
            // Until standard input closes: the test is done, or gone.
            while (System.in.read() >= 0) {
                // Nothing is asked of it.
            }
        }
    }

    private static void write(BufferedWriter out, Message m) {
        try {
            String body = m instanceof TextMessage t ? t.getText() : "";
            out.write(group(TRANSFER_ID.matcher(body)) + " " + group(ACTION.matcher(body)) + " "
                    + m.getStringProperty(Publications.PUBLICATION_ID_PROPERTY));
            out.newLine();
            out.flush();
        } catch (Exception e) {
            System.err.println("cannot record a publication: " + e);
        }
    }

    private static String group(Matcher m) {
        return m.find() ? m.group(1) : "?";
    }
}
