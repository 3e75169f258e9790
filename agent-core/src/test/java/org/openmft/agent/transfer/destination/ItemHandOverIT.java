package org.openmft.agent.transfer.destination;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;

import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.AgentListener;
import org.openmft.agent.ItemOutcome;
import org.openmft.agent.ResultCode;
import org.openmft.agent.TransferOutcome;
import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.config.QueueManagerEndpoint;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.messaging.ArtemisQueueAdmin;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.messaging.Routing;
import org.openmft.agent.qmgr.EmbeddedQueueManager;
import org.openmft.agent.qmgr.QueueManagerSettings;
import org.openmft.agent.transfer.failure.EngineStatus;
import org.openmft.agent.transfer.files.PathResolver;
import org.openmft.agent.transfer.files.SandboxRules;
import org.openmft.agent.transfer.protocol.Control;
import org.openmft.agent.transfer.protocol.ItemHeader;
import org.openmft.agent.transfer.protocol.MessageTag;
import org.openmft.agent.transfer.protocol.ProtocolCodec;
import org.openmft.agent.transfer.protocol.Sequenced;
import org.openmft.agent.transfer.protocol.Start;
import org.openmft.agent.transfer.protocol.Wire;
import org.openmft.agent.transfer.recovery.DestinationRecovery;
import org.openmft.agent.transfer.state.InMemoryStateStore;
import org.openmft.agent.transfer.state.StateFiles;
import org.openmft.agent.transfer.state.TransferStateStore;

/**
 * An item whose last chunk comes between checkpoints is forced off the DATA thread while the next
 * items are written, and settled (renamed, its result journaled, answered) in item order once
 * forced (issue 18). The test's thread plays the DATA dispatcher against a real checkpointer whose
 * forces wait until the test lets them run; a real embedded queue manager carries the answers
 * (sent without asynchrony, so an answer sent is on the queue), and the state store notes the
 * order of the journal lines and records. The same set-up checks that the checkpointer tags the
 * acknowledgement of a checkpoint with the key it found, even when the transfer ends meanwhile.
 */
class ItemHandOverIT {
    static final String ID = "414d5120514d31202020202020202020bbbbbbbbbbbbbbbb";
    static final byte[] KEY = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    static final String REPLY = QueueNames.reply("SRC");
    static final int CHUNK = 4;

    static EmbeddedQueueManager qm;
    /** The queue manager's directory, kept for the whole class and removed after it. */
    @TempDir
    static Path qmDir;
    static Connection connection;

    @TempDir
    Path dir;
    Session dataSession;
    Checkpointer checkpointer;
    final HeldForces forces = new HeldForces();
    final NotingStore state = new NotingStore();
    final List<TransferOutcome> ended = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void queueManager() throws Exception {
        int port;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        qm = EmbeddedQueueManager.start(new QueueManagerSettings("QMHAND", qmDir, "127.0.0.1", port));
        QueueManagerConnector connector = QueueManagerConnector.forAgent(new QueueManagerEndpoint(
                MessagingProvider.ARTEMIS, "QMHAND", "127.0.0.1", port, "SYSTEM.DEF.SVRCONN"),
                qm.administrator().orElseThrow());
        new ArtemisQueueAdmin(connector).createQueues(List.of(REPLY));
        // An answer sent is on the queue when send returns: what the test browses is what was sent.
        ((ActiveMQConnectionFactory) connector.factory()).setBlockOnNonDurableSend(true);
        connection = connector.connect();
        connection.start();
    }

    @AfterAll
    static void stopQueueManager() throws Exception {
        connection.close();
        qm.close();
    }

    @AfterEach
    void drain() throws Exception {
        forces.release();
        state.releaseRecords();
        if (checkpointer != null) {
            checkpointer.close(Duration.ofSeconds(10));
        }
        try (Session s = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageConsumer c = s.createConsumer(s.createQueue(REPLY))) {
            while (c.receiveNoWait() != null) {
                // Left by the test.
            }
        }
        dataSession.close();
    }

    /** A transfer of {@code items} items to {@code dir/out<i>}, started on a fresh checkpointer. */
    private DestinationTransfer start(int items, int window, int checkpointChunks) throws Exception {
        return start(items, window, checkpointChunks, id -> KEY);
    }

    /** As {@link #start(int, int, int)}, the checkpointer finding the transfer's key with {@code keys}. */
    private DestinationTransfer start(int items, int window, int checkpointChunks, ProtocolCodec.Keys keys)
            throws Exception {
        dataSession = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        checkpointer = new Checkpointer("DST", connection, state.port, AgentListener.NONE, Thread::new, keys,
                new Routing(MessagingProvider.ARTEMIS, "QMHAND"), forces);
        DestinationTransfer t = DestinationTransfer.fromStart(context(checkpointer), new Start(ID, 0, "SRC", null,
                "DST", items, window, checkpointChunks, null, null, null, -1, false), KEY, null);
        t.submitRecord(-1, null);
        t.restart(0, -1);
        return t;
    }

    private DestinationContext context(Checkpointer c) throws JMSException {
        MessageProducer producer = dataSession.createProducer(null);
        ProtocolCodec codec = new ProtocolCodec(dataSession, id -> KEY);
        ReplySender replies = new ReplySender() {
            @Override
            public ProtocolCodec codec() {
                return codec;
            }

            @Override
            public void send(String sourceAgent, String sourceQMgr, Message m) throws JMSException {
                producer.send(dataSession.createQueue(QueueNames.reply(sourceAgent)), m);
            }
        };
        AgentListener listener = new AgentListener() {
            @Override
            public void transferEnded(String agent, Role role, TransferOutcome outcome) {
                ended.add(outcome);
            }
        };
        return new DestinationContext(new DestinationSettings("DST", "QMHAND", false, 25, 1000), listener,
                new PathResolver(dir, SandboxRules.unrestricted()), state.port, Clock.systemUTC(), c, replies,
                new EngineStatus() {
                    @Override
                    public boolean stopping() {
                        return false;
                    }

                    @Override
                    public boolean connectionLost() {
                        return false;
                    }
                });
    }

    private Path out(int item) {
        return dir.resolve("out" + item);
    }

    /**
     * Sends item {@code item} to {@code target}, {@code chunks} chunks of {@value #CHUNK} bytes
     * from message {@code firstSeq}, with {@code exist} ("error" or "overwrite").
     */
    private void item(DestinationTransfer t, int item, Path target, String exist, long firstSeq, int chunks)
            throws JMSException {
        for (int c = 0; c < chunks; c++) {
            boolean first = c == 0;
            boolean last = c == chunks - 1;
            ItemHeader h = first ? new ItemHeader(target.toString(), "file", null, exist, "none", "binary",
                    "/in/" + item, (long) chunks * CHUNK) : null;
            byte[] body = new byte[CHUNK];
            Arrays.fill(body, (byte) ('a' + item));
            t.onSequenced(new Sequenced(false, 0, firstSeq + c, item, (long) c * CHUNK, first, last, h,
                    last ? (long) chunks * CHUNK : -1, null, null, 1), body, CHUNK);
        }
    }

    private void item(DestinationTransfer t, int item, long firstSeq, int chunks) throws JMSException {
        item(t, item, out(item), "error", firstSeq, chunks);
    }

    /** The answers on the source's REPLY queue, oldest first, left there. */
    private List<Control> answers() throws JMSException {
        List<Control> out = new ArrayList<>();
        for (Message m : answerMessages()) {
            out.add(ProtocolCodec.readControl(m, null));
        }
        return out;
    }

    /** The messages on the source's REPLY queue, oldest first, left there. */
    private List<Message> answerMessages() throws JMSException {
        List<Message> out = new ArrayList<>();
        try (Session s = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                QueueBrowser b = s.createBrowser(s.createQueue(REPLY))) {
            Enumeration<?> e = b.getEnumeration();
            while (e.hasMoreElements()) {
                out.add((Message) e.nextElement());
            }
        }
        return out;
    }

    private List<Integer> itemsDone() throws JMSException {
        return answers().stream().filter(c -> c.type().equals(Wire.ITEM_DONE)).map(Control::item).toList();
    }

    private List<Long> acks() throws JMSException {
        return answers().stream().filter(c -> c.type().equals(Wire.ACK)).map(Control::seq).toList();
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        org.openmft.agent.Poll.until(what, java.time.Duration.ofSeconds(30), condition);
    }

    /** A thread of its own playing the DATA dispatcher, when it is to wait for a force. */
    static final class DataThread {
        final CompletableFuture<Void> done = new CompletableFuture<>();
        private final Thread thread;

        DataThread(Step step) {
            thread = new Thread(() -> {
                try {
                    step.run();
                    done.complete(null);
                } catch (Throwable e) {
                    done.completeExceptionally(e);
                }
            }, "test-data");
            thread.start();
        }

        /** Whether it waits now for an item's force to end. */
        boolean waitingForAForce() {
            return Arrays.stream(thread.getStackTrace()).anyMatch(f -> f.getClassName()
                    .equals(FinishingItem.class.getName()) && f.getMethodName().equals("awaitForce"));
        }

        /** Whether it waits now for the pending checkpoint to be durable. */
        boolean waitingForACheckpoint() {
            return Arrays.stream(thread.getStackTrace()).anyMatch(f -> f.getClassName()
                    .equals(DurabilityGate.class.getName()) && f.getMethodName().equals("await"));
        }

        void join() throws Exception {
            done.get(30, TimeUnit.SECONDS);
        }
    }

    interface Step {
        void run() throws Exception;
    }

    @Test
    void theNextItemIsWrittenWhileTheLastIsForcedAndNothingIsRenamedOrAnsweredBeforeItsForce() throws Exception {
        // A window of one: every chunk is acknowledged; no checkpoint within the transfer.
        DestinationTransfer t = start(3, 1, 100);

        item(t, 0, 0, 2);
        item(t, 1, 2, 2);

        assertThat(forces.held()).as("item 0's and item 1's forces handed over").isEqualTo(2);
        assertThat(acks()).as("the DATA thread went on: item 1's chunks acknowledged").contains(2L, 3L);
        assertThat(Files.readString(dir.resolve("out1.part"))).isEqualTo("bbbbbbbb");
        assertThat(out(0)).as("not renamed before it is forced").doesNotExist();
        assertThat(Files.readString(dir.resolve("out0.part"))).isEqualTo("aaaaaaaa");
        assertThat(itemsDone()).as("no answer before the item is final").isEmpty();
        assertThat(state.lines()).as("nothing journaled before the force").noneMatch(l -> l.startsWith("rename"));

        forces.release();
        // The dispatcher's tick: it settles what is forced, without waiting.
        await("both items settled once forced", () -> {
            try {
                t.settleForced();
                return t.resultCount() == 2;
            } catch (JMSException e) {
                throw new IllegalStateException(e);
            }
        });

        assertThat(itemsDone()).containsExactly(0, 1);
        assertThat(state.lines()).containsSubsequence("rename 0", "result 0", "rename 1", "result 1");
        assertThat(Files.readString(out(0))).isEqualTo("aaaaaaaa");
        assertThat(dir.resolve("out0.part")).doesNotExist();

        // The transfer's last item is finished at once, after the ones before it.
        item(t, 2, 4, 2);
        assertThat(itemsDone()).containsExactly(0, 1, 2);
        assertThat(ended).singleElement().satisfies(o -> assertThat(o.resultCode()).isZero());
        assertThat(Files.readString(out(2))).isEqualTo("cccccccc");
    }

    @Test
    void aCheckpointAcknowledgementIsTaggedWithTheKeyItFoundEvenWhenTheTransferEndsWhileItIsBuilt() throws Exception {
        // The checkpointer finds the transfer's key once; any later look-up finds none, as when the
        // transfer ends on the DATA thread meanwhile. An acknowledgement sent untagged would be
        // dropped by the source as forged (and warned of), so it is tagged with the key found, or
        // not sent at all.
        AtomicInteger lookups = new AtomicInteger();
        DestinationTransfer t = start(2, 1, 2, id -> lookups.getAndIncrement() == 0 ? KEY : null);
        // A checkpoint at message 1, in the middle of item 0.
        item(t, 0, 0, 4);

        await("the checkpoint's acknowledgement", () -> {
            try {
                return answers().stream().anyMatch(c -> c.type().equals(Wire.ACK) && c.checkpoint());
            } catch (JMSException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(answers()).filteredOn(Control::checkpoint).singleElement()
                .satisfies(c -> assertThat(c.seq()).isEqualTo(1L));
        for (Message m : answerMessages()) {
            assertThat(MessageTag.verify(m, KEY)).as("every answer tagged with the transfer's key: %s",
                    m.getStringProperty(Wire.TYPE)).isTrue();
        }
    }

    @Test
    void aCheckpointWaitsForTheItemsHandedOverBeforeIt() throws Exception {
        // A checkpoint every four messages: at message 3, in the middle of item 1, after item 0 was
        // handed over.
        DestinationTransfer t = start(3, 1, 4);
        item(t, 0, 0, 2);
        DataThread data = new DataThread(() -> item(t, 1, 2, 3));

        await("the DATA thread waiting for item 0's force at the checkpoint", data::waitingForAForce);
        assertThat(Files.readString(dir.resolve("out1.part"))).as("item 1 written up to the checkpoint")
                .isEqualTo("bbbbbbbb");
        assertThat(acks()).as("the checkpoint's acknowledgement waits too").doesNotContain(3L);
        assertThat(state.lines()).as("no record past item 0 while it is not final")
                .doesNotContain("record 4").noneMatch(l -> l.startsWith("result"));

        forces.release();
        data.join();
        await("the checkpoint saved", () -> state.lines().contains("record 4"));

        assertThat(state.lines()).containsSubsequence("rename 0", "result 0", "record 4");
        assertThat(itemsDone()).startsWith(0);
        // Recovery from this record finds item 0 done and resumes after the checkpoint.
        assertThat(DestinationRecovery.recover(context(null))).singleElement().satisfies(r -> {
            assertThat(r.hasResult(0)).isTrue();
            assertThat(r.expectedSeq()).isEqualTo(4);
        });
    }

    @Test
    void anAgentStopWhileItemsAreHandedOverKeepsTheirRecordBeforeThemAndThemUnrenamed() throws Exception {
        DestinationTransfer t = start(3, 1, 100);
        item(t, 0, 0, 2);
        item(t, 1, 2, 2);

        // Their forces end, but the agent stops before the DATA thread settles them.
        forces.release();
        t.suspend();

        assertThat(itemsDone()).isEmpty();
        assertThat(state.lines()).noneMatch(l -> l.startsWith("result") || l.startsWith("rename"));
        assertThat(out(0)).doesNotExist();
        assertThat(out(1)).doesNotExist();
        // Both are received again from the record saved at the start.
        assertThat(DestinationRecovery.recover(context(null))).singleElement().satisfies(r -> {
            assertThat(r.expectedSeq()).isZero();
            assertThat(r.resultCount()).isZero();
        });
    }

    @Test
    void twoItemsToOneNameTakeTurnsAndTheSecondOverwritesTheFirst() throws Exception {
        DestinationTransfer t = start(3, 1, 100);
        Path same = dir.resolve("same");
        item(t, 0, same, "overwrite", 0, 2);
        DataThread data = new DataThread(() -> item(t, 1, same, "overwrite", 2, 2));

        await("item 1 held at its start until item 0 is final", data::waitingForAForce);
        assertThat(Files.readString(dir.resolve("same.part"))).as("item 0's file untouched").isEqualTo("aaaaaaaa");

        forces.release();
        data.join();
        item(t, 2, 4, 1);

        assertThat(Files.readString(same)).isEqualTo("bbbbbbbb");
        assertThat(ended).singleElement().satisfies(o -> assertThat(o.items())
                .extracting(ItemOutcome::resultCode).containsOnly(ItemOutcome.SUCCESS));
    }

    @Test
    void aFileThatAppearedUnderTheNameWhileForcingFailsTheItemAsBeforeAndTheNextGoesOn() throws Exception {
        DestinationTransfer t = start(3, 1, 100);
        item(t, 0, 0, 2);
        Files.writeString(out(0), "someone else's");
        forces.release();
        item(t, 1, 2, 2);
        item(t, 2, 4, 1);

        ItemOutcome failed = ended.get(0).items().get(0);
        assertThat(failed.resultCode()).isEqualTo(ItemOutcome.FAILED);
        assertThat(failed.supplement()).isEqualTo("BFGIO0006E: File \"" + out(0) + "\" already exists.");
        assertThat(Files.readString(out(0))).isEqualTo("someone else's");
        assertThat(dir.resolve("out0.part")).doesNotExist();
        assertThat(Files.readString(out(1))).isEqualTo("bbbbbbbb");
        assertThat(itemsDone()).containsExactly(0, 1, 2);
    }

    @Test
    void aCancelWhileAnItemIsForcedFinishesItAndAnswersItFirst() throws Exception {
        DestinationTransfer t = start(3, 1, 100);
        item(t, 0, 0, 2);

        DataThread cancel = new DataThread(() -> t.cancel("stopped"));
        await("the cancel waiting for item 0's force", cancel::waitingForAForce);
        assertThat(answers()).extracting(Control::type).doesNotContain(Wire.CANCELLED);
        forces.release();
        cancel.join();

        assertThat(answers()).extracting(Control::type).containsSubsequence(Wire.ITEM_DONE, Wire.CANCELLED)
                .doesNotContainSequence(Wire.CANCELLED, Wire.ITEM_DONE);
        assertThat(ended).singleElement().satisfies(o -> {
            assertThat(o.resultCode()).isEqualTo(ResultCode.CANCELLED.code());
            assertThat(o.items()).extracting(ItemOutcome::index).containsExactly(0);
        });
        assertThat(Files.readString(out(0))).isEqualTo("aaaaaaaa");
    }

    @Test
    void anAcknowledgementPastACheckpointNotYetDurableWaitsButTheDataThreadGoesOnUntilTheNextCheckpoint()
            throws Exception {
        // Every message acknowledged, a checkpoint every four: at messages 3 and 7.
        DestinationTransfer t = start(1, 1, 4);
        state.holdRecord(4);
        DataThread data = new DataThread(() -> chunks(t, 0, 7));

        data.join();
        assertThat(Files.readString(dir.resolve("out0.part"))).as("written on, past the checkpoint")
                .isEqualTo("a".repeat(7 * CHUNK));
        assertThat(acknowledgements()).as("the checkpoint's own number acknowledged at once; the ones a window past"
                + " it wait for its record").containsExactly("0", "1", "2", "3");

        // The next checkpoint waits for this one: never two checkpoints not yet durable.
        DataThread next = new DataThread(() -> chunks(t, 7, 8));
        await("the DATA thread waiting at the next checkpoint", next::waitingForACheckpoint);
        assertThat(acknowledgements()).containsExactly("0", "1", "2", "3");

        state.releaseRecords();
        next.join();
        await("the checkpoint at 7 acknowledged", () -> acknowledgements().contains("7 checkpoint"));
        // After the checkpoint's acknowledgement, the one that waited for it (the latest); then 7.
        assertThat(acknowledgements()).containsSubsequence("3", "3 checkpoint", "6").contains("7")
                .doesNotContain("4", "5").endsWith("7 checkpoint");
        assertThat(state.lines()).containsSubsequence("record 4", "record 8");
    }

    /** Chunks {@code from} to {@code to} (excluded) of a 12-chunk item 0. */
    private void chunks(DestinationTransfer t, long from, long to) throws JMSException {
        for (long c = from; c < to; c++) {
            ItemHeader h = c == 0 ? new ItemHeader(out(0).toString(), "file", null, "error", "none", "binary",
                    "/in/0", 12L * CHUNK) : null;
            byte[] body = new byte[CHUNK];
            Arrays.fill(body, (byte) 'a');
            t.onSequenced(new Sequenced(false, 0, c, 0, c * CHUNK, c == 0, false, h, -1, null, null, 1), body, CHUNK);
        }
    }

    /** The acknowledgements on the REPLY queue in order: the number, marked {@code checkpoint} if so. */
    private List<String> acknowledgements() {
        try {
            return answers().stream().filter(c -> c.type().equals(Wire.ACK))
                    .map(c -> c.seq() + (c.checkpoint() ? " checkpoint" : "")).toList();
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Forces wait here until {@link #release}; from then on they run at once. */
    static final class HeldForces implements Executor {
        private final LinkedBlockingQueue<Runnable> held = new LinkedBlockingQueue<>();
        private volatile boolean released;

        @Override
        public synchronized void execute(Runnable force) {
            if (released) {
                new Thread(force, "test-force").start();
            } else {
                held.add(force);
            }
        }

        int held() {
            return held.size();
        }

        synchronized void release() {
            released = true;
            Runnable r;
            while ((r = held.poll()) != null) {
                new Thread(r, "test-force").start();
            }
        }
    }

    /**
     * The in-memory state store, noting in order each rename and result journaled
     * ({@code rename <item>}, {@code result <item>}) and each record saved ({@code record <next>});
     * the saves of records from a number on can be held until released.
     */
    static final class NotingStore {
        private final InMemoryStateStore store = new InMemoryStateStore();
        private final List<String> lines = new CopyOnWriteArrayList<>();
        private final CountDownLatch released = new CountDownLatch(1);
        private volatile long holdFrom = Long.MAX_VALUE;
        final TransferStateStore port = (TransferStateStore) Proxy.newProxyInstance(
                NotingStore.class.getClassLoader(), new Class<?>[] {TransferStateStore.class}, this::invoke);

        List<String> lines() {
            return lines;
        }

        /** Saves of records whose next message is {@code nextSeq} or later wait for {@link #releaseRecords}. */
        void holdRecord(long nextSeq) {
            holdFrom = nextSeq;
        }

        void releaseRecords() {
            released.countDown();
        }

        private Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            Object arg = args != null && args.length > 0 ? args[args.length - 1] : null;
            if (arg instanceof StateFiles.Rename r) {
                lines.add("rename " + r.item());
            } else if (arg instanceof StateFiles.Result r && method.getName().equals("appendDestinationResult")) {
                lines.add("result " + r.outcome().index());
            } else if (arg instanceof org.openmft.agent.transfer.state.DestinationRecord r
                    && method.getName().equals("saveDestination")) {
                if (r.nextSeq() >= holdFrom && !released.await(30, TimeUnit.SECONDS)) {
                    throw new AssertionError("record " + r.nextSeq() + " held for 30 s");
                }
                lines.add("record " + r.nextSeq());
            }
            try {
                return method.invoke(store, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }
}
