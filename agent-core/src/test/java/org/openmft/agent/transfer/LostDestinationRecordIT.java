package org.openmft.agent.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import jakarta.jms.Connection;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.transfer.protocol.Wire;
import org.openmft.agent.transfer.state.QueueStateStore;
import org.openmft.agent.transfer.state.StateFiles;
import org.openmft.xml.DestinationType;
import org.openmft.xml.Reply;

/**
 * A destination agent writes a new transfer's record through its checkpointer, off the data path,
 * while it already writes the first items and journals their results. When the connection goes
 * before that record is written (the soak hit it: a queue manager killed a second after a transfer
 * started), the agent comes back with the journal but without the record, and the resynchronising
 * source looks like a new transfer. The items finished before must not be written again: with
 * {@code exist="error"} they failed with "already exists".
 */
class LostDestinationRecordIT {
    @TempDir
    Path dir;

    @Test
    void itemsJournaledBeforeTheRecordWasWrittenAreNotWrittenAgain() throws Exception {
        try (TransferHarness h = new TransferHarness(dir, false)) {
            Map<String, String> slow = RestartRecoveryIT.SLOW;
            h.agent("SRC", slow);
            h.agent("DST", slow);
            Path out = Files.createDirectories(dir.resolve("out"));
            Path small = TransferHarness.randomFile(dir.resolve("in/small.bin"), 100_000, 31);
            Path big = TransferHarness.randomFile(dir.resolve("in/big.bin"), 32L << 20, 32);
            try (TransferHarness.Submission s = h.submit("SRC", TransferHarness.request("SRC", "DST", 0,
                    TransferHarness.item(small.toString(), out.resolve("small.bin").toString(), DestinationType.FILE),
                    TransferHarness.item(big.toString(), out.resolve("big.bin").toString(), DestinationType.FILE)))) {
                TransferHarness.await("the first item at the destination and the second under way", 120,
                        () -> Files.exists(out.resolve("small.bin")) && Files.exists(out.resolve("big.bin.part")));
                h.stopImmediately("SRC");
                h.stopImmediately("DST");
                assertThat(StateFiles.destinationResults(dir.resolve("state-DST"), s.id())).as("the journal")
                        .exists();
                // As if the connection had gone before the checkpointer wrote the transfer's record.
                removeDestinationRecord(h, s.id());

                h.agent("DST", slow);
                h.agent("SRC", slow);
                Reply fin = s.awaitFinal(180);
                assertThat(fin.resultCode()).as("%s", TransferHarness.failedSupplements(fin)).isZero();
                // The source knew the first item's result already; the destination must agree.
                TransferHarness.await("the destination's outcome", 30,
                        () -> h.destinationOutcomes.stream().anyMatch(o -> o.transferId().equals(s.id())));
                assertThat(h.destinationOutcomes.stream().filter(o -> o.transferId().equals(s.id()))
                        .flatMap(o -> o.items().stream()).filter(i -> i.resultCode() != 0))
                        .as("items the destination failed").isEmpty();
                assertThat(TransferHarness.md5(out.resolve("small.bin"))).isEqualTo(TransferHarness.md5(small));
                assertThat(TransferHarness.md5(out.resolve("big.bin"))).isEqualTo(TransferHarness.md5(big));
            }
        }
    }

    private static void removeDestinationRecord(TransferHarness h, String id) throws Exception {
        var connector = h.admin;
        try (Connection c = connector.connect()) {
            Session session = c.createSession(true, Session.SESSION_TRANSACTED);
            c.start();
            try (MessageConsumer consumer = session.createConsumer(session.createQueue(QueueNames.state("DST")),
                    Wire.TRANSFER_ID + " = '" + id + "' AND " + QueueStateStore.ROLE + " = 'D'")) {
                assertThat(consumer.receive(5000)).as("the destination's record").isNotNull();
            }
            session.commit();
        }
    }
}
