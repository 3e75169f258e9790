package org.openmft.agent.tls;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * IBM MQ CipherSpec names ({@code agentSslCipherSpec}, a channel's {@code SSLCIPH}) and what they
 * mean to Java: a JSSE cipher suite, or for IBM's alias CipherSpecs a set of protocol versions.
 * The table holds the TLS 1.2 and 1.3 CipherSpecs IBM MQ 9.4 still enables by default; older
 * ones (SSL 3, TLS 1.0, RC4, 3DES, NULL) are left out on purpose.
 */
public final class CipherSpecs {
    private static final Map<String, String> SUITES = Map.ofEntries(
            Map.entry("TLS_AES_128_GCM_SHA256", "TLS_AES_128_GCM_SHA256"),
            Map.entry("TLS_AES_256_GCM_SHA384", "TLS_AES_256_GCM_SHA384"),
            Map.entry("TLS_CHACHA20_POLY1305_SHA256", "TLS_CHACHA20_POLY1305_SHA256"),
            Map.entry("ECDHE_ECDSA_AES_128_CBC_SHA256", "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256"),
            Map.entry("ECDHE_ECDSA_AES_256_CBC_SHA384", "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384"),
            Map.entry("ECDHE_ECDSA_AES_128_GCM_SHA256", "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256"),
            Map.entry("ECDHE_ECDSA_AES_256_GCM_SHA384", "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384"),
            Map.entry("ECDHE_ECDSA_CHACHA20_POLY1305_SHA256", "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256"),
            Map.entry("ECDHE_RSA_AES_128_CBC_SHA256", "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256"),
            Map.entry("ECDHE_RSA_AES_256_CBC_SHA384", "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384"),
            Map.entry("ECDHE_RSA_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"),
            Map.entry("ECDHE_RSA_AES_256_GCM_SHA384", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384"),
            Map.entry("ECDHE_RSA_CHACHA20_POLY1305_SHA256", "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256"),
            Map.entry("TLS_RSA_WITH_AES_128_GCM_SHA256", "TLS_RSA_WITH_AES_128_GCM_SHA256"),
            Map.entry("TLS_RSA_WITH_AES_256_GCM_SHA384", "TLS_RSA_WITH_AES_256_GCM_SHA384"),
            Map.entry("TLS_RSA_WITH_AES_128_CBC_SHA256", "TLS_RSA_WITH_AES_128_CBC_SHA256"),
            Map.entry("TLS_RSA_WITH_AES_256_CBC_SHA256", "TLS_RSA_WITH_AES_256_CBC_SHA256"));

    /** IBM's alias CipherSpecs: the protocols they allow, and the IBM JMS client's name for them. */
    private static final Map<String, Alias> ALIASES = Map.of(
            "ANY_TLS12_OR_HIGHER", new Alias(List.of("TLSv1.3", "TLSv1.2"), "*TLS12ORHIGHER"),
            "ANY_TLS13_OR_HIGHER", new Alias(List.of("TLSv1.3"), "*TLS13ORHIGHER"),
            "ANY_TLS12", new Alias(List.of("TLSv1.2"), "*TLS12"),
            "ANY_TLS13", new Alias(List.of("TLSv1.3"), "*TLS13"),
            "ANY", new Alias(List.of("TLSv1.3", "TLSv1.2"), "*ANY"));

    /** What one alias CipherSpec allows. */
    record Alias(List<String> protocols, String ibmJmsName) {
    }

    private CipherSpecs() {
    }

    /** The JSSE cipher suite of a CipherSpec, if it names one. */
    static Optional<String> suite(String cipherSpec) {
        return Optional.ofNullable(SUITES.get(cipherSpec.toUpperCase(Locale.ROOT)));
    }

    /** The alias CipherSpec of that name, if it is one. */
    static Optional<Alias> alias(String cipherSpec) {
        return Optional.ofNullable(ALIASES.get(cipherSpec.toUpperCase(Locale.ROOT)));
    }

    /** Every CipherSpec name understood, for messages. */
    static String known() {
        return String.join(", ", new java.util.TreeSet<>(ALIASES.keySet())) + ", "
                + String.join(", ", new java.util.TreeSet<>(SUITES.keySet()));
    }
}
