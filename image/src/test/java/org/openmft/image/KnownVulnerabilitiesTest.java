package org.openmft.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import javax.xml.parsers.DocumentBuilderFactory;

import org.apache.maven.artifact.versioning.DefaultArtifactVersion;
import org.apache.maven.artifact.versioning.VersionRange;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The root pom's rule no-known-vulnerabilities (Maven Enforcer's bannedDependencies), read as Maven reads
 * its version ranges: it bans versions that advisories name (so a dependency brought back to one fails the
 * build), and passes the jars of the distribution this build made (agent-cli's tar.gz, as the image module
 * unpacks it), which it checks the
 * same way, by the coordinates each jar holds, besides any version it waives (includes; none today).
 */
class KnownVulnerabilitiesTest {
    private static final Path ROOT_POM = Path.of("../pom.xml");
    private static final Path DIST_LIB = Path.of("target/distribution/lib");
    private static final Pattern JAR = Pattern.compile("(.+?)-(\\d[^-]*(?:\\.Final)?)(?:-[a-z]+-[a-z0-9_]+)?\\.jar");

    record Entry(String group, String artifact, String range) {
        boolean bans(String groupId, String artifactId, String version) throws Exception {
            // A jar without Maven metadata (groupId "*") is judged by the entries that name its artifact.
            boolean unknownGroup = "*".equals(groupId);
            if (unknownGroup && artifact.contains("*") || !unknownGroup && !glob(group, groupId)
                    || !glob(artifact, artifactId)) {
                return false;
            }
            return range == null || VersionRange.createFromVersionSpec(range.contains("[") || range.contains("(")
                    ? range : "[" + range + "]").containsVersion(new DefaultArtifactVersion(version));
        }
    }

    private static boolean glob(String pattern, String value) {
        return Pattern.matches(pattern.replace(".", "\\.").replace("*", ".*"), value);
    }

    @Test
    void theListBansVersionsThatAdvisoriesName() throws Exception {
        List<Entry> banned = entries("excludes");
        assertThat(banned).hasSizeGreaterThan(20);
        assertThat(bans(banned, "ch.qos.logback", "logback-core", "1.5.18")).as("CVE-2025-11226").isTrue();
        assertThat(bans(banned, "io.netty", "netty-codec", "4.1.128.Final")).as("CVE-2026-42583").isTrue();
        assertThat(bans(banned, "com.fasterxml.jackson.core", "jackson-core", "2.20.0")).as("GHSA-72hv-8253-57qq").isTrue();
        assertThat(bans(banned, "org.apache.commons", "commons-compress", "1.24.0")).as("CVE-2024-25710").isTrue();
        assertThat(bans(banned, "org.apache.activemq", "artemis-server", "2.44.0")).as("CVE-2026-40914").isTrue();
        assertThat(bans(banned, "org.apache.artemis", "artemis-server", "2.54.0")).as("CVE-2026-48059").isTrue();
        assertThat(bans(banned, "org.lz4", "lz4-java", "1.8.0")).as("CVE-2025-12183").isTrue();
        assertThat(bans(banned, "ch.qos.logback", "logback-core", "1.5.38")).isFalse();
        assertThat(bans(banned, "com.fasterxml.jackson.core", "jackson-core", "2.22.4")).isFalse();
        assertThat(bans(banned, "org.apache.artemis", "artemis-server", "2.56.0")).isFalse();
    }

    @Test
    void theDistributionHasNoBannedJarButTheWaivedOnes() throws Exception {
        List<Entry> banned = entries("excludes");
        List<Entry> waived = entries("includes");
        List<String> found = new ArrayList<>();
        try (var jars = Files.list(DIST_LIB)) {
            for (Path jar : jars.toList()) {
                Properties coordinates = coordinates(jar);
                String g = coordinates.getProperty("groupId");
                String a = coordinates.getProperty("artifactId");
                String v = coordinates.getProperty("version");
                if (g == null) {
                    // No Maven metadata in the jar: its name, and any group.
                    Matcher m = JAR.matcher(jar.getFileName().toString());
                    assertThat(m.matches()).as("a jar name with a version: %s", jar).isTrue();
                    g = "*";
                    a = m.group(1);
                    v = m.group(2);
                }
                if (bans(banned, g, a, v) && !bans(waived, g, a, v)) {
                    found.add(g + ":" + a + ":" + v);
                }
            }
        }
        assertThat(found).as("jars of %s with a known vulnerability", DIST_LIB).isEmpty();
    }

    /** The jar's own Maven coordinates (META-INF/maven/.../pom.properties), empty when it has none. */
    private static Properties coordinates(Path jar) throws Exception {
        Properties found = new Properties();
        String name = jar.getFileName().toString();
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            for (ZipEntry e : java.util.Collections.list(zip.entries())) {
                if (e.getName().startsWith("META-INF/maven/") && e.getName().endsWith("/pom.properties")) {
                    Properties p = new Properties();
                    try (InputStream in = zip.getInputStream(e)) {
                        p.load(in);
                    }
                    // A shaded jar holds others' too: its own is the one its file is named after.
                    if (name.startsWith(p.getProperty("artifactId", "?") + "-" + p.getProperty("version", "?"))) {
                        return p;
                    }
                }
            }
        }
        return found;
    }

    private static boolean bans(List<Entry> entries, String groupId, String artifactId, String version)
            throws Exception {
        for (Entry e : entries) {
            if (e.bans(groupId, artifactId, version)) {
                return true;
            }
        }
        return false;
    }

    private static List<Entry> entries(String list) throws Exception {
        Document pom = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(ROOT_POM.toFile());
        NodeList executions = pom.getElementsByTagName("execution");
        for (int i = 0; i < executions.getLength(); i++) {
            Element execution = (Element) executions.item(i);
            NodeList id = execution.getElementsByTagName("id");
            if (id.getLength() == 0 || !"no-known-vulnerabilities".equals(id.item(0).getTextContent().trim())) {
                continue;
            }
            Element rule = (Element) execution.getElementsByTagName("bannedDependencies").item(0);
            List<Entry> entries = new ArrayList<>();
            if (rule.getElementsByTagName(list).getLength() == 0) {
                return entries; // no waivers (includes), or no bans
            }
            NodeList items = ((Element) rule.getElementsByTagName(list).item(0)).getChildNodes();
            for (int j = 0; j < items.getLength(); j++) {
                if (items.item(j) instanceof Element item) {
                    String[] parts = item.getTextContent().trim().split(":", 3);
                    entries.add(new Entry(parts[0], parts[1], parts.length > 2 ? parts[2] : null));
                }
            }
            return entries;
        }
        throw new AssertionError("no execution no-known-vulnerabilities in " + ROOT_POM);
    }
}
