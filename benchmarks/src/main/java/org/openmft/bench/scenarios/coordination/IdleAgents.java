package org.openmft.bench.scenarios.coordination;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.openmft.agent.Agent;
import org.openmft.agent.AgentState;
import org.openmft.agent.config.AgentConfig;
import org.openmft.agent.config.CoordinationConfig;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.EmbeddedQueueManager;
import org.openmft.agent.qmgr.QueueManagerSettings;
import org.openmft.coordination.publish.CoordinationPublisher;

/**
 * What N idle agents hosted in one JVM cost (docs/idle-agents.md): the coordination scenario's
 * set-up without the transfers. One agent queue manager ({@code QMAGENT}, agents in bindings mode),
 * one coordination queue manager ({@code QMCOORD}, TCP), N agents with a coordination publisher
 * each, all READY; then a GC and an idle window. Prints live threads (and by role), the agent
 * queue manager's connection count, heap in use after a GC, RSS, and the process's busy cores over
 * the window.
 *
 * <p>{@code java -cp ... org.openmft.bench.scenarios.coordination.IdleAgents N IDLE_SECONDS DIR}
 */
public final class IdleAgents {
    private IdleAgents() {
    }

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        int idleSeconds = Integer.parseInt(args[1]);
        Path root = Files.createTempDirectory(Path.of(args[2]), "idle");
        EmbeddedQueueManager agentQm = EmbeddedQueueManager.start(new QueueManagerSettings("QMAGENT",
                root.resolve("qm-agent"), "127.0.0.1", freePort()));
        int coordPort = freePort();
        EmbeddedQueueManager coordQm = EmbeddedQueueManager.start(new QueueManagerSettings("QMCOORD",
                root.resolve("qm-coordination"), "127.0.0.1", coordPort));
        CoordinationConfig coordination = CoordinationConfig.from(Map.of("coordinationQMgr", "QMCOORD",
                "coordinationQMgrHost", "127.0.0.1", "coordinationQMgrPort", String.valueOf(coordPort),
                "coordinationQMgrAuthenticationCredentialsFile",
                coordQm.users().administratorCredentialsFile().toString()), Map.of());
        System.gc();
        int threads0 = Thread.activeCount();
        int conns0 = connections(agentQm);
        double heap0 = heapMib();
        List<Agent> agents = new ArrayList<>();
        List<CoordinationPublisher> publishers = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            String name = String.format(Locale.ROOT, "IDLE%03d", i);
            AgentConfig config = AgentConfig.from(Map.of("agentName", name, "agentQMgr", "QMAGENT",
                    "immediateShutdownTimeout", "5", "transferRoot", root.resolve("files").toString()), Map.of());
            CoordinationPublisher publisher = CoordinationPublisher.create(config, coordination,
                    root.resolve("qmgrs"), Clock.systemUTC());
            Agent agent = new Agent(config, QueueManagerConnector.forAgent(config.endpoint(), null), publisher,
                    root.resolve("state").resolve(name));
            agent.start();
            publisher.start(agent.threads());
            agents.add(agent);
            publishers.add(publisher);
        }
        while (agents.stream().anyMatch(a -> a.state() != AgentState.READY)) {
            TimeUnit.MILLISECONDS.sleep(50);
        }
        double startSeconds = (System.nanoTime() - t0) / 1e9;
        TimeUnit.SECONDS.sleep(5);
        System.gc();
        int threads = Thread.activeCount();
        int conns = connections(agentQm);
        double heap = heapMib();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpu0 = os.getProcessCpuTime();
        long w0 = System.nanoTime();
        TimeUnit.SECONDS.sleep(idleSeconds);
        double cores = (os.getProcessCpuTime() - cpu0) / (double) (System.nanoTime() - w0);
        System.out.printf(Locale.ROOT, "agents=%d start=%.1fs threads=%d (+%d, %.2f/agent) qmagent-connections=%d"
                + " (+%d, %.2f/agent) heap=%.0fMiB (+%.0f, %.2f MiB/agent) rss=%.0fMiB idle-cores=%.3f over %ds"
                + " load=%s%n", n, startSeconds, threads, threads - threads0, (threads - threads0) / (double) n, conns,
                conns - conns0, (conns - conns0) / (double) n, heap, heap - heap0, (heap - heap0) / n, rssMib(),
                cores, idleSeconds, Files.readString(Path.of("/proc/loadavg")).trim());
        Map<String, Integer> roles = new TreeMap<>();
        for (ThreadInfo t : ManagementFactory.getThreadMXBean().dumpAllThreads(false, false)) {
            String role = t.getThreadName().replaceAll("^Thread-\\d+ \\((.*)\\)$", "$1")
                    .replaceAll("IDLE\\d+", "<agent>").replaceAll("\\d+$", "N");
            roles.merge(role, 1, Integer::sum);
        }
        roles.forEach((role, count) -> System.out.printf(Locale.ROOT, "  %5d %s%n", count, role));
        for (CoordinationPublisher p : publishers) {
            p.close(java.time.Duration.ofSeconds(1));
        }
        agents.parallelStream().forEach(Agent::close);
        coordQm.close();
        agentQm.close();
        System.exit(0);
    }

    private static int connections(EmbeddedQueueManager qm) throws ReflectiveOperationException {
        java.lang.reflect.Field f = EmbeddedQueueManager.class.getDeclaredField("broker");
        f.setAccessible(true);
        return ((EmbeddedActiveMQ) f.get(qm)).getActiveMQServer().getConnectionCount();
    }

    private static double heapMib() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1048576.0;
    }

    private static double rssMib() throws java.io.IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("\\D", "")) / 1024.0;
            }
        }
        return -1;
    }

    private static int freePort() throws java.io.IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
