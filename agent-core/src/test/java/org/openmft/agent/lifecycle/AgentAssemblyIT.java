package org.openmft.agent.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.AgentService;
import org.openmft.agent.AgentState;
import org.openmft.agent.config.AgentConfig;
import org.openmft.agent.config.ConfigurationException;
import org.openmft.agent.qmgr.DirectoryLock;
import org.openmft.agent.qmgr.EmbeddedQueueManager;
import org.openmft.agent.qmgr.QueueManagerException;
import org.openmft.agent.qmgr.QueueManagerSettings;

/**
 * The one assembly of an agent (lock, log, service, agent) against a real embedded queue manager in
 * this JVM: what it sets up while the agent runs, and what it undoes when a step fails.
 */
class AgentAssemblyIT {
    @TempDir
    Path dir;

    private final List<String> seen = new CopyOnWriteArrayList<>();

    private Path logDir() throws Exception {
        return Files.createDirectories(dir.resolve("agents/SRC/logs"));
    }

    private AgentLogs recordingLogs() {
        return (config, logDirectory) -> {
            seen.add("log attached " + config.agentName() + " " + logDirectory.getFileName());
            return () -> seen.add("log detached");
        };
    }

    /** A service that records its calls, and the thread its start was given. */
    private final class RecordingService implements AgentService {
        @Override
        public void start() {
            seen.add("service started without threads");
        }

        @Override
        public void start(AgentThreads threads) {
            seen.add("service started with threads of " + threads.owner());
        }

        @Override
        public void stateChanged(String agent, AgentState state) {
            seen.add("state " + state);
        }

        @Override
        public void close() {
            seen.add("service closed");
        }
    }

    private static int freePort() throws java.io.IOException {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static AgentConfig bindings(String name, String qmgr, int port) throws Exception {
        return AgentConfig.from(Map.of("agentName", name, "agentQMgr", qmgr, "agentQMgrPort", String.valueOf(port),
                "immediateShutdownTimeout", "5"), Map.of());
    }

    @Test
    @SuppressWarnings("try") // the queue manager only has to run
    void anAgentRunsWithItsLockLogAndServiceAndCloseUndoesThemOnceStopped() throws Exception {
        int port = freePort();
        try (EmbeddedQueueManager qm = EmbeddedQueueManager.start(
                new QueueManagerSettings("QMS", dir.resolve("qm"), "127.0.0.1", port))) {
            AgentConfig config = bindings("SRC", "QMS", port);
            Path logDir = logDir();
            Optional<AgentAssembly> started = AgentAssembly.tryStart(config, dir.resolve("agent.properties"), logDir,
                    recordingLogs(), (c, p) -> new RecordingService());
            assertThat(started).isPresent();
            AgentAssembly running = started.get();
            assertThat(running.name()).isEqualTo("SRC");
            assertThat(running.agent().state()).isEqualTo(AgentState.READY);
            assertThat(DirectoryLock.isHeld(logDir.getParent(), AgentAssembly.LOCK_NAME)).isTrue();
            assertThat(seen).containsSubsequence("log attached SRC logs", "state READY",
                    "service started with threads of SRC");
            assertThat(AgentAssembly.tryStart(config, dir.resolve("agent.properties"), logDir, recordingLogs(), null))
                    .as("a second start of the same agent finds its lock held").isEmpty();

            running.agent().close();
            assertThat(running.agent().awaitStopped(Duration.ofSeconds(10))).isTrue();
            running.close();
            running.close();
            assertThat(seen).containsSubsequence("state STOPPED", "service closed", "log detached");
            assertThat(seen).filteredOn("log detached"::equals).hasSize(1);
            assertThat(DirectoryLock.isHeld(logDir.getParent(), AgentAssembly.LOCK_NAME)).isFalse();
        }
    }

    @Test
    void anAgentThatCannotReachItsQueueManagerLeavesNothingBehind() throws Exception {
        // A bindings agent whose queue manager does not run in this process: exit code 75.
        AgentConfig config = bindings("SRC", "QMABSENT", 1414);
        Path logDir = logDir();
        assertThatThrownBy(() -> AgentAssembly.tryStart(config, dir.resolve("agent.properties"), logDir,
                recordingLogs(), (c, p) -> new RecordingService()))
                .isInstanceOf(QueueManagerException.class)
                .satisfies(e -> assertThat(((QueueManagerException) e).exitCode()).isEqualTo(75));
        assertThat(seen).containsExactly("log attached SRC logs", "service closed", "log detached");
        assertThat(DirectoryLock.isHeld(logDir.getParent(), AgentAssembly.LOCK_NAME)).isFalse();
    }

    @Test
    void aServiceThatCannotBeCreatedLeavesNothingBehind() throws Exception {
        AgentConfig config = bindings("SRC", "QMABSENT", 1414);
        Path logDir = logDir();
        assertThatThrownBy(() -> AgentAssembly.tryStart(config, dir.resolve("agent.properties"), logDir,
                recordingLogs(), (c, p) -> {
                    throw new ConfigurationException("coordination.properties: bad", null, null);
                }))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("bad");
        assertThat(seen).containsExactly("log attached SRC logs", "log detached");
        assertThat(DirectoryLock.isHeld(logDir.getParent(), AgentAssembly.LOCK_NAME)).isFalse();
    }
}
