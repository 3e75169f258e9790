package org.openmft.agent.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import jakarta.jms.Connection;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.AgentListener;
import org.openmft.agent.TransferOutcome;
import org.openmft.agent.transfer.state.QueueStateStore;
import org.openmft.agent.transfer.state.StateTag;
import org.openmft.agent.transfer.state.SourceRecord;
import org.openmft.xml.DestinationType;
import org.openmft.xml.Reply;

/**
 * A source agent that ended a transfer but lost its queue manager before it removed the transfer's
 * record and files (the soak hit it: a connection cut just after the final reply) takes the
 * transfer back when it next connects. It must finish it from its results journal; resynchronising
 * would make the destination, which forgot the transfer on its completion, take it for a new one
 * and write every file again.
 */
class EndedTransferRestartIT {
    @TempDir
    Path dir;

    @Test
    void aTransferThatEndedBeforeItsStateWasRemovedIsNotSentAgain() throws Exception {
        try (TransferHarness h = new TransferHarness(dir, false)) {
            h.agent("SRC");
            h.agent("DST");
            Path out = Files.createDirectories(dir.resolve("out"));
            Path a = TransferHarness.randomFile(dir.resolve("in/a.bin"), 300_000, 21);
            Path b = TransferHarness.randomFile(dir.resolve("in/b.bin"), 200_000, 22);
            Path stateDir = dir.resolve("state-SRC");
            Path saved = Files.createDirectories(dir.resolve("saved"));
            AtomicReference<SourceRecord> record = new AtomicReference<>();
            // What the source holds between its final reply and the removal of the transfer's state.
            h.endTap = new AgentListener() {
                @Override
                public void transferEnded(String agent, AgentListener.Role role, TransferOutcome outcome) {
                    if (!"SRC".equals(agent) || role != AgentListener.Role.SOURCE) {
                        return;
                    }
                    try (Connection c = h.admin.connect();
                            Stream<Path> files = Files.list(stateDir)) {
                        // With the agent's own key: records are read back only with it.
                        for (SourceRecord r : new QueueStateStore(c, "SRC", stateDir).loadSources()) {
                            if (outcome.transferId().equals(r.transferId())) {
                                record.set(r);
                            }
                        }
                        for (Path f : (Iterable<Path>) files::iterator) {
                            if (!f.getFileName().toString().equals(StateTag.KEY_FILE)) {
                                Files.copy(f, saved.resolve(f.getFileName()));
                            }
                        }
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }
            };
            Reply fin = h.transfer(TransferHarness.request("SRC", "DST", 0,
                    TransferHarness.item(a.toString(), out.resolve("a.bin").toString(), DestinationType.FILE),
                    TransferHarness.item(b.toString(), out.resolve("b.bin").toString(), DestinationType.FILE)), 60);
            h.endTap = AgentListener.NONE;
            String id = fin.requestId();
            assertThat(fin.resultCode()).as("%s", fin.supplements()).isZero();
            assertThat(record.get()).as("the source's record, taken before its removal").isNotNull();
            TransferHarness.await("the source and the destination to forget the transfer", 30, () -> {
                try {
                    return TransferHarness.transferStateFiles(stateDir).isEmpty();
                } catch (java.io.IOException e) {
                    return false;
                }
            });

            // As a connection lost after the final reply leaves the source: its record and files kept.
            h.stopImmediately("SRC");
            try (Stream<Path> files = Files.list(saved); Connection c = h.admin.connect()) {
                for (Path f : (Iterable<Path>) files::iterator) {
                    Files.copy(f, stateDir.resolve(f.getFileName()));
                }
                new QueueStateStore(c, "SRC", stateDir).saveSource(record.get());
            }
            // The user took the files away meanwhile; they must not come back.
            Files.delete(out.resolve("a.bin"));
            Files.delete(out.resolve("b.bin"));
            long destinationStarts = h.events.stream().filter(e -> e.equals("started DESTINATION " + id)).count();

            h.agent("SRC");
            TransferHarness.await("the source to end the transfer it took back", 60,
                    () -> h.events.stream().filter(e -> e.startsWith("ended SOURCE " + id + " ")).count() == 2);

            assertThat(h.events).contains("resumed SOURCE " + id, "ended SOURCE " + id + " 0");
            assertThat(h.events.stream().filter(e -> e.equals("started DESTINATION " + id)).count())
                    .as("the destination was not asked to start the transfer again").isEqualTo(destinationStarts);
            try (Stream<Path> files = Files.list(out)) {
                assertThat(files).as("no file written again").isEmpty();
            }
            TransferHarness.await("the source to forget the transfer again", 30, () -> {
                try {
                    return TransferHarness.transferStateFiles(stateDir).isEmpty();
                } catch (java.io.IOException e) {
                    return false;
                }
            });
            assertThat(List.of(h.events.stream().filter(e -> e.startsWith("ended DESTINATION " + id)).count()))
                    .as("the destination ended the transfer once").containsExactly(1L);
        }
    }
}
