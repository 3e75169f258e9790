package org.openmft.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.openmft.agent.config.AgentConfig;
import org.openmft.agent.config.MqscScripts;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.xml.PingAgentRequest;
import org.openmft.xml.Reply;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.images.builder.Transferable;

/**
 * The IBM MQ path for real: an agent in client mode against IBM's MQ container, its queues defined
 * by the MQSC that fteCreateAgent writes, answering a ping. Needs a Docker engine; where there is
 * none the test is skipped and says so. (IBM's mq-java-testcontainer module is not on Maven
 * Central, so the image runs through Testcontainers' generic container.)
 */
class IbmMqConnectionIT {
    static final String IMAGE = "icr.io/ibm-messaging/mq:9.4.5.0-r2";

    static void needsDocker() {
        boolean docker;
        try {
            docker = DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException e) {
            docker = false;
        }
        if (!docker) {
            System.err.println("IbmMqConnectionIT skipped: no Docker engine is available to run IBM MQ (" + IMAGE + ")");
        }
        Assumptions.assumeTrue(docker, "skipped: no Docker engine is available to run IBM MQ (" + IMAGE + ")");
    }

    @Test
    void clientAgentOnIbmMqAnswersPing() throws Exception {
        needsDocker();
        String mqsc = MqscScripts.createScript("IBMAGENT")
                + "SET AUTHREC PROFILE('SYSTEM.FTE.**') OBJTYPE(QUEUE) PRINCIPAL('app') AUTHADD(ALL)\n"
                + "SET AUTHREC PROFILE('SYSTEM.DEFAULT.MODEL.QUEUE') OBJTYPE(QUEUE) PRINCIPAL('app')"
                + " AUTHADD(DSP,GET,PUT,INQ)\n";
        try (GenericContainer<?> mq = new GenericContainer<>(IMAGE)
                .withEnv("LICENSE", "accept").withEnv("MQ_QMGR_NAME", "QM1")
                .withEnv("MQ_APP_PASSWORD", "passw0rd").withEnv("MQ_ADMIN_PASSWORD", "passw0rd")
                .withEnv("MQ_ENABLE_EMBEDDED_WEB_SERVER", "false")
                .withCopyToContainer(Transferable.of(mqsc), "/etc/mqm/90-openmft.mqsc")
                .withExposedPorts(1414)
                .waitingFor(Wait.forLogMessage(".*Started web server.*|.*AMQ5026I.*|.*AMQ8024I.*", 1))
                .withStartupTimeout(Duration.ofMinutes(3))) {
            mq.start();
            AgentConfig config = AgentConfig.from(Map.of("agentName", "IBMAGENT", "agentQMgr", "QM1",
                    "agentQMgrHost", mq.getHost(), "agentQMgrPort", String.valueOf(mq.getMappedPort(1414)),
                    "agentQMgrChannel", "DEV.APP.SVRCONN", "agentQMgrProvider", "ibmmq"), Map.of());
            QueueManagerConnector connector = QueueManagerConnector.forAgent(config.endpoint(),
                    new org.openmft.agent.credentials.Credentials("app", "passw0rd"));
            Agent agent = new Agent(config, connector, null, java.nio.file.Files.createTempDirectory("ibm-state"));
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
}
