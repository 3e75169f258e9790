package org.openmft.agent.config;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * One key of a properties file: its name (IBM's spelling, verbatim, because IBM's key names are
 * OpenMFT's public API), type, default, validator, whether it is required, whether OpenMFT acts on
 * it yet, a group and a one-line description. Keys are declared once, as constants of
 * {@link AgentProperties}, {@link CoordinationProperties} and {@link CommandProperties}; parsing,
 * error messages and the generated reference all come from the declaration, so adding a key is
 * one edit.
 *
 * <p>Instances are immutable and thread-safe. Create them with the static builder methods.
 *
 * <p>Why this file stays whole (over 600 lines): the key, its {@link Type}, its parsing and its
 * {@link Builder} are one declaration language; split, every key declaration would import three
 * types and the builder's checks (every key has a description and a group, a required key has no
 * default, a default passes its own validator) would have to reach into the key from outside. Most of
 * its length is Javadoc of the builder's methods.
 *
 * @param <T> the Java type of a parsed value
 */
public final class ConfigKey<T> {

    /** The kinds of value a key can hold. */
    public enum Type {
        /** Free text, {@link String}. */
        STRING("text", "any text"),
        /** A 32-bit integer, {@link Integer}. */
        INT("int", "an integer"),
        /** A 64-bit integer, {@link Long}. */
        LONG("long", "an integer"),
        /** {@code true} or {@code false} (any case), {@link Boolean}. Nothing else: "yes" is an error. */
        BOOLEAN("boolean", "true or false"),
        /** One of a fixed set of words (any case), a Java enum constant. */
        ENUM("enum", null),
        /** One file system path, {@link Path}, with {@code ${VAR}} replaced from the environment. */
        PATH("path", "a file path"),
        /**
         * Several paths in IBM's syntax (platform path separator, sometimes {@code !} prefixes), kept as a
         * {@link String} for the feature that reads it, with {@code ${VAR}} replaced from the environment.
         */
        PATH_LIST("path list", "paths separated by the platform path separator");

        private final String label;
        private final String allowed;

        Type(String label, String allowed) {
            this.label = label;
            this.allowed = allowed;
        }

        /**
         * A short name for documentation.
         *
         * @return such as "int" or "path"
         */
        public String label() {
            return label;
        }

        /** Whether an empty value means "not set" rather than a malformed value. */
        boolean blankMeansAbsent() {
            return this == STRING || this == PATH || this == PATH_LIST;
        }

        /** Whether {@code ${VAR}} is expanded: IBM allows environment variables in file paths. */
        boolean expandsVariables() {
            return this == PATH || this == PATH_LIST;
        }
    }

    private final String name;
    private final Type type;
    private final Class<T> valueClass;
    private final T defaultValue;
    private final Supplier<T> computedDefault;
    private final String defaultLabel;
    private final Validator<? super T> validator;
    private final String unit;
    private final boolean required;
    private final boolean supported;
    private final String description;
    private final String group;
    private final UnaryOperator<T> normalizer;
    private final Map<String, T> spellings;
    private final boolean protection;
    private final boolean secret;

    private ConfigKey(Builder<T> b) {
        this.name = b.name;
        this.type = b.type;
        this.valueClass = b.valueClass;
        this.defaultValue = b.defaultValue;
        this.computedDefault = b.computedDefault;
        this.defaultLabel = b.defaultLabel;
        this.validator = b.validator;
        this.unit = b.unit;
        this.required = b.required;
        this.supported = b.supported;
        this.description = b.description;
        this.group = b.group;
        this.normalizer = b.normalizer;
        this.spellings = b.spellings;
        this.protection = b.protection || CommonKeys.SECURITY.equals(b.group);
        this.secret = b.secret;
    }

    /**
     * Starts a text key.
     *
     * @param name the key name, IBM's spelling
     * @return a builder
     */
    public static Builder<String> string(String name) {
        return new Builder<>(name, Type.STRING, String.class, null);
    }

    /**
     * Starts a 32-bit integer key.
     *
     * @param name the key name, IBM's spelling
     * @return a builder
     */
    public static Builder<Integer> integer(String name) {
        return new Builder<>(name, Type.INT, Integer.class, null);
    }

    /**
     * Starts a 64-bit integer key.
     *
     * @param name the key name, IBM's spelling
     * @return a builder
     */
    public static Builder<Long> longInteger(String name) {
        return new Builder<>(name, Type.LONG, Long.class, null);
    }

    /**
     * Starts a boolean key.
     *
     * @param name the key name, IBM's spelling
     * @return a builder
     */
    public static Builder<Boolean> bool(String name) {
        return new Builder<>(name, Type.BOOLEAN, Boolean.class, null);
    }

    /**
     * Starts a key holding one path.
     *
     * @param name the key name, IBM's spelling
     * @return a builder
     */
    public static Builder<Path> path(String name) {
        return new Builder<>(name, Type.PATH, Path.class, null);
    }

    /**
     * Starts a key holding a list of paths in IBM's syntax.
     *
     * @param name the key name, IBM's spelling
     * @return a builder
     */
    public static Builder<String> pathList(String name) {
        return new Builder<>(name, Type.PATH_LIST, String.class, null);
    }

    /**
     * Starts a key whose value is one constant of an enum, written in the file as
     * {@code spelling.apply(constant)} and read back in any case.
     *
     * @param <E> the enum type
     * @param name the key name, IBM's spelling
     * @param type the enum class
     * @param spelling how each constant is written in a file
     * @return a builder
     */
    public static <E extends Enum<E>> Builder<E> enumeration(String name, Class<E> type, Function<E, String> spelling) {
        Map<String, E> map = new LinkedHashMap<>();
        for (E constant : type.getEnumConstants()) {
            map.put(spelling.apply(constant), constant);
        }
        return new Builder<>(name, Type.ENUM, type, map.isEmpty() ? null : Collections.unmodifiableMap(map));
    }

    /**
     * The key name, exactly as written in the file.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * The kind of value.
     *
     * @return the type
     */
    public Type type() {
        return type;
    }

    /**
     * The Java class of parsed values.
     *
     * @return the class
     */
    public Class<T> valueClass() {
        return valueClass;
    }

    /**
     * The value used when the key is absent.
     *
     * @return the default, or {@code null} when the key has none (absent means "not set")
     */
    public T defaultValue() {
        return computedDefault != null ? computedDefault.get() : defaultValue;
    }

    /**
     * The default as shown in documentation: a fixed text for defaults that depend on the machine
     * (such as the user's home directory), so that the generated reference is the same everywhere.
     *
     * @return the default in words or property syntax, or empty when the key has no default
     */
    public Optional<String> defaultText() {
        if (defaultLabel != null) {
            return Optional.of(defaultLabel);
        }
        return defaultValue == null ? Optional.empty() : Optional.of(format(defaultValue));
    }

    /** Whether the default depends on the machine, so that documentation shows it in words. */
    boolean hasComputedDefault() {
        return computedDefault != null;
    }

    /**
     * The extra rule a value must satisfy beyond its type.
     *
     * @return the validator, if any
     */
    public Optional<Validator<? super T>> validator() {
        return Optional.ofNullable(validator);
    }

    /**
     * The unit of numeric values, such as "bytes", "ms" or "s".
     *
     * @return the unit, if the value has one
     */
    public Optional<String> unit() {
        return Optional.ofNullable(unit);
    }

    /**
     * Whether a file without this key is refused.
     *
     * @return true when required
     */
    public boolean required() {
        return required;
    }

    /**
     * Whether OpenMFT acts on this key. False means an IBM key that OpenMFT recognises but ignores
     * (with a warning) because the feature behind it is not implemented yet.
     *
     * @return true when supported
     */
    public boolean supported() {
        return supported;
    }

    /**
     * Whether a value of this key asks for protection (TLS, credentials, authority checks,
     * sandboxes): every key of the {@value CommonKeys#SECURITY} group, and keys marked with
     * {@link Builder#protection()}. Such a key that OpenMFT does not support yet, set to anything
     * but its default, stops start-up instead of being ignored with a warning: running without the
     * protection a file asks for would fail open.
     *
     * @return true when the key asks for protection
     */
    public boolean asksForProtection() {
        return protection;
    }

    /**
     * Whether values of this key are secrets (passwords): the logged configuration masks them, and a
     * properties file holding one is written readable by its owner only.
     *
     * @return true when the value is a secret
     */
    public boolean secret() {
        return secret;
    }

    /**
     * One line saying what the key does.
     *
     * @return the description
     */
    public String description() {
        return description;
    }

    /**
     * The concern the key belongs to, such as "Connection" or "Limits", for the reference.
     *
     * @return the group name
     */
    public String group() {
        return group;
    }

    /**
     * What values are allowed, as a noun phrase with the unit, such as
     * "an integer from 1024 to 4128768 (bytes)".
     *
     * @return the description of allowed values
     */
    public String allowed() {
        String text;
        if (validator != null) {
            text = validator.describe();
        } else if (type == Type.ENUM) {
            List<String> words = new ArrayList<>(spellings.keySet());
            text = words.size() == 1 ? words.get(0) : "one of " + String.join(", ", words);
        } else {
            text = type.allowed;
        }
        return unit == null ? text : text + " (" + unit + ")";
    }

    /**
     * A one-line summary for help output and logs.
     *
     * @return name, group, type, default, allowed values, status and description
     */
    public String doc() {
        return name + " [" + group + "] " + type.label()
                + (required ? ", required" : ", default " + defaultText().map(d -> d.isEmpty() ? "empty" : d).orElse("none"))
                + ", allowed: " + allowed()
                + (supported ? "" : protection ? ", not supported yet: a value other than the default stops start-up"
                        : ", recognised but not supported yet")
                + ". " + description;
    }

    /**
     * Writes a value the way it would appear in a properties file (before escaping).
     *
     * @param value a value of this key
     * @return the text
     */
    public String format(T value) {
        if (type == Type.ENUM) {
            for (Map.Entry<String, T> e : spellings.entrySet()) {
                if (e.getValue().equals(value)) {
                    return e.getKey();
                }
            }
        }
        return String.valueOf(value);
    }

    /**
     * Parses one trimmed value. Package-private: callers go through {@link ConfigRegistry#parse}.
     *
     * @param text the trimmed value
     * @param env the environment for {@code ${VAR}} expansion
     * @param source the file name for messages
     * @return the parsed, validated and normalised value
     * @throws ConfigurationException when the value is not allowed
     */
    T parse(String text, Map<String, String> env, String source) throws ConfigurationException {
        T value;
        try {
            value = convert(type.expandsVariables() ? expand(text, env, source) : text);
        } catch (NumberFormatException | InvalidPathException e) {
            throw notAllowed(text, source);
        }
        if (value == null || (validator != null && !validator.accepts(value))) {
            throw notAllowed(text, source);
        }
        return normalizer == null ? value : normalizer.apply(value);
    }

    private T convert(String text) {
        Object value = switch (type) {
            case STRING, PATH_LIST -> text;
            case INT -> Integer.valueOf(text);
            case LONG -> Long.valueOf(text);
            case BOOLEAN -> "true".equalsIgnoreCase(text) ? Boolean.TRUE
                    : "false".equalsIgnoreCase(text) ? Boolean.FALSE : null;
            case PATH -> Path.of(text);
            case ENUM -> spellings.entrySet().stream()
                    .filter(e -> e.getKey().equalsIgnoreCase(text))
                    .map(Map.Entry::getValue)
                    .findFirst().orElse(null);
        };
        return valueClass.cast(value);
    }

    private ConfigurationException notAllowed(String text, String source) {
        return new ConfigurationException(source + ": " + name + "=" + text + " is not allowed: " + allowed()
                + " is required", name, text);
    }

    /** Replaces {@code ${VAR}}; a lone {@code $} stays as it is, because it is legal in file names. */
    private String expand(String text, Map<String, String> env, String source) throws ConfigurationException {
        StringBuilder out = new StringBuilder(text.length());
        int i = 0;
        while (i < text.length()) {
            int start = text.indexOf("${", i);
            if (start < 0) {
                out.append(text, i, text.length());
                break;
            }
            int end = text.indexOf('}', start + 2);
            if (end < 0) {
                throw new ConfigurationException(source + ": " + name + "=" + text
                        + " is not allowed: '${' without a closing '}'; write ${VAR} to use environment variable VAR",
                        name, text);
            }
            String variable = text.substring(start + 2, end);
            String replacement = variable.isEmpty() ? null : env.get(variable);
            if (replacement == null) {
                throw new ConfigurationException(source + ": " + name + "=" + text + " refers to environment variable '"
                        + variable + "', which is not defined", name, text);
            }
            out.append(text, i, start).append(replacement);
            i = end + 1;
        }
        return out.toString();
    }

    @Override
    public String toString() {
        return name;
    }

    /**
     * Builds a {@link ConfigKey}. Keys are unsupported unless {@link #supported()} is called, so that
     * a key is never advertised as working by omission.
     *
     * @param <T> the Java type of a parsed value
     */
    public static final class Builder<T> {
        private final String name;
        private final Type type;
        private final Class<T> valueClass;
        private final Map<String, T> spellings;
        private T defaultValue;
        private Supplier<T> computedDefault;
        private String defaultLabel;
        private Validator<? super T> validator;
        private String unit;
        private boolean required;
        private boolean supported;
        private boolean protection;
        private boolean secret;
        private String description;
        private String group;
        private UnaryOperator<T> normalizer;

        private Builder(String name, Type type, Class<T> valueClass, Map<String, T> spellings) {
            if (name == null || !name.matches("[A-Za-z][A-Za-z0-9.]*")) {
                throw new IllegalArgumentException("bad key name: " + name);
            }
            this.name = name;
            this.type = type;
            this.valueClass = valueClass;
            this.spellings = spellings;
        }

        /**
         * Sets a fixed default.
         *
         * @param value the default
         * @return this builder
         */
        public Builder<T> defaultValue(T value) {
            this.defaultValue = Objects.requireNonNull(value, "default");
            return this;
        }

        /**
         * Sets a default that depends on the machine, computed when a file is parsed.
         *
         * @param value computes the default
         * @param label the default in words, for documentation
         * @return this builder
         */
        public Builder<T> computedDefault(Supplier<T> value, String label) {
            this.computedDefault = Objects.requireNonNull(value, "value");
            this.defaultLabel = Objects.requireNonNull(label, "label");
            return this;
        }

        /**
         * Sets the rule values must satisfy beyond their type.
         *
         * @param rule the validator
         * @return this builder
         */
        public Builder<T> validator(Validator<? super T> rule) {
            this.validator = Objects.requireNonNull(rule, "rule");
            return this;
        }

        /**
         * Sets the unit shown after the allowed values, such as "bytes".
         *
         * @param text the unit
         * @return this builder
         */
        public Builder<T> unit(String text) {
            this.unit = Objects.requireNonNull(text, "unit");
            return this;
        }

        /**
         * Makes the key required: a file without it is refused.
         *
         * @return this builder
         */
        public Builder<T> required() {
            this.required = true;
            return this;
        }

        /**
         * Marks the key as acted on by OpenMFT.
         *
         * @return this builder
         */
        public Builder<T> supported() {
            this.supported = true;
            return this;
        }

        /**
         * Marks the key as asking for protection although its group is not
         * {@value CommonKeys#SECURITY}: unsupported, it then stops start-up when set.
         *
         * @return this builder
         * @see ConfigKey#asksForProtection()
         */
        public Builder<T> protection() {
            this.protection = true;
            return this;
        }

        /**
         * Marks the value as a secret, masked in logs and kept in owner-only files.
         *
         * @return this builder
         * @see ConfigKey#secret()
         */
        public Builder<T> secret() {
            this.secret = true;
            return this;
        }

        /**
         * Sets the one-line description.
         *
         * @param text the description
         * @return this builder
         */
        public Builder<T> description(String text) {
            this.description = Objects.requireNonNull(text, "description");
            return this;
        }

        /**
         * Sets the group, such as "Connection".
         *
         * @param name the group name
         * @return this builder
         */
        public Builder<T> group(String name) {
            this.group = Objects.requireNonNull(name, "group");
            return this;
        }

        /**
         * Sets a transformation applied to valid values, such as upper-casing agent names.
         *
         * @param function the transformation
         * @return this builder
         */
        public Builder<T> normalizer(UnaryOperator<T> function) {
            this.normalizer = Objects.requireNonNull(function, "normalizer");
            return this;
        }

        /**
         * Creates the key, checking that the declaration is consistent.
         *
         * @return the key
         * @throws IllegalStateException when the description or group is missing, a required key has a
         *         default, or the default breaks the validator
         */
        public ConfigKey<T> build() {
            if (description == null || group == null) {
                throw new IllegalStateException(name + ": description and group are required");
            }
            if (required && (defaultValue != null || computedDefault != null)) {
                throw new IllegalStateException(name + ": a required key cannot have a default");
            }
            if (type == Type.ENUM && spellings == null) {
                throw new IllegalStateException(name + ": enum without constants");
            }
            if (defaultValue != null && validator != null && !validator.accepts(defaultValue)) {
                // A default outside its own range is a declaration bug; catch it when the class loads.
                throw new IllegalStateException(name + ": default " + defaultValue + " is not " + validator.describe());
            }
            return new ConfigKey<>(this);
        }
    }

    /** Upper-cases text in the root locale, so that "i" never becomes a dotless capital. */
    static String upperCase(String text) {
        return text.toUpperCase(Locale.ROOT);
    }
}
