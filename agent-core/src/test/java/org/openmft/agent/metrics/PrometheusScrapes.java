package org.openmft.agent.metrics;

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
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.junit.jupiter.api.Assumptions;

/**
 * A metrics endpoint scraped over HTTP and its text parsed by a real Prometheus parser (Debian's
 * python3-prometheus-client, {@code prometheus_client.parser.text_string_to_metric_families}); a
 * text the parser refuses fails the test. Shared by the agents' and the logger's metrics tests.
 *
 * <p>Skips, saying why, where no Python with prometheus_client is installed, unless
 * {@code OPENMFT_REQUIRE_PROMETHEUS_PARSER=1} (as {@code .ci/run} sets), which makes that a failure.
 */
public final class PrometheusScrapes {
    /** Prints each sample a scrape holds, one a line: name TAB labels (k=v, sorted, comma) TAB value. */
    private static final String PARSER = String.join("\n",
            "import sys",
            "from prometheus_client.parser import text_string_to_metric_families",
            "for family in text_string_to_metric_families(sys.stdin.read()):",
            "    for s in family.samples:",
            "        labels = ','.join(k + '=' + v for k, v in sorted(s.labels.items()))",
            "        print(s.name + '\\t' + labels + '\\t' + repr(float(s.value)))",
            "");

    /** One parsed sample. */
    public record Sample(String name, String labels, double value) {
    }

    private final String python;
    private final Path script;

    private PrometheusScrapes(String python, Path script) {
        this.python = python;
        this.script = script;
    }

    /** A parser whose script is written to {@code dir}; skips the test where there is none. */
    public static PrometheusScrapes in(Path dir) throws IOException, InterruptedException {
        String python = pythonWithPrometheusClient();
        Path script = dir.resolve("parse.py");
        Files.writeString(script, PARSER);
        return new PrometheusScrapes(python, script);
    }

    /** The value of one series, or NaN when the scrape has no such series. */
    public static double value(List<Sample> samples, String name, String labels) {
        return samples.stream().filter(s -> s.name().equals(name) && s.labels().equals(labels))
                .mapToDouble(Sample::value).findFirst().orElse(Double.NaN);
    }

    /** The series names of a scrape's text, with the suffixes Prometheus queries use; no parser needed. */
    public static Set<String> seriesNames(String scrape) {
        Set<String> out = new TreeSet<>();
        for (String line : scrape.split("\n")) {
            if (!line.isBlank() && !line.startsWith("#")) {
                out.add(line.split("[{ ]", 2)[0]);
            }
        }
        return out;
    }

    /** Scrapes {@code port} until {@code done} holds for the parsed samples (60 s at most). */
    public List<Sample> await(int port, String what, Predicate<List<Sample>> done) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            List<Sample> samples = parse(scrape(port));
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
    private List<Sample> parse(String text) throws Exception {
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
