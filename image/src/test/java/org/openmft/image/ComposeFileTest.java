package org.openmft.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * docker/compose.yaml validated offline by Compose itself ({@code docker-compose config}, Debian's
 * docker-compose package; it needs no Docker engine), and its setup script's shell syntax by
 * {@code sh -n}. Without docker-compose the validation is skipped, saying why, unless
 * {@value #REQUIRE_ENV} is 1: then it fails.
 */
class ComposeFileTest {
    /** Set to 1 to make a missing docker-compose a failure instead of a skip. */
    static final String REQUIRE_ENV = "OPENMFT_REQUIRE_COMPOSE";
    private static final Path DOCKER = Path.of("../docker");

    @Test
    void composeAcceptsTheTwoHostTopology() throws Exception {
        Optional<Path> compose = onPath("docker-compose");
        if (compose.isEmpty()) {
            String reason = "docker-compose is not on the PATH (Debian's docker-compose package)";
            if ("1".equals(System.getenv(REQUIRE_ENV))) {
                throw new AssertionError(REQUIRE_ENV + "=1 and " + reason);
            }
            Assumptions.assumeTrue(false, reason);
        }
        String config = run(compose.get().toString(), "-f", "compose.yaml", "config");
        assertThat(config).contains("qma:", "qmb:", "logger:", "rest:", "setup-a:", "setup-b:",
                "network_mode: service:qma");
    }

    @Test
    void theSetupScriptIsValidShellAndTheComposeFileRunsIt() throws Exception {
        run("sh", "-n", "setup-host.sh");
        assertThat(Files.readString(DOCKER.resolve("compose.yaml")))
                .contains("./setup-host.sh:/setup/setup-host.sh:ro", "[\"agent\", \"start\", \"SRC\", \"-F\"]",
                        "[\"agent\", \"start\", \"DST\", \"-F\"]", "[\"logger\", \"start\", \"LOG1\", \"-F\"]",
                        "[\"rest\", \"start\", \"-F\"]");
    }

    private static String run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).directory(DOCKER.toFile()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("%s ended", List.of(command)).isTrue();
        assertThat(p.exitValue()).as("exit code of %s; its output:%n%s", List.of(command), output).isZero();
        return output;
    }

    private static Optional<Path> onPath(String program) {
        for (String entry : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            Path candidate = Path.of(entry.isEmpty() ? "." : entry, program);
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
