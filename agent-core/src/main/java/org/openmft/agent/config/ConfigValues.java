package org.openmft.agent.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The typed, validated values of one properties file, produced by {@link ConfigRegistry#parse}.
 * Immutable and thread-safe; owns no resources.
 */
public final class ConfigValues {
    private final ConfigRegistry registry;
    private final String sourceName;
    private final Map<ConfigKey<?>, Object> values;
    private final Map<String, String> given;
    private final List<String> warnings;

    ConfigValues(ConfigRegistry registry, String sourceName, Map<ConfigKey<?>, Object> values,
            Map<String, String> given, List<String> warnings) {
        this.registry = registry;
        this.sourceName = sourceName;
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
        this.given = Collections.unmodifiableMap(new LinkedHashMap<>(given));
        this.warnings = List.copyOf(warnings);
    }

    /**
     * The value of a key: the parsed value when the file sets it, else the default. For a key that
     * OpenMFT does not support yet this is always the default, because that is how OpenMFT behaves
     * whatever the file says; {@link #rawValue} shows what was written.
     *
     * @param <T> the value type
     * @param key a key of this file's registry
     * @return the value, or {@code null} when the key is not set and has no default
     * @throws IllegalArgumentException when the key belongs to another registry
     */
    public <T> T get(ConfigKey<T> key) {
        if (!registry.contains(key)) {
            throw new IllegalArgumentException(key.name() + " is not a key of " + registry.fileName());
        }
        return key.valueClass().cast(values.get(key));
    }

    /**
     * Whether the file gave the key a non-empty value.
     *
     * @param key a key of this file's registry
     * @return true when set explicitly
     */
    public boolean isSet(ConfigKey<?> key) {
        String text = given.get(key.name());
        return text != null && !text.isEmpty() && registry.contains(key);
    }

    /**
     * The trimmed text written for a recognised key, before parsing; unknown keys are not kept.
     *
     * @param name the key name
     * @return the text, if the key is recognised and present
     */
    public Optional<String> rawValue(String name) {
        return Optional.ofNullable(given.get(name));
    }

    /**
     * Warnings about unknown keys and about keys OpenMFT recognises but ignores, one per key, for the
     * start-up log.
     *
     * @return the warnings
     */
    public List<String> warnings() {
        return warnings;
    }

    /**
     * The name used in messages: a file name or path.
     *
     * @return the source name
     */
    public String sourceName() {
        return sourceName;
    }

    /**
     * The registry the values were parsed with.
     *
     * @return the registry
     */
    public ConfigRegistry registry() {
        return registry;
    }

    /**
     * The effective configuration, one key per line in registry order, for the start-up log: every
     * supported key with its value (marked when it is the default), then the unsupported keys that the
     * file sets, marked as ignored. Secret values ({@link ConfigKey#secret()}) and the passwords inside
     * URLs (see {@link Secrets}) are masked, so that the text can go to a log.
     *
     * @return the description, lines separated by {@code \n}, no trailing newline
     */
    public String describe() {
        StringBuilder out = new StringBuilder();
        for (ConfigKey<?> key : registry.keys()) {
            String line;
            if (key.supported()) {
                Object value = values.get(key);
                if (value == null) {
                    line = key.name() + " (not set)";
                } else {
                    line = key.name() + "=" + shown(key, format(key, value)) + (isSet(key) ? "" : " (default)");
                }
            } else if (isSet(key)) {
                line = key.name() + "=" + shown(key, given.get(key.name())) + " (ignored: not supported yet)";
            } else {
                continue;
            }
            if (out.length() > 0) {
                out.append('\n');
            }
            out.append(line);
        }
        return out.toString();
    }

    /** A secret key's value is masked whole; any other value has the passwords in its URLs masked. */
    private static String shown(ConfigKey<?> key, String text) {
        return key.secret() ? Secrets.MASK : Secrets.maskCredentials(text);
    }

    private static <T> String format(ConfigKey<T> key, Object value) {
        return key.format(key.valueClass().cast(value));
    }

    @Override
    public String toString() {
        return sourceName + " " + values;
    }
}
