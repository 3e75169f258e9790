package org.openmft.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.AgentConfig;
import org.openmft.agent.config.MqscScripts;
import org.openmft.agent.credentials.Credentials;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.xml.AgentRef;
import org.openmft.xml.ChecksumMethod;
import org.openmft.xml.DestinationType;
import org.openmft.xml.Disposition;
import org.openmft.xml.ExistAction;
import org.openmft.xml.ItemDestination;
import org.openmft.xml.ItemSource;
import org.openmft.xml.Mode;
import org.openmft.xml.PingAgentRequest;
import org.openmft.xml.Reply;
import org.openmft.xml.StopAgentRequest;
import org.openmft.xml.TransferItem;
import org.openmft.xml.TransferRequest;
import org.openmft.xml.TransferSet;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.Container;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.images.builder.Transferable;

/**
 * The IBM MQ path for real: agents in client mode against IBM's MQ container, their queues defined
 * by the MQSC that fteCreateAgent writes. Needs a Docker engine; where there is none the tests are
 * skipped and say so. (IBM's mq-java-testcontainer module is not on Maven Central, so the image
 * runs through Testcontainers' generic container.)
 */
class IbmMqConnectionIT {
    static final String IMAGE = "icr.io/ibm-messaging/mq:9.4.5.0-r2";
    /** The container's application user, which both connects the agents and sends the requests. */
    static final Credentials APP = new Credentials("app", "passw0rd");

    @TempDir
    Path dir;

    static void needsDocker() {
        boolean docker;
        try {
            docker = DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException e) {
            docker = false;
        }
        if (!docker) {
            System.err.println("IBM MQ integration test skipped: no Docker engine is available to run IBM MQ (" + IMAGE + ")");
        }
        Assumptions.assumeTrue(docker, "skipped: no Docker engine is available to run IBM MQ (" + IMAGE + ")");
    }

    /** QM1 with an agent's queues, the app user allowed on them and on temporary queues, and {@code extra}. */
    static GenericContainer<?> queueManager(String agent, String extra) {
        return queueManager("QM1", agent, extra);
    }

    /** Queue manager {@code qmgr} with an agent's queues, the app user allowed on them and on temporary queues. */
    static GenericContainer<?> queueManager(String qmgr, String agent, String extra) {
        String mqsc = MqscScripts.createScript(agent)
                + "SET AUTHREC PROFILE('SYSTEM.FTE.**') OBJTYPE(QUEUE) PRINCIPAL('app') AUTHADD(ALL)\n"
                + "SET AUTHREC PROFILE('SYSTEM.DEFAULT.MODEL.QUEUE') OBJTYPE(QUEUE) PRINCIPAL('app')"
                + " AUTHADD(DSP,GET,PUT,INQ)\n" + extra;
        return new GenericContainer<>(IMAGE)
                .withEnv("LICENSE", "accept").withEnv("MQ_QMGR_NAME", qmgr)
                .withEnv("MQ_APP_PASSWORD", APP.password()).withEnv("MQ_ADMIN_PASSWORD", "passw0rd")
                .withEnv("MQ_ENABLE_EMBEDDED_WEB_SERVER", "false")
                .withCopyToContainer(Transferable.of(mqsc), "/etc/mqm/90-openmft.mqsc")
                .withExposedPorts(1414)
                .waitingFor(Wait.forLogMessage(".*Started web server.*|.*AMQ5026I.*|.*AMQ8024I.*", 1))
                .withStartupTimeout(Duration.ofMinutes(3));
    }

    static AgentConfig config(GenericContainer<?> mq, String agent, Map<String, String> more) throws Exception {
        Map<String, String> raw = new HashMap<>(Map.of("agentName", agent, "agentQMgr", "QM1",
                "agentQMgrHost", mq.getHost(), "agentQMgrPort", String.valueOf(mq.getMappedPort(1414)),
                "agentQMgrChannel", "DEV.APP.SVRCONN", "agentQMgrProvider", "ibmmq"));
        raw.putAll(more);
        return AgentConfig.from(raw, Map.of());
    }

    @Test
    void clientAgentOnIbmMqAnswersPing() throws Exception {
        needsDocker();
        try (GenericContainer<?> mq = queueManager("IBMAGENT", "")) {
            mq.start();
            AgentConfig config = config(mq, "IBMAGENT", Map.of());
            QueueManagerConnector connector = QueueManagerConnector.forAgent(config.endpoint(), APP);
            Agent agent = new Agent(config, connector, null, Files.createDirectories(dir.resolve("state")));
            agent.start();
            try {
                assertThat(agent.state()).isEqualTo(AgentState.READY);
                Reply pong = AgentIT.request(connector, "SYSTEM.FTE.COMMAND.IBMAGENT",
                        new PingAgentRequest("6.00", AgentIT.ME, "IBMAGENT", "QM1", null), 30_000);
                assertThat(pong).isNotNull();
                assertThat(pong.resultCode()).isZero();
            } finally {
                agent.close();
            }
        }
    }

    /**
     * {@code authorityChecking=true} on IBM MQ: the authority records of the agent's AUTH queues
     * decide, through the agent's alternate-user opens. The app user may transfer (browse on
     * AUTHTRN1, put and browse on AUTHAGT1 through the generic profile) but not stop the agent (a
     * specific AUTHADM1 profile with inquire only), until an administrator adds browse.
     */
    @Test
    void authorityRecordsOfTheAuthQueuesDecideOnIbmMq() throws Exception {
        needsDocker();
        try (GenericContainer<?> mq = queueManager("IBMAUTH",
                "SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('app') AUTHADD(ALTUSR)\n"
                        + "SET AUTHREC PROFILE('SYSTEM.FTE.AUTHADM1.IBMAUTH') OBJTYPE(QUEUE) PRINCIPAL('app')"
                        + " AUTHADD(INQ)\n")) {
            mq.start();
            AgentConfig config = config(mq, "IBMAUTH", Map.of("authorityChecking", "true"));
            QueueManagerConnector connector = QueueManagerConnector.forAgent(config.endpoint(), APP);
            Agent agent = new Agent(config, connector, null, Files.createDirectories(dir.resolve("state")));
            agent.start();
            try {
                assertThat(agent.state()).as("the agent's user has +altusr and +inq").isEqualTo(AgentState.READY);

                Reply refused = AgentIT.request(connector, "SYSTEM.FTE.COMMAND.IBMAUTH",
                        new StopAgentRequest("6.00", AgentIT.ME, "IBMAUTH", false, null), 30_000);
                assertThat(refused.resultCode()).isEqualTo(53);
                assertThat(refused.supplements()).singleElement().asString()
                        .contains("User app does not have the authority (ADMINISTRATION)")
                        .contains("browse on SYSTEM.FTE.AUTHADM1.IBMAUTH");
                assertThat(agent.state()).isIn(AgentState.READY, AgentState.ACTIVE);

                Path source = Files.writeString(dir.resolve("in.txt"), "payroll\n");
                Path target = dir.resolve("out.txt");
                TransferRequest transfer = new TransferRequest("6.00", AgentIT.ME, new AgentRef("IBMAUTH", "QM1"),
                        new AgentRef("IBMAUTH", "QM1"), null, new TransferSet(0, null, Map.of(), List.of(
                                new TransferItem(Mode.BINARY, ChecksumMethod.MD5,
                                        new ItemSource(false, Disposition.LEAVE, source.toString(), null),
                                        new ItemDestination(DestinationType.FILE, ExistAction.ERROR,
                                                target.toString(), null, null)))), null);
                Reply ack = AgentIT.request(connector, "SYSTEM.FTE.COMMAND.IBMAUTH", transfer, 30_000);
                assertThat(ack.resultCode()).as("%s", ack.supplements()).isZero();
                // The destination renames the verified file to its name: it exists only when whole.
                AgentIT.await("the transferred file " + target, () -> Files.exists(target));
                assertThat(target).hasContent("payroll");

                Container.ExecResult granted = mq.execInContainer("bash", "-c", "printf \"%s\\n%s\\n\" \"SET AUTHREC"
                        + " PROFILE('SYSTEM.FTE.AUTHADM1.IBMAUTH') OBJTYPE(QUEUE) PRINCIPAL('app') AUTHADD(BROWSE)\""
                        + " \"REFRESH SECURITY TYPE(AUTHSERV)\" | runmqsc QM1");
                assertThat(granted.getExitCode()).as(granted.getStdout()).isZero();
                Reply stopped = AgentIT.request(connector, "SYSTEM.FTE.COMMAND.IBMAUTH",
                        new StopAgentRequest("6.00", AgentIT.ME, "IBMAUTH", false, null), 30_000);
                assertThat(stopped.resultCode()).as("%s", stopped.supplements()).isZero();
                assertThat(agent.awaitStopped(Duration.ofSeconds(30))).as("the agent stopped").isTrue();
            } finally {
                agent.close();
            }
        }
    }
}
