package org.openmft.agent.protection;

import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.openmft.agent.ByAgent;
import org.openmft.agent.tls.StorePasswords;
import org.openmft.agent.tls.TlsSettingException;

/**
 * The administrator's message protection policy of one agent, and the keys it needs: the level it
 * sends with to each destination agent and requires from each source agent
 * ({@code openmft.messageProtection}, with exceptions per agent in
 * {@code openmft.messageProtectionByAgent}), and its {@link PeerKeys}.
 *
 * <p>Between two agents the source's level for the destination is the one used; the destination
 * refuses a START (result 67) whose level is below its own for that source, and drops any later
 * message below it. So a pair is protected at the stronger of the two agents' levels, or the
 * transfer does not happen.
 *
 * <p>Immutable and thread-safe.
 */
public final class MessageProtection {
    /** No protection asked for, and no keys. */
    public static final MessageProtection NONE = new MessageProtection(ProtectionLevel.NONE, Map.of(), PeerKeys.NONE);

    /** The keys of the settings, for messages. */
    public static final String LEVEL_KEY = "openmft.messageProtection";
    /** The per-agent exceptions' key. */
    public static final String BY_AGENT_KEY = "openmft.messageProtectionByAgent";
    /** The key store's key. */
    public static final String KEY_STORE_KEY = "openmft.protectionKeyStore";
    /** The trust store's key. */
    public static final String TRUST_STORE_KEY = "openmft.protectionTrustStore";

    private final ProtectionLevel level;
    private final Map<String, ProtectionLevel> byAgent;
    private final PeerKeys keys;

    private MessageProtection(ProtectionLevel level, Map<String, ProtectionLevel> byAgent, PeerKeys keys) {
        this.level = level;
        this.byAgent = byAgent;
        this.keys = keys;
    }

    /**
     * A policy with keys already open (tests, tools).
     *
     * @param level   the level for agents not in {@code byAgent}
     * @param byAgent levels of named agents (names in any case)
     * @param keys    the keys, or {@link PeerKeys#NONE}
     * @return the policy
     */
    public static MessageProtection of(ProtectionLevel level, Map<String, ProtectionLevel> byAgent, PeerKeys keys) {
        Map<String, ProtectionLevel> upper = new LinkedHashMap<>();
        byAgent.forEach((k, v) -> upper.put(k.toUpperCase(Locale.ROOT), v));
        return new MessageProtection(level, Map.copyOf(upper), keys);
    }

    /**
     * Opens an agent's policy: the stores are opened when configured, and must be when any level
     * is above none; every agent named with a level above none must have a valid certificate.
     *
     * @param agentName     this agent
     * @param level         {@code openmft.messageProtection}
     * @param byAgent       {@code openmft.messageProtectionByAgent}, parsed ({@link #parseByAgent})
     * @param keyStore      {@code openmft.protectionKeyStore}, or null
     * @param keyCredentials {@code openmft.protectionKeyStoreCredentialsFile}, or null
     * @param trustStore    {@code openmft.protectionTrustStore}, or null
     * @param trustCredentials {@code openmft.protectionTrustStoreCredentialsFile}, or null
     * @param clock         for certificates' validity
     * @return the policy
     * @throws ProtectionException naming the key and what is wrong
     */
    public static MessageProtection open(String agentName, ProtectionLevel level, Map<String, ProtectionLevel> byAgent,
            Path keyStore, Path keyCredentials, Path trustStore, Path trustCredentials, Clock clock)
            throws ProtectionException {
        boolean needed = level != ProtectionLevel.NONE || byAgent.values().stream().anyMatch(l -> l != ProtectionLevel.NONE);
        PeerKeys keys = PeerKeys.NONE;
        if (keyStore != null || trustStore != null) {
            keys = AgentKeyStores.open(agentName, require(keyStore, KEY_STORE_KEY),
                    password(keyCredentials, keyStore, KEY_STORE_KEY + "CredentialsFile"),
                    require(trustStore, TRUST_STORE_KEY),
                    password(trustCredentials, trustStore, TRUST_STORE_KEY + "CredentialsFile"), clock);
        } else if (needed) {
            throw new ProtectionException(KEY_STORE_KEY + " and " + TRUST_STORE_KEY + " are required: message"
                    + " protection above none is asked for (" + LEVEL_KEY + "=" + level.word()
                    + (byAgent.isEmpty() ? "" : ", " + BY_AGENT_KEY + "=" + format(byAgent)) + ")");
        }
        MessageProtection p = of(level, byAgent, keys);
        for (Map.Entry<String, ProtectionLevel> e : p.byAgent.entrySet()) {
            if (e.getValue() != ProtectionLevel.NONE) {
                try {
                    keys.checkPeer(e.getKey());
                } catch (ProtectionException x) {
                    throw new ProtectionException(BY_AGENT_KEY + " asks for " + e.getValue().word() + " with agent "
                            + e.getKey() + ", but " + x.getMessage(), x);
                }
            }
        }
        return p;
    }

    private static Path require(Path store, String key) throws ProtectionException {
        if (store == null) {
            throw new ProtectionException(key + " is required: " + KEY_STORE_KEY + " and " + TRUST_STORE_KEY
                    + " go together");
        }
        return store;
    }

    private static char[] password(Path credentials, Path store, String key) throws ProtectionException {
        if (credentials == null) {
            throw new ProtectionException(key + " is required: the file holding the password of " + store);
        }
        try {
            return StorePasswords.read(credentials, store, key).toCharArray();
        } catch (TlsSettingException e) {
            throw new ProtectionException(e.getMessage(), e);
        }
    }

    /**
     * Reads {@code openmft.messageProtectionByAgent}: {@code AGENT=level} pairs separated by commas.
     *
     * @param text the value, or null
     * @return agent (upper-case) to level, in the order given
     * @throws IllegalArgumentException naming the malformed pair
     */
    public static Map<String, ProtectionLevel> parseByAgent(String text) {
        return ByAgent.parse(text, ProtectionLevel::parse, "level", "AGENT2=privacy");
    }

    private static String format(Map<String, ProtectionLevel> byAgent) {
        StringBuilder b = new StringBuilder();
        byAgent.forEach((k, v) -> b.append(b.length() == 0 ? "" : ",").append(k).append('=').append(v.word()));
        return b.toString();
    }

    /**
     * The level with {@code agent}: what this agent sends to it as a source, and requires of it as a
     * destination.
     *
     * @param agent the peer agent, in any case
     * @return its level
     */
    public ProtectionLevel levelFor(String agent) {
        return byAgent.getOrDefault(agent == null ? "" : agent.toUpperCase(Locale.ROOT), level);
    }

    /** This agent's keys ({@link PeerKeys#NONE} when it has none). */
    public PeerKeys keys() {
        return keys;
    }
}
