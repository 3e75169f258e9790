package org.openmft.cli.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Collections;
import java.util.Optional;
import java.util.Random;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS through the real launchers: a queue manager created with a generated CA and mutual TLS,
 * client agents in their own processes that trust the CA, check its name and present client
 * certificates issued by {@code mft qmgr client-cert}, a file moved between them; and a listener on
 * a network address without TLS refused.
 */
class TlsTransferIT {
    @TempDir
    Path data;
    Distribution mft;

    @AfterEach
    void tearDown() throws Exception {
        if (mft != null) {
            mft.close();
        }
    }

    void appendTls(String agent, Path tlsDir, Path clientStore) throws Exception {
        Path props = data.resolve("config/QM1/agents/" + agent + "/agent.properties");
        Files.writeString(props, String.join("\n", "",
                "agentSslTrustStore=" + tlsDir.resolve("trust.p12"),
                "agentSslTrustStoreType=pkcs12",
                "agentSslTrustStoreCredentialsFile=" + tlsDir.resolve("trust.p12.pw"),
                "agentSslKeyStore=" + clientStore,
                "agentSslKeyStoreType=pkcs12",
                "agentSslKeyStoreCredentialsFile=" + clientStore + ".pw",
                "agentSslPeerName=CN=QM1, O=OpenMFT",
                "agentSslCipherSpec=ANY_TLS12_OR_HIGHER", ""), StandardOpenOption.APPEND);
    }

    @Test
    void clientAgentsMoveAFileOverMutualTls() throws Exception {
        mft = new Distribution(data);
        int port = Distribution.freePort();
        assertThat(mft.mft("qmgr", "create", "QM1", "--port", String.valueOf(port), "--tls-generate",
                "--tls-client-auth").expect(0).output()).contains("TLS with client certificates required",
                "agentSslTrustStore=");
        mft.run("fteSetupCoordination", "-coordinationQMgr", "QM1").expect(0);
        mft.run("fteSetupCommands", "-connectionQMgr", "QM1").expect(0);
        Path tlsDir = data.resolve("qmgrs/QM1/tls");
        for (String agent : new String[] {"AGENT1", "AGENT2"}) {
            Path store = data.resolve(agent.toLowerCase() + ".p12");
            mft.mft("qmgr", "client-cert", "QM1", "--subject", "CN=" + agent + ",O=OpenMFT", "--out",
                    store.toString()).expect(0);
            mft.run("fteCreateAgent", "-agentName", agent, "-agentQMgr", "QM1", "-agentQMgrHost", "127.0.0.1",
                    "-agentQMgrPort", String.valueOf(port), "--sandbox-dir", data.toString()).expect(0);
            appendTls(agent, tlsDir, store);
        }
        mft.mft("qmgr", "start", "QM1").expect(0);
        assertThat(mft.mft("qmgr", "list").expect(0).output()).contains("TLS");
        mft.run("fteStartAgent", "AGENT1").expect(0);
        mft.run("fteStartAgent", "AGENT2").expect(0);

        Path in = Files.createDirectories(data.resolve("in"));
        Path out = Files.createDirectories(data.resolve("out"));
        byte[] content = new byte[3 << 20];
        new Random(14).nextBytes(content);
        Files.write(in.resolve("payload.bin"), content);
        // The command itself reaches QM1 (bindings) over its TLS loopback listener with the local client certificate.
        mft.mft("transfer", "submit", mft.request("tls.xml", in.resolve("payload.bin").toString(),
                out.resolve("payload.bin").toString(), "file", "error", false).toString(), "-w", "120").expect(0);
        assertThat(TransferCommandIT.md5(out.resolve("payload.bin"))).isEqualTo(TransferCommandIT.md5(
                in.resolve("payload.bin")));
        assertThat(Files.readString(data.resolve("logs/qmgrs/QM1/output0.log")))
                .contains("with TLS as CN=QM1,O=OpenMFT", "client certificates required");
    }

    @Test
    void aListenerOnANetworkAddressWithoutTlsIsRefusedUnlessAllowedExplicitly() throws Exception {
        mft = new Distribution(data);
        String bind = nonLoopbackAddress().map(InetAddress::getHostAddress).orElse("0.0.0.0");
        int port = Distribution.freePort();
        Distribution.Result refused = mft.mft("qmgr", "create", "QM2", "--bind", bind, "--port", String.valueOf(port))
                .expect(78);
        assertThat(refused.output()).contains(bind + ":" + port + " without TLS", "--allow-plaintext-network");
        assertThat(data.resolve("qmgrs/QM2/qmgr.properties")).doesNotExist();
        assertThat(mft.mft("qmgr", "create", "QM2", "--bind", bind, "--port", String.valueOf(port),
                "--allow-plaintext-network").expect(0).output()).contains("WARNING", "does not use TLS");
    }

    static Optional<InetAddress> nonLoopbackAddress() throws Exception {
        for (NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (ni.isUp() && !ni.isLoopback()) {
                for (InetAddress a : Collections.list(ni.getInetAddresses())) {
                    if (a instanceof Inet4Address && !a.isLinkLocalAddress()) {
                        return Optional.of(a);
                    }
                }
            }
        }
        return Optional.empty();
    }
}
