package org.openmft.agent.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;

import org.junit.jupiter.api.Test;
import org.openmft.agent.Agent;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;

class AgentThreadsTest {
    private static final Duration BOUND = Duration.ofSeconds(10);

    @Test
    void threadsAreNamedAfterTheirOwnerAndRole() {
        AgentThreads threads = AgentThreads.forAgent("SRC", AgentThreads.FailureListener.NONE);
        Thread command = threads.newThread("command", () -> { });
        assertThat(command.getName()).isEqualTo("openmft-SRC-command");
        assertThat(command.isDaemon()).isFalse();
        assertThat(command.getState()).isEqualTo(Thread.State.NEW);
        Thread publisher = threads.newDaemonThread("publisher", () -> { });
        assertThat(publisher.getName()).isEqualTo("openmft-SRC-publisher");
        assertThat(publisher.isDaemon()).isTrue();
        assertThat(AgentThreads.forProcess("QM1").newThread("host", () -> { }).getName()).isEqualTo("openmft-QM1-host");
        assertThat(threads.owner()).isEqualTo("SRC");
    }

    @Test
    void aPoolFactoryNumbersItsThreadsFromOne() {
        ThreadFactory factory = AgentThreads.forAgent("DST", null).factory("transfer", true);
        Thread first = factory.newThread(() -> { });
        Thread second = factory.newThread(() -> { });
        assertThat(first.getName()).isEqualTo("openmft-DST-transfer-1");
        assertThat(second.getName()).isEqualTo("openmft-DST-transfer-2");
        assertThat(first.isDaemon()).isTrue();
        assertThat(AgentThreads.forAgent("DST", null).factory("io", false).newThread(() -> { }).isDaemon()).isFalse();
    }

    @Test
    void anUncaughtExceptionIsLoggedToTheAgentsLogAndReported() {
        List<String> reported = new CopyOnWriteArrayList<>();
        IllegalStateException boom = new IllegalStateException("boom");
        AgentThreads threads = AgentThreads.forAgent("SRC", (t, e) -> reported.add(t.getName() + ": " + e.getMessage()));
        try (CapturedLog captured = new CapturedLog(AgentThreads.class)) {
            Thread t = threads.newThread("replies", () -> {
                throw boom;
            });
            assertThat(t.getUncaughtExceptionHandler()).isSameAs(threads.uncaughtExceptionHandler());
            t.start();
            assertThat(BoundedJoin.join(List.of(t), BOUND)).isEmpty();

            assertThat(reported).containsExactly("openmft-SRC-replies: boom");
            ILoggingEvent event = captured.events().get(0);
            assertThat(event.getLevel()).isEqualTo(Level.ERROR);
            assertThat(event.getFormattedMessage())
                    .isEqualTo("Agent SRC: thread openmft-SRC-replies ended with an unexpected error");
            assertThat(event.getThrowableProxy().getMessage()).isEqualTo("boom");
            // Tagged with the agent, so the agent's own log file takes it.
            assertThat(event.getMDCPropertyMap()).containsEntry(Agent.MDC_AGENT, "SRC");
        }
    }

    @Test
    void aDaemonThatIsNotAnAgentLogsUntagged() {
        try (CapturedLog captured = new CapturedLog(AgentThreads.class)) {
            Thread t = AgentThreads.forProcess("QM1").newThread("host", () -> {
                throw new IllegalStateException("lost");
            });
            t.start();
            assertThat(BoundedJoin.join(List.of(t), BOUND)).isEmpty();
            ILoggingEvent event = captured.events().get(0);
            assertThat(event.getFormattedMessage()).isEqualTo("QM1: thread openmft-QM1-host ended with an unexpected error");
            assertThat(event.getMDCPropertyMap()).doesNotContainKey(Agent.MDC_AGENT);
        }
    }

    @Test
    void aListenerThatFailsTooIsLoggedAndTheThreadStillEnds() {
        AgentThreads threads = AgentThreads.forAgent("SRC", (t, e) -> {
            throw new IllegalArgumentException("listener broken");
        });
        try (CapturedLog captured = new CapturedLog(AgentThreads.class)) {
            Thread t = threads.factory("worker", true).newThread(() -> {
                throw new IllegalStateException("first");
            });
            t.start();
            assertThat(BoundedJoin.join(List.of(t), BOUND)).isEmpty();
            assertThat(captured.events()).extracting(ILoggingEvent::getLevel).containsExactly(Level.ERROR, Level.WARN);
            assertThat(captured.events().get(1).getFormattedMessage()).contains("openmft-SRC-worker-1");
        }
    }

    @Test
    void aThreadNeedsARoleAndAnOwner() {
        AgentThreads threads = AgentThreads.forAgent("SRC", null);
        assertThatThrownBy(() -> threads.newThread("", () -> { })).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> threads.newThread(null, () -> { })).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AgentThreads.forProcess("")).isInstanceOf(IllegalArgumentException.class);
    }
}
