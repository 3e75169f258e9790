package org.openmft.agent.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Renders the configuration reference in the README from the key registries, so that the
 * documentation cannot drift from the code: {@code ReadmeConfigReferenceTest} fails when the README
 * differs from {@link #markdown()}. To regenerate, build and run
 * {@code java -cp agent-core/target/classes org.openmft.agent.config.ConfigReference}, and paste the
 * output between the {@code config-reference} markers of README.md.
 */
public final class ConfigReference {

    private static final List<ConfigRegistry> REGISTRIES = List.of(AgentProperties.REGISTRY,
            CoordinationProperties.REGISTRY, CommandProperties.REGISTRY, InstallationProperties.REGISTRY,
            LoggerProperties.REGISTRY);

    private ConfigReference() {
    }

    /**
     * Prints {@link #markdown()} to standard output.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        System.out.print(markdown());
        System.out.flush();
    }

    /**
     * The reference: one section per file, one table per group of keys, keys in registry order.
     * Deterministic: defaults that depend on the machine are shown in words.
     *
     * @return markdown text ending with a newline
     */
    public static String markdown() {
        StringBuilder out = new StringBuilder();
        out.append("Generated from the key registries in `org.openmft.agent.config`; do not edit by hand.\n")
                .append("Key names are IBM MQ Managed File Transfer's. Supported \"no\" marks an IBM key that OpenMFT\n")
                .append("recognises but ignores for now, with a warning at start-up; unknown keys are ignored with a\n")
                .append("warning too. \"no (refused when set)\" marks a security key OpenMFT does not support yet:\n")
                .append("set to anything but its default it stops start-up, so that nothing runs without the\n")
                .append("protection its configuration asks for. A bad value of a supported key, or a missing\n")
                .append("required key, stops start-up with exit code ").append(ConfigurationException.EXIT_CODE)
                .append(". Values are trimmed, and `${VAR}` in a path value is replaced by environment variable VAR.\n");
        for (ConfigRegistry registry : REGISTRIES) {
            out.append("\n### ").append(registry.fileName()).append('\n');
            Map<String, List<ConfigKey<?>>> groups = new LinkedHashMap<>();
            for (ConfigKey<?> key : registry.keys()) {
                groups.computeIfAbsent(key.group(), g -> new ArrayList<>()).add(key);
            }
            for (Map.Entry<String, List<ConfigKey<?>>> group : groups.entrySet()) {
                out.append("\n#### ").append(registry.fileName()).append(": ").append(group.getKey()).append("\n\n")
                        .append("| Property | Default | Allowed | Supported | Description |\n")
                        .append("|---|---|---|---|---|\n");
                for (ConfigKey<?> key : group.getValue()) {
                    out.append("| `").append(key.name()).append("` | ").append(defaultCell(key)).append(" | ")
                            .append(cell(key.allowed())).append(" | ").append(support(key))
                            .append(" | ").append(cell(key.description())).append(" |\n");
                }
            }
            if (!registry.rules().isEmpty()) {
                out.append('\n');
                for (ConfigRegistry.Rule rule : registry.rules()) {
                    out.append("Rule: ").append(rule.describe()).append('\n');
                }
            }
        }
        return out.toString();
    }

    private static String support(ConfigKey<?> key) {
        return key.supported() ? "yes" : key.asksForProtection() ? "no (refused when set)" : "no";
    }

    private static String defaultCell(ConfigKey<?> key) {
        if (key.required()) {
            return "required";
        }
        // A machine-dependent default is shown in words, a fixed one as a literal.
        return key.defaultText()
                .map(text -> text.isEmpty() ? "empty" : key.hasComputedDefault() ? cell(text) : "`" + text + "`")
                .orElse("none");
    }

    /** Keeps table cells intact and angle-bracketed placeholders visible (not taken for HTML). */
    private static String cell(String text) {
        return text.replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;");
    }
}
