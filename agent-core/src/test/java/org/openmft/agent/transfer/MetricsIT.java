package org.openmft.agent.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import javax.jms.Connection;
import javax.jms.DeliveryMode;
import javax.jms.MessageProducer;
import javax.jms.Session;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.AgentListener;
import org.openmft.agent.AgentService;
import org.openmft.agent.ForwardingAgentListener;
import org.openmft.agent.metrics.AgentMetrics;
import org.openmft.agent.metrics.MetricsSettings;
import org.openmft.xml.DestinationType;

/**
 * Prometheus metrics end to end: a real embedded queue manager and two real agents serving their
 * metrics ({@code openmft.metrics.port}), a transfer, then each endpoint scraped over HTTP and parsed
 * by a real Prometheus parser (Debian's python3-prometheus-client,
 * {@code prometheus_client.parser.text_string_to_metric_families}); the values must be the true
 * ones: bytes equal to the file's size, the transfer counted under its result, the depth of a queue
 * the test put messages on.
 *
 * <p>Skips, saying why, where no Python with prometheus_client is installed, unless
 * {@code OPENMFT_REQUIRE_PROMETHEUS_PARSER=1} (as {@code .ci/run} sets), which makes that a failure.
 */
class MetricsIT {
    /** Prints each sample a scrape holds, one a line: name TAB labels (k=v, sorted, comma) TAB value. */
    private static final String PARSER = String.join("\n",
            "import sys",
            "from prometheus_client.parser import text_string_to_metric_families",
            "for family in text_string_to_metric_families(sys.stdin.read()):",
            "    for s in family.samples:",
            "        labels = ','.join(k + '=' + v for k, v in sorted(s.labels.items()))",
            "        print(s.name + '\\t' + labels + '\\t' + repr(float(s.value)))",
            "");

    @TempDir
    Path dir;

    /** One parsed sample. */
    record Sample(String name, String labels, double value) {
    }

    @Test
    void aTransferIsSeenInTheAgentsAndTheQueueManagersMetricsThroughARealParser() throws Exception {
        String python = pythonWithPrometheusClient();
        Path script = dir.resolve("parse.py");
        Files.writeString(script, PARSER);
        List<AgentService> services = new CopyOnWriteArrayList<>();
        try (TransferHarness h = new TransferHarness(dir.resolve("h"), false)) {
            h.listenerFor = (config, next) -> {
                try {
                    AgentService service = AgentMetrics.wrap(config, forwardingTo(next));
                    services.add(service);
                    return service;
                } catch (org.openmft.agent.config.ConfigurationException e) {
                    throw new IllegalStateException(e);
                }
            };
            int srcPort = TransferHarness.freePort();
            int dstPort = TransferHarness.freePort();
            h.agent("SRC", Map.of("openmft.metrics.port", String.valueOf(srcPort)));
            h.agent("DST", Map.of("openmft.metrics.port", String.valueOf(dstPort)));
            h.qm.serveMetrics(new MetricsSettings(MetricsSettings.QMGR_PREFIX, "qmgr.properties", 0, "127.0.0.1",
                    null, "jks", null, null));
            int qmPort = h.qm.metricsPort().orElseThrow();

            long size = 300_000;
            Path src = TransferHarness.randomFile(dir.resolve("in/m.bin"), size, 7);
            Files.createDirectories(dir.resolve("out"));
            var reply = h.transfer(TransferHarness.request("SRC", "DST", 0, TransferHarness.item(src.toString(),
                    dir.resolve("out/m.bin").toString(), DestinationType.FILE)), 120);
            assertThat(reply.resultCode()).as("%s", TransferHarness.failedSupplements(reply)).isZero();

            try (Connection c = h.admin.connect()) {
                Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                try (MessageProducer p = s.createProducer(s.createQueue("APP.METRICS.DEPTH"))) {
                    p.setDeliveryMode(DeliveryMode.PERSISTENT);
                    for (int i = 0; i < 3; i++) {
                        p.send(s.createTextMessage("message " + i));
                    }
                }
            }

            // The destination may still be finishing when the source's reply comes: poll with a deadline.
            List<Sample> source = awaitSamples(python, script, srcPort, "SRC ended", samples ->
                    value(samples, "openmft_agent_transfers_ended_total", "agent=SRC,outcome=success,result=0,role=source")
                            == 1.0);
            assertThat(value(source, "openmft_agent_sent_bytes_total", "agent=SRC")).isEqualTo(size);
            assertThat(value(source, "openmft_agent_transfers_running", "agent=SRC,role=source")).isZero();
            assertThat(value(source, "openmft_agent_transfers_queued", "agent=SRC")).isZero();
            assertThat(value(source, "openmft_agent_queue_manager_connected", "agent=SRC")).isEqualTo(1.0);
            assertThat(source).anySatisfy(x -> assertThat(x.name()).isEqualTo("jvm_memory_used_bytes"));

            List<Sample> destination = awaitSamples(python, script, dstPort, "DST ended", samples ->
                    value(samples, "openmft_agent_transfers_ended_total",
                            "agent=DST,outcome=success,result=0,role=destination") == 1.0);
            assertThat(value(destination, "openmft_agent_received_bytes_total", "agent=DST")).isEqualTo(size);
            assertThat(value(destination, "openmft_agent_checkpoint_lag_seconds", "agent=DST")).isZero();

            List<Sample> qmgr = awaitSamples(python, script, qmPort, "the depth of APP.METRICS.DEPTH", samples ->
                    value(samples, "openmft_qmgr_queue_depth_messages", "qmgr=QMT,queue=APP.METRICS.DEPTH") == 3.0);
            assertThat(value(qmgr, "openmft_qmgr_queue_depth_messages", "qmgr=QMT,queue=SYSTEM.FTE.COMMAND.SRC"))
                    .isZero();
        } finally {
            services.forEach(AgentService::close);
        }
    }

    private static AgentService forwardingTo(AgentListener next) {
        class Forward extends ForwardingAgentListener implements AgentService {
            @Override
            protected AgentListener delegate() {
                return next;
            }

            @Override
            public void start() {
            }

            @Override
            public void close() {
            }
        }
        return new Forward();
    }

    /** The value of one series, or NaN when the scrape has no such series. */
    private static double value(List<Sample> samples, String name, String labels) {
        return samples.stream().filter(s -> s.name().equals(name) && s.labels().equals(labels))
                .mapToDouble(Sample::value).findFirst().orElse(Double.NaN);
    }

    private static List<Sample> awaitSamples(String python, Path script, int port, String what,
            java.util.function.Predicate<List<Sample>> done) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            List<Sample> samples = parse(python, script, scrape(port));
            if (done.test(samples)) {
                return samples;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what + " in the scrape of port " + port + ": "
                        + samples.stream().filter(s -> s.name().startsWith("openmft_")).toList());
            }
            TimeUnit.MILLISECONDS.sleep(200);
        }
    }

    private static String scrape(int port) throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("GET /metrics on port %d", port).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain");
        return r.body();
    }

    /** Parses a scrape with prometheus_client's parser; a text it refuses fails the test. */
    private static List<Sample> parse(String python, Path script, String text) throws Exception {
        Process p = new ProcessBuilder(python, script.toString()).redirectErrorStream(true).start();
        try (var in = p.getOutputStream()) {
            in.write(text.getBytes(StandardCharsets.UTF_8));
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("the Prometheus parser did not finish within 60 s");
        }
        assertThat(p.exitValue()).as("prometheus_client's parser on the scrape:\n%s\nsaid:\n%s", text, out).isZero();
        List<Sample> samples = new ArrayList<>();
        for (String line : out.split("\n")) {
            if (!line.isBlank()) {
                String[] f = line.split("\t", -1);
                samples.add(new Sample(f[0], f[1], Double.parseDouble(f[2])));
            }
        }
        return samples;
    }

    /**
     * A Python 3 that has prometheus_client: Debian's ({@code /usr/bin/python3}) first, since a
     * python3 earlier on the PATH (pyenv, a virtual environment) may not see Debian's packages.
     */
    static String pythonWithPrometheusClient() throws InterruptedException {
        for (String candidate : List.of("/usr/bin/python3", "python3")) {
            try {
                Process p = new ProcessBuilder(candidate, "-c", "import prometheus_client.parser")
                        .redirectErrorStream(true).start();
                p.getInputStream().readAllBytes();
                if (p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0) {
                    return candidate;
                }
            } catch (IOException e) {
                // Not there: try the next.
            }
        }
        String reason = "no python3 with prometheus_client (Debian: apt-get install python3-prometheus-client)";
        if ("1".equals(System.getenv("OPENMFT_REQUIRE_PROMETHEUS_PARSER"))) {
            throw new AssertionError("OPENMFT_REQUIRE_PROMETHEUS_PARSER=1 and " + reason);
        }
        Assumptions.assumeTrue(false, reason);
        return null;
    }
}
