package org.openmft.agent.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.lifecycle.CapturedLog;
import org.openmft.agent.transfer.protocol.Wire;
import org.openmft.agent.transfer.state.QueueStateStore;
import org.openmft.xml.DestinationType;
import org.openmft.xml.Reply;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;

/**
 * Whoever may put messages on a destination agent's {@code SYSTEM.FTE.STATE.<AGENT>} queue plants
 * records of the right shape while the agent is down: a copy of a real checkpoint whose rename
 * target is a file outside the transfer's directory (ahead of the real one on the queue), a record
 * without a tag, and one whose transfer id is a path. The restarted agent uses none of them: the
 * file is untouched, nothing outside the state directory is read or deleted, each forged record is
 * reported, and the real transfer resumes from its real checkpoint.
 */
class ForgedStateIT {
    @TempDir
    Path dir;

    @Test
    void forgedStateRecordsAreReportedAndUnusedAndTheRealTransferResumes() throws Exception {
        Map<String, String> slow = RestartRecoveryIT.SLOW;
        try (TransferHarness h = new TransferHarness(dir, false)) {
            h.agent("SRC", slow);
            h.agent("DST", slow);
            Path out = Files.createDirectories(dir.resolve("out")).resolve("big.bin");
            Path src = TransferHarness.randomFile(dir.resolve("in/big.bin"), 32L << 20, 41);
            Path victim = Files.writeString(Files.createDirectories(dir.resolve("home/.ssh"))
                    .resolve("authorized_keys"), "ssh-ed25519 AAAA the-owner");
            Path victimJournal = Files.writeString(dir.resolve("home/x.dst-results"), "not the agent's");
            try (TransferHarness.Submission s = h.submit("SRC", TransferHarness.request("SRC", "DST", 0,
                    TransferHarness.item(src.toString(), out.toString(), DestinationType.FILE)))) {
                Path part = out.resolveSibling("big.bin.part");
                TransferHarness.await("8 MiB at the destination", 120,
                        () -> Files.exists(part) && part.toFile().length() >= 8L << 20);
                h.stopImmediately("DST");
                String otherId = s.id().substring(0, 40) + "00000000";
                List<String> forged = plant(h, s.id(), Map.of(
                        // The real record's copy, its tag kept, renaming onto the victim.
                        "rename", Map.of("mftFinalPath", victim.toString()),
                        "untagged", Map.of(Wire.TRANSFER_ID, otherId, "mftFinalPath", victim.toString(),
                                "mftStateTag", ""),
                        "path as id", Map.of(Wire.TRANSFER_ID, dir.resolve("home/x").toString())));

                try (CapturedLog log = new CapturedLog(QueueStateStore.class)) {
                    h.agent("DST", slow);
                    Reply fin = s.awaitFinal(180);
                    assertThat(fin.resultCode()).as("%s", fin.supplements()).isZero();
                    List<String> warnings = log.events().stream().filter(e -> e.getLevel() == Level.WARN)
                            .map(ILoggingEvent::getFormattedMessage).toList();
                    assertThat(warnings).as("each forged record reported").hasSize(forged.size());
                    for (String id : List.of(s.id(), otherId, dir.resolve("home/x").toString())) {
                        assertThat(warnings).anySatisfy(w -> assertThat(w).contains(QueueNames.state("DST"))
                                .contains("\"" + id + "\"").contains("not used"));
                    }
                }
                assertThat(h.events).as("the real checkpoint was used").contains("resumed DESTINATION " + s.id());
                assertThat(TransferHarness.md5(out)).isEqualTo(TransferHarness.md5(src));
            }
            assertThat(victim).hasContent("ssh-ed25519 AAAA the-owner");
            assertThat(victimJournal).hasContent("not the agent's");
        }
    }

    /**
     * Takes the destination's record of {@code id} off the queue, puts a forged copy for each of
     * {@code forgeries} (property changes; "" removes one), then the real record again behind them.
     *
     * @return the forgeries' names
     */
    private static List<String> plant(TransferHarness h, String id, Map<String, Map<String, String>> forgeries)
            throws Exception {
        try (Connection c = h.admin.connect()) {
            c.start();
            Session session = c.createSession(true, Session.SESSION_TRANSACTED);
            Queue q = session.createQueue(QueueNames.state("DST"));
            Message real;
            try (MessageConsumer consumer = session.createConsumer(q,
                    Wire.TRANSFER_ID + " = '" + id + "' AND " + QueueStateStore.ROLE + " = 'D'")) {
                real = consumer.receive(5000);
            }
            assertThat(real).as("the destination's record").isNotNull();
            MessageProducer p = session.createProducer(q);
            p.setDeliveryMode(DeliveryMode.PERSISTENT);
            for (Map<String, String> changes : forgeries.values()) {
                p.send(copy(session, real, changes));
            }
            p.send(copy(session, real, Map.of()));
            session.commit();
            return new ArrayList<>(forgeries.keySet());
        }
    }

    /** A copy of {@code real} with {@code changes} ("" removes a property). */
    private static Message copy(Session session, Message real, Map<String, String> changes) throws Exception {
        Message m = session.createMessage();
        for (Enumeration<?> names = real.getPropertyNames(); names.hasMoreElements();) {
            String name = (String) names.nextElement();
            String changed = changes.get(name);
            if (changed == null) {
                m.setObjectProperty(name, real.getObjectProperty(name));
            } else if (!changed.isEmpty()) {
                m.setStringProperty(name, changed);
            }
        }
        return m;
    }
}
