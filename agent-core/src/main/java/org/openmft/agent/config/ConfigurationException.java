package org.openmft.agent.config;

/**
 * A configuration file, or one value in it, that stops start-up. The message is complete and meant
 * for the user as is: it names the file, the key, the value and what would have been allowed.
 * Processes that end because of it exit with {@link #EXIT_CODE}.
 */
public class ConfigurationException extends Exception {
    private static final long serialVersionUID = 1L;

    /**
     * Process exit code for a start-up configuration problem: 78, {@code EX_CONFIG} in BSD's
     * sysexits.h. Fixed so that scripts and service managers can tell "fix the configuration"
     * apart from failures worth a restart.
     */
    public static final int EXIT_CODE = 78;

    /** The key at fault, or null. */
    private final String key;
    /** The value at fault as written, or null. */
    private final String value;

    /**
     * Creates an exception about one key.
     *
     * @param message the complete user-facing message
     * @param key the key at fault, or {@code null} when the problem is the file as a whole
     * @param value the offending value as written (trimmed), or {@code null} when the key is missing
     */
    public ConfigurationException(String message, String key, String value) {
        super(message);
        this.key = key;
        this.value = value;
    }

    /**
     * Creates an exception about a whole file, such as one that cannot be read.
     *
     * @param message the complete user-facing message
     * @param cause the underlying failure
     */
    public ConfigurationException(String message, Throwable cause) {
        super(message, cause);
        this.key = null;
        this.value = null;
    }

    /**
     * The key at fault.
     *
     * @return the key name, or {@code null} when the problem is not about one key
     */
    public String key() {
        return key;
    }

    /**
     * The value at fault.
     *
     * @return the value as written (trimmed), or {@code null} when the key is missing or not relevant
     */
    public String value() {
        return value;
    }
}
