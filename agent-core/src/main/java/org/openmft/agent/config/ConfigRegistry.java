package org.openmft.agent.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The ordered set of keys of one kind of properties file, and the one place where such a file is
 * turned into typed values. Parsing is strict about what OpenMFT uses and lenient about the rest:
 * a bad value of a supported key, a missing required key or a broken cross-key rule stops start-up
 * with a {@link ConfigurationException}; an unknown key or an IBM key that OpenMFT does not
 * implement yet only produces a warning, so that files copied from an IBM installation still work.
 * The exception is a key that asks for protection ({@link ConfigKey#asksForProtection()}): unsupported
 * and set to anything but its default, it stops start-up, because ignoring it would fail open.
 * A bad value is never replaced by the default.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class ConfigRegistry {

    /**
     * A rule that involves more than one key, checked after every key has been parsed.
     */
    public interface Rule {
        /**
         * Checks the rule.
         *
         * @param values the parsed values
         * @throws ConfigurationException naming the keys involved when the rule is broken
         */
        void check(ConfigValues values) throws ConfigurationException;

        /**
         * The rule in words, for the reference.
         *
         * @return the description
         */
        String describe();
    }

    private final String fileName;
    private final List<ConfigKey<?>> keys;
    private final Map<String, ConfigKey<?>> byName;
    private final List<Rule> rules;

    private ConfigRegistry(String fileName, List<ConfigKey<?>> keys, List<Rule> rules) {
        this.fileName = fileName;
        this.keys = List.copyOf(keys);
        Map<String, ConfigKey<?>> map = new LinkedHashMap<>();
        for (ConfigKey<?> key : keys) {
            if (map.put(key.name(), key) != null) {
                throw new IllegalArgumentException(fileName + ": key " + key.name() + " declared twice");
            }
        }
        this.byName = Collections.unmodifiableMap(map);
        this.rules = List.copyOf(rules);
    }

    /**
     * Starts a registry.
     *
     * @param fileName the file the keys belong to, such as {@code agent.properties}
     * @return a builder
     */
    public static Builder builder(String fileName) {
        return new Builder(fileName);
    }

    /**
     * A rule that {@code larger} is at least {@code smaller}.
     *
     * @param larger the key that must be greater than or equal; named as the key at fault
     * @param smaller the other key
     * @return the rule
     */
    public static Rule atLeast(ConfigKey<Integer> larger, ConfigKey<Integer> smaller) {
        return new Rule() {
            @Override
            public void check(ConfigValues values) throws ConfigurationException {
                Integer big = values.get(larger);
                Integer small = values.get(smaller);
                if (big != null && small != null && big < small) {
                    String text = larger.format(big);
                    throw new ConfigurationException(values.sourceName() + ": " + larger.name() + "=" + text
                            + " is not allowed: a value greater than or equal to " + smaller.name() + " ("
                            + smaller.format(small) + ") is required", larger.name(), text);
                }
            }

            @Override
            public String describe() {
                return "`" + larger.name() + "` must be greater than or equal to `" + smaller.name() + "`.";
            }
        };
    }

    /**
     * A rule that a boolean key set to {@code true} and another key set at all exclude each other.
     *
     * @param flag the boolean key; named as the key at fault
     * @param other the other key
     * @return the rule
     */
    public static Rule notTogether(ConfigKey<Boolean> flag, ConfigKey<?> other) {
        return new Rule() {
            @Override
            public void check(ConfigValues values) throws ConfigurationException {
                if (Boolean.TRUE.equals(values.get(flag)) && values.get(other) != null) {
                    throw new ConfigurationException(values.sourceName() + ": " + flag.name() + "=true and "
                            + other.name() + " are both set, but they are mutually exclusive: remove " + other.name()
                            + " or set " + flag.name() + "=false", flag.name(), "true");
                }
            }

            @Override
            public String describe() {
                return "`" + flag.name() + "=true` and `" + other.name() + "` are mutually exclusive.";
            }
        };
    }

    /**
     * The file name, such as {@code agent.properties}.
     *
     * @return the file name
     */
    public String fileName() {
        return fileName;
    }

    /**
     * All keys in declaration order, which is also the order of written files and the reference.
     *
     * @return the keys
     */
    public List<ConfigKey<?>> keys() {
        return keys;
    }

    /**
     * Looks a key up by its exact name.
     *
     * @param name the key name
     * @return the key, if this registry declares it
     */
    public Optional<ConfigKey<?>> key(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /**
     * Whether the key belongs to this registry.
     *
     * @param key a key
     * @return true when declared here
     */
    public boolean contains(ConfigKey<?> key) {
        return byName.get(key.name()) == key;
    }

    /**
     * The cross-key rules.
     *
     * @return the rules
     */
    public List<Rule> rules() {
        return rules;
    }

    /**
     * Parses raw values with the process environment for {@code ${VAR}} expansion.
     *
     * @param raw key to value, as read from the file
     * @param sourceName the file name or path, for messages
     * @return the typed values
     * @throws ConfigurationException when a supported value is bad, a required key is missing or an
     *         unsupported security key is set
     */
    public ConfigValues parse(Map<String, String> raw, String sourceName) throws ConfigurationException {
        return parse(raw, sourceName, System.getenv());
    }

    /**
     * Parses raw values. Values are trimmed; an empty text, path or path-list value counts as not set
     * (so {@code agentQMgrHost=} means bindings), while an empty number or boolean is an error.
     *
     * @param raw key to value, as read from the file
     * @param sourceName the file name or path, for messages
     * @param env the environment used to expand {@code ${VAR}} in path values
     * @return the typed values, with warnings for unknown and unsupported keys
     * @throws ConfigurationException when a supported value is bad, a required key is missing, a path
     *         refers to an undefined variable, a cross-key rule is broken, or an unsupported key that
     *         asks for protection is set to anything but its default
     */
    public ConfigValues parse(Map<String, String> raw, String sourceName, Map<String, String> env)
            throws ConfigurationException {
        Objects.requireNonNull(raw, "raw");
        Objects.requireNonNull(sourceName, "sourceName");
        Objects.requireNonNull(env, "env");
        // Sorted, so that warnings come out in the same order whatever map the caller used.
        Map<String, String> given = new TreeMap<>();
        List<String> unknown = new ArrayList<>();
        for (Map.Entry<String, String> e : new TreeMap<>(raw).entrySet()) {
            String text = e.getValue() == null ? "" : e.getValue().trim();
            if (byName.containsKey(e.getKey())) {
                given.put(e.getKey(), text);
            } else {
                unknown.add(unknownWarning(e.getKey(), sourceName));
            }
        }

        Map<ConfigKey<?>, Object> values = new LinkedHashMap<>();
        List<String> warnings = new ArrayList<>();
        for (ConfigKey<?> key : keys) {
            String text = given.get(key.name());
            if (text != null && text.isEmpty() && key.type().blankMeansAbsent()) {
                text = null;
            }
            if (!key.supported()) {
                if (text != null && !isDefault(key, text, env, sourceName)) {
                    if (key.asksForProtection()) {
                        throw unsupportedProtection(key, text, sourceName);
                    }
                    warnings.add("'" + key.name() + "' is recognised but not supported yet by OpenMFT and is ignored");
                }
                putDefault(values, key);
            } else if (text == null) {
                if (key.required()) {
                    throw new ConfigurationException(sourceName + ": " + key.name() + " is required", key.name(), null);
                }
                putDefault(values, key);
            } else {
                values.put(key, key.parse(text, env, sourceName));
            }
        }
        warnings.addAll(unknown);

        ConfigValues result = new ConfigValues(this, sourceName, values, given, warnings);
        for (Rule rule : rules) {
            rule.check(result);
        }
        return result;
    }

    /**
     * A security key that OpenMFT cannot honour yet. Ignoring it, as other unsupported keys are, would
     * fail open: an agent told to use TLS or a credentials file would connect without them, one told
     * to check authority would let every request through. So it stops start-up, naming the key and
     * the file; a bad value of such a key is refused the same way, since it is not the default either.
     */
    private static ConfigurationException unsupportedProtection(ConfigKey<?> key, String text, String sourceName) {
        String remedy = key.defaultText().filter(d -> !d.isEmpty())
                .map(d -> "remove it or set it to its default, " + key.name() + "=" + d)
                .orElse("remove it");
        return new ConfigurationException(sourceName + ": " + key.name() + "=" + text + " is not supported yet: "
                + "OpenMFT does not provide this security feature and refuses to run without the protection the "
                + "file asks for (" + remedy + ")", key.name(), text);
    }

    private static void putDefault(Map<ConfigKey<?>, Object> values, ConfigKey<?> key) {
        Object value = key.defaultValue();
        if (value != null) {
            values.put(key, value);
        }
    }

    /** A value equal to IBM's default asks for nothing OpenMFT does not already do, so it earns no warning. */
    private static boolean isDefault(ConfigKey<?> key, String text, Map<String, String> env, String sourceName) {
        Object def = key.defaultValue();
        if (def == null) {
            return false;
        }
        try {
            Object value = key.parse(text, env, sourceName);
            // Words such as jks and JKS name the same thing; keys that care normalise their values.
            return def instanceof String word ? word.equalsIgnoreCase((String) value) : def.equals(value);
        } catch (ConfigurationException e) {
            return false;
        }
    }

    private String unknownWarning(String name, String sourceName) {
        String warning = "unknown key '" + name + "' in " + sourceName + " is ignored";
        // Keys are case-sensitive, as in IBM MFT; the commonest migration slip is the case of a letter.
        for (String known : byName.keySet()) {
            if (known.equalsIgnoreCase(name)) {
                return warning + " (did you mean '" + known + "'?)";
            }
        }
        return warning;
    }

    @Override
    public String toString() {
        return fileName + " " + byName.keySet();
    }

    /** Builds a {@link ConfigRegistry}. */
    public static final class Builder {
        private final String fileName;
        private final List<ConfigKey<?>> keys = new ArrayList<>();
        private final List<Rule> rules = new ArrayList<>();

        private Builder(String fileName) {
            this.fileName = Objects.requireNonNull(fileName, "fileName");
        }

        /**
         * Adds keys, in order.
         *
         * @param more the keys
         * @return this builder
         */
        public Builder add(ConfigKey<?>... more) {
            keys.addAll(List.of(more));
            return this;
        }

        /**
         * Adds keys, in order.
         *
         * @param more the keys
         * @return this builder
         */
        public Builder addAll(List<? extends ConfigKey<?>> more) {
            keys.addAll(more);
            return this;
        }

        /**
         * Adds a cross-key rule.
         *
         * @param rule the rule
         * @return this builder
         */
        public Builder rule(Rule rule) {
            rules.add(Objects.requireNonNull(rule, "rule"));
            return this;
        }

        /**
         * Creates the registry.
         *
         * @return the registry
         * @throws IllegalArgumentException when a key name is declared twice
         */
        public ConfigRegistry build() {
            return new ConfigRegistry(fileName, keys, rules);
        }
    }
}
