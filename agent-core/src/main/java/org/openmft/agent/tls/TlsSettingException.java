package org.openmft.agent.tls;

/**
 * A TLS setting that cannot be used: a store that cannot be read, a wrong password, an unknown
 * cipher, a bad peer name, FIPS asked for but not available. The configuration layer turns it into
 * a configuration error (exit code 78) naming {@link #key()}.
 */
public final class TlsSettingException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String key;
    private final String value;

    /**
     * @param message the whole message, naming key, value and what to do
     * @param key the configuration key at fault
     * @param value its value, or null
     */
    public TlsSettingException(String message, String key, String value) {
        super(message);
        this.key = key;
        this.value = value;
    }

    /** The configuration key at fault. */
    public String key() {
        return key;
    }

    /** Its value, or null. */
    public String value() {
        return value;
    }
}
