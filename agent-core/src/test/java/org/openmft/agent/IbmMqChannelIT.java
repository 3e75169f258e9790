package org.openmft.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;

import javax.security.auth.x500.X500Principal;

import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.AgentConfig;
import org.openmft.agent.config.MqscScripts;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.tls.CertificateAuthority;
import org.openmft.xml.AgentRef;
import org.openmft.xml.ChecksumMethod;
import org.openmft.xml.DestinationType;
import org.openmft.xml.Disposition;
import org.openmft.xml.ExistAction;
import org.openmft.xml.ItemDestination;
import org.openmft.xml.ItemSource;
import org.openmft.xml.Mode;
import org.openmft.xml.Reply;
import org.openmft.xml.TransferItem;
import org.openmft.xml.TransferRequest;
import org.openmft.xml.TransferSet;
import org.testcontainers.containers.Container;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.images.builder.Transferable;

/**
 * Two IBM MQ queue managers joined by the channels {@code mft qmgr channel mqsc} writes, for real:
 * QMA and QMB in IBM's container on one Docker network, each with one client-mode agent, the TLS
 * sender and receiver channels both ways defined by {@link MqscScripts#channelScripts} exactly as an
 * administrator would run them with {@code runmqsc}. A transfer from QMA's agent to QMB's arrives
 * whole: its chunks go through QMA.TO.QMB (IBM MQ resolves {@code queue://QMB/...} to the
 * transmission queue {@code QMB}), its acknowledgements come back through QMB.TO.QMA. Needs a Docker engine; where there is none it is skipped and says so
 * (as {@link IbmMqConnectionIT}).
 *
 * <p>The queue managers' certificates come from one CA of the test's making, supplied the way IBM's
 * container takes them ({@code /etc/mqm/pki/keys/<label>} holding {@code tls.key}, {@code tls.crt}
 * and {@code ca.crt}: the container builds the key repository and sets the queue manager's
 * certificate label to the directory's name).
 */
class IbmMqChannelIT {
    private static final String CIPHER = "ANY_TLS12_OR_HIGHER";

    @TempDir
    Path dir;

    @Test
    void agentsOnTwoIbmMqQueueManagersTransferThroughTheChannels() throws Exception {
        IbmMqConnectionIT.needsDocker();
        CertificateAuthority ca = CertificateAuthority.create(new X500Principal("CN=OpenMFT test CA"),
                Instant.now().minus(Duration.ofHours(1)), Instant.now().plus(Duration.ofDays(2)));
        MqscScripts.ChannelScripts toB = MqscScripts.channelScripts("QMA", "QMB", "qmb", 1414, CIPHER, "app");
        MqscScripts.ChannelScripts toA = MqscScripts.channelScripts("QMB", "QMA", "qma", 1414, CIPHER, "app");
        try (Network network = Network.newNetwork();
                GenericContainer<?> qma = queueManager(network, ca, "QMA", "AGENTA", toB.sender() + toA.receiver());
                GenericContainer<?> qmb = queueManager(network, ca, "QMB", "AGENTB", toA.sender() + toB.receiver())) {
            qma.start();
            qmb.start();
            // Each sender started while the other queue manager may not have been up yet: start both now.
            runmqsc(qma, "QMA", "START CHANNEL('QMA.TO.QMB')");
            runmqsc(qmb, "QMB", "START CHANNEL('QMB.TO.QMA')");

            AgentConfig configA = config(qma, "QMA", "AGENTA");
            AgentConfig configB = config(qmb, "QMB", "AGENTB");
            QueueManagerConnector connectorA = QueueManagerConnector.forAgent(configA.endpoint(), IbmMqConnectionIT.APP);
            QueueManagerConnector connectorB = QueueManagerConnector.forAgent(configB.endpoint(), IbmMqConnectionIT.APP);
            Agent agentA = new Agent(configA, connectorA, null, Files.createDirectories(dir.resolve("state-a")));
            Agent agentB = new Agent(configB, connectorB, null, Files.createDirectories(dir.resolve("state-b")));
            agentA.start();
            agentB.start();
            try {
                assertThat(agentA.state()).isEqualTo(AgentState.READY);
                assertThat(agentB.state()).isEqualTo(AgentState.READY);

                byte[] content = new byte[3 << 20];
                new Random(16).nextBytes(content);
                Path source = Files.write(dir.resolve("in.bin"), content);
                Path target = dir.resolve("out.bin");
                TransferRequest transfer = new TransferRequest("6.00", AgentIT.ME, new AgentRef("AGENTA", "QMA"),
                        new AgentRef("AGENTB", "QMB"), null, new TransferSet(0, null, Map.of(), List.of(
                                new TransferItem(Mode.BINARY, ChecksumMethod.MD5,
                                        new ItemSource(false, Disposition.LEAVE, source.toString(), null),
                                        new ItemDestination(DestinationType.FILE, ExistAction.ERROR,
                                                target.toString(), null, null)))), null);
                Reply ack = AgentIT.request(connectorA, "SYSTEM.FTE.COMMAND.AGENTA", transfer, 30_000);
                assertThat(ack.resultCode()).as("%s", ack.supplements()).isZero();
                // The destination renames the verified file to its name: it exists only when whole.
                AgentIT.await("the transferred file " + target, () -> Files.exists(target));
                assertThat(md5(target)).isEqualTo(md5(source));
            } finally {
                agentA.close();
                agentB.close();
            }
        }
    }

    /**
     * A queue manager in IBM's container on {@code network} under its name in lower case, with an
     * agent's queues, {@code mqsc} run at start, a certificate from {@code ca}, and the app user allowed
     * to put to the other queue manager through its transmission queue.
     */
    private static GenericContainer<?> queueManager(Network network, CertificateAuthority ca, String qmgr,
            String agent, String mqsc) throws Exception {
        String other = qmgr.equals("QMA") ? "QMB" : "QMA";
        String label = qmgr.toLowerCase();
        CertificateAuthority.Issued cert = ca.issue(new X500Principal("CN=" + qmgr + ",O=OpenMFT"),
                List.of(label), Instant.now().minus(Duration.ofHours(1)), Instant.now().plus(Duration.ofDays(2)),
                true, true);
        String keys = "/etc/mqm/pki/keys/" + label + "/";
        return IbmMqConnectionIT.queueManager(qmgr, agent, mqsc
                        + "SET AUTHREC PROFILE('" + other + "') OBJTYPE(QUEUE) PRINCIPAL('app') AUTHADD(PUT)\n"
                        + "SET AUTHREC PROFILE('" + other + "') OBJTYPE(RQMNAME) PRINCIPAL('app') AUTHADD(PUT)\n")
                .withNetwork(network).withNetworkAliases(label)
                .withCopyToContainer(Transferable.of(pem(cert.key()), 0644), keys + "tls.key")
                .withCopyToContainer(Transferable.of(pem(cert.certificate()), 0644), keys + "tls.crt")
                .withCopyToContainer(Transferable.of(pem(ca.certificate()), 0644), keys + "ca.crt");
    }

    private static AgentConfig config(GenericContainer<?> mq, String qmgr, String agent) throws Exception {
        Map<String, String> raw = new HashMap<>(Map.of("agentName", agent, "agentQMgr", qmgr,
                "agentQMgrHost", mq.getHost(), "agentQMgrPort", String.valueOf(mq.getMappedPort(1414)),
                "agentQMgrChannel", "DEV.APP.SVRCONN", "agentQMgrProvider", "ibmmq"));
        return AgentConfig.from(raw, Map.of());
    }

    private static void runmqsc(GenericContainer<?> mq, String qmgr, String command) throws Exception {
        Container.ExecResult r = mq.execInContainer("bash", "-c", "echo \"" + command + "\" | runmqsc " + qmgr);
        assertThat(r.getExitCode()).as(r.getStdout()).isZero();
    }

    private static String pem(Object o) throws Exception {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(out)) {
            w.writeObject(o);
        }
        return out.toString();
    }

    private static String md5(Path file) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(Files.readAllBytes(file)));
    }
}
