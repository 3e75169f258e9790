package org.openmft.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The image Jib wrote in this build's package phase (target/openmft-image.tar, an OCI image layout),
 * checked without a container engine: its index, manifest and config, each blob against its digest;
 * the config's entry point, user, environment, ports, volumes and labels; the layers unpacked in order
 * into a directory (by the system's tar, as an engine would stack them), which must hold the launcher
 * and the jars where the entry point expects them; and the image's own command (entry point and
 * arguments) run from that directory with this JVM, which proves the launcher and the class path inside
 * the image. The Java runtime of a real base image is not in the scratch-based image built here.
 */
class ImageLayoutIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String HOME = "/opt/openmft";

    @TempDir static Path dir;
    private static Path layout;
    private static JsonNode manifest;
    private static JsonNode config;
    private static Path rootfs;

    @BeforeAll
    static void unpack() throws Exception {
        Path tar = Path.of(System.getProperty("openmft.image.tar", "target/openmft-image.tar"));
        assertThat(tar).as("the image archive that jib:buildTar writes in the package phase").isRegularFile();
        layout = Files.createDirectories(dir.resolve("layout"));
        run(dir, "tar", "-xf", tar.toString(), "-C", layout.toString());
        JsonNode index = JSON.readTree(layout.resolve("index.json").toFile());
        assertThat(index.path("manifests")).hasSize(1);
        JsonNode entry = index.path("manifests").get(0);
        assertThat(entry.path("mediaType").asText()).isEqualTo("application/vnd.oci.image.manifest.v1+json");
        manifest = JSON.readTree(blob(entry).toFile());
        config = JSON.readTree(blob(manifest.path("config")).toFile());
        rootfs = Files.createDirectories(dir.resolve("rootfs"));
        for (JsonNode layer : manifest.path("layers")) {
            run(dir, "tar", "-xzf", blob(layer).toString(), "-C", rootfs.toString());
        }
    }

    @Test
    void isAnOciImageLayoutWhoseBlobsMatchTheirDigests() throws Exception {
        assertThat(Files.readString(layout.resolve("oci-layout"))).contains("\"imageLayoutVersion\"");
        assertThat(manifest.path("schemaVersion").asInt()).isEqualTo(2);
        assertThat(manifest.path("config").path("mediaType").asText())
                .isEqualTo("application/vnd.oci.image.config.v1+json");
        assertThat(manifest.path("layers")).isNotEmpty().allSatisfy(layer -> assertThat(layer.path("mediaType").asText())
                .isEqualTo("application/vnd.oci.image.layer.v1.tar+gzip"));
        assertThat(config.path("rootfs").path("diff_ids")).hasSameSizeAs(manifest.path("layers"));
        assertThat(config.path("os").asText()).isEqualTo("linux");
        assertThat(config.path("architecture").asText()).isEqualTo("amd64");
    }

    @Test
    void configNamesTheLauncherAnUnprivilegedUserTheDataVolumeAndThePorts() {
        JsonNode c = config.path("config");
        assertThat(strings(c.path("Entrypoint"))).containsExactly(HOME + "/bin/mft");
        assertThat(strings(c.path("Cmd"))).containsExactly("--help");
        assertThat(c.path("User").asText()).isEqualTo("10001:10001");
        assertThat(strings(c.path("Env"))).contains("OPENMFT_DATA=/var/lib/openmft/data", "HOME=/var/lib/openmft")
                .anySatisfy(e -> assertThat(e).startsWith("PATH=" + HOME + "/bin:"));
        assertThat(names(c.path("Volumes"))).containsExactlyInAnyOrder("/var/lib/openmft", "/srv/mft");
        assertThat(names(c.path("ExposedPorts"))).containsExactlyInAnyOrder("1414/tcp", "9080/tcp", "9443/tcp",
                "9464/tcp");
        JsonNode labels = c.path("Labels");
        assertThat(labels.path("org.opencontainers.image.title").asText()).isEqualTo("OpenMFT");
        assertThat(labels.path("org.opencontainers.image.version").asText())
                .isEqualTo(System.getProperty("openmft.image.version"));
        assertThat(labels.path("org.opencontainers.image.licenses").asText()).isEqualTo("Apache-2.0");
        assertThat(labels.path("org.opencontainers.image.created").asText()).isNotBlank();
        assertThat(labels.path("org.opencontainers.image.base.name").asText()).isNotBlank();
    }

    @Test
    void layersHoldTheDistributionWhereTheLauncherLooksAndTheUserItRunsAs() throws IOException {
        Path home = rootfs.resolve(HOME.substring(1));
        assertThat(home.resolve("bin/mft")).isExecutable();
        assertThat(home.resolve("bin/fteCreateTransfer")).isExecutable();
        List<String> jars;
        try (var files = Files.list(home.resolve("lib"))) {
            jars = files.map(p -> p.getFileName().toString()).toList();
        }
        String version = System.getProperty("openmft.image.version");
        assertThat(jars).contains("agent-cli-" + version + ".jar", "agent-core-" + version + ".jar",
                "openmft-rest-" + version + ".jar").anySatisfy(j -> assertThat(j).startsWith("artemis-server-"))
                .anySatisfy(j -> assertThat(j).startsWith("picocli-"))
                .doesNotContain("openmft.jsa");
        // IBM's client only where the distribution was built with -Pibmmq.
        assertThat(jars.stream().anyMatch(j -> j.startsWith("com.ibm.mq.jakarta.client")))
                .isEqualTo(Boolean.getBoolean("openmft.image.ibmmq"));
        assertThat(Files.readAllLines(rootfs.resolve("etc/passwd")))
                .contains("openmft:x:10001:10001:OpenMFT:/var/lib/openmft:/usr/sbin/nologin");
        assertThat(rootfs.resolve("var/lib/openmft")).isDirectory();
        assertThat(rootfs.resolve("srv/mft")).isDirectory();
    }

    @Test
    void theImagesOwnCommandRunsFromTheUnpackedLayers() throws Exception {
        JsonNode c = config.path("config");
        List<String> command = new ArrayList<>();
        for (String part : strings(c.path("Entrypoint"))) {
            command.add(part.startsWith("/") ? rootfs.resolve(part.substring(1)).toString() : part);
        }
        command.addAll(strings(c.path("Cmd")));
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        Map<String, String> env = pb.environment();
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("OPENMFT_DATA", dir.resolve("data").toString());
        String output = run(pb);
        assertThat(output).contains("Usage: mft", "qmgr", "agent", "logger", "rest");
    }

    private static Path blob(JsonNode descriptor) throws Exception {
        String digest = descriptor.path("digest").asText();
        assertThat(digest).startsWith("sha256:");
        Path blob = layout.resolve("blobs/sha256").resolve(digest.substring("sha256:".length()));
        assertThat(Files.size(blob)).as("size of %s", digest).isEqualTo(descriptor.path("size").asLong());
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        try (InputStream in = Files.newInputStream(blob)) {
            byte[] buffer = new byte[1 << 16];
            for (int n; (n = in.read(buffer)) > 0; ) {
                sha.update(buffer, 0, n);
            }
        }
        assertThat("sha256:" + HexFormat.of().formatHex(sha.digest())).isEqualTo(digest);
        return blob;
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(v -> values.add(v.asText()));
        return values;
    }

    private static List<String> names(JsonNode object) {
        List<String> values = new ArrayList<>();
        object.fieldNames().forEachRemaining(values::add);
        return values;
    }

    private static void run(Path cwd, String... command) throws Exception {
        run(new ProcessBuilder(command).directory(cwd.toFile()).redirectErrorStream(true));
    }

    private static String run(ProcessBuilder pb) throws Exception {
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("%s ended", pb.command()).isTrue();
        assertThat(p.exitValue()).as("exit code of %s; its output:%n%s", pb.command(), output).isZero();
        return output;
    }
}
