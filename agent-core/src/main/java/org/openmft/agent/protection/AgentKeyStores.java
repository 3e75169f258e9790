package org.openmft.agent.protection;

import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import java.security.interfaces.RSAKey;
import java.security.spec.MGF1ParameterSpec;
import java.security.spec.PSSParameterSpec;
import java.time.Clock;
import java.util.Collections;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import javax.crypto.Cipher;
import javax.crypto.spec.OAEPParameterSpec;
import javax.crypto.spec.PSource;

/**
 * An agent's message protection keys, from two stores the administrator makes with {@code keytool}
 * (as IBM MQ AMS's keystore holds its user's key and its recipients' certificates): the key store
 * holds this agent's RSA private key and certificate (the entry named after the agent, or its only
 * key entry); the trust store holds the certificate of every agent it exchanges protected transfers
 * with, each under the agent's name as its alias. Keys are wrapped with RSA-OAEP (SHA-256) and STARTs
 * signed with RSASSA-PSS (SHA-256).
 *
 * <p>Certificates are pinned by name: a peer is whoever holds the private key of the certificate
 * stored under its name, so no certificate authority is needed and none is trusted. Validity dates
 * are checked at each use.
 *
 * <p>Immutable and thread-safe.
 */
public final class AgentKeyStores implements PeerKeys {
    /** Smallest RSA modulus accepted, in bits. */
    static final int MIN_RSA_BITS = 2048;
    private static final OAEPParameterSpec OAEP = new OAEPParameterSpec("SHA-256", "MGF1", MGF1ParameterSpec.SHA256,
            PSource.PSpecified.DEFAULT);
    private static final PSSParameterSpec PSS = new PSSParameterSpec("SHA-256", "MGF1", MGF1ParameterSpec.SHA256, 32,
            1);

    private final String agentName;
    private final PrivateKey privateKey;
    private final X509Certificate own;
    private final Map<String, X509Certificate> peers;
    private final Clock clock;

    private AgentKeyStores(String agentName, PrivateKey privateKey, X509Certificate own,
            Map<String, X509Certificate> peers, Clock clock) {
        this.agentName = agentName;
        this.privateKey = privateKey;
        this.own = own;
        this.peers = peers;
        this.clock = clock;
    }

    /**
     * Opens the two stores.
     *
     * @param agentName        this agent
     * @param keyStore         the PKCS12 (or JKS) store with this agent's key
     * @param keyPassword      its password (also the key entry's)
     * @param trustStore       the store with the peers' certificates
     * @param trustPassword    its password
     * @param clock            for validity dates
     * @return the keys
     * @throws ProtectionException naming the store and what is wrong: unreadable, no key entry, not
     *                             RSA, too short, an expired certificate
     */
    public static AgentKeyStores open(String agentName, Path keyStore, char[] keyPassword, Path trustStore,
            char[] trustPassword, Clock clock) throws ProtectionException {
        KeyStore keys = load(keyStore, keyPassword, "key store");
        String alias = keyAlias(keys, agentName, keyStore);
        PrivateKey privateKey;
        X509Certificate own;
        try {
            Key key = keys.getKey(alias, keyPassword);
            Certificate cert = keys.getCertificate(alias);
            if (!(key instanceof PrivateKey pk) || !(cert instanceof X509Certificate x509)) {
                throw new ProtectionException(keyStore + ": entry '" + alias + "' has no private key with an X.509"
                        + " certificate");
            }
            privateKey = pk;
            own = x509;
        } catch (GeneralSecurityException e) {
            throw new ProtectionException(keyStore + ": the private key of entry '" + alias + "' cannot be read: "
                    + e.getMessage(), e);
        }
        if (!(privateKey instanceof RSAKey rsa) || !"RSA".equals(own.getPublicKey().getAlgorithm())) {
            throw new ProtectionException(keyStore + ": entry '" + alias + "' holds a " + privateKey.getAlgorithm()
                    + " key; message protection needs an RSA key (keytool -genkeypair -keyalg RSA -keysize 3072)");
        }
        if (rsa.getModulus().bitLength() < MIN_RSA_BITS) {
            throw new ProtectionException(keyStore + ": entry '" + alias + "' holds an RSA key of "
                    + rsa.getModulus().bitLength() + " bits; at least " + MIN_RSA_BITS + " are needed");
        }
        checkValid(own, "this agent's certificate in " + keyStore, clock);
        KeyStore trust = load(trustStore, trustPassword, "trust store");
        Map<String, X509Certificate> peers = new LinkedHashMap<>();
        try {
            for (String a : Collections.list(trust.aliases())) {
                if (trust.getCertificate(a) instanceof X509Certificate c) {
                    peers.put(a.toUpperCase(Locale.ROOT), c);
                }
            }
        } catch (GeneralSecurityException e) {
            throw new ProtectionException(trustStore + ": cannot be read: " + e.getMessage(), e);
        }
        return new AgentKeyStores(agentName.toUpperCase(Locale.ROOT), privateKey, own, Map.copyOf(peers), clock);
    }

    private static KeyStore load(Path file, char[] password, String what) throws ProtectionException {
        try {
            return KeyStore.getInstance(file.toFile(), password);
        } catch (IOException | GeneralSecurityException e) {
            throw new ProtectionException(file + ": the message protection " + what + " cannot be opened: "
                    + e.getMessage(), e);
        }
    }

    private static String keyAlias(KeyStore keys, String agentName, Path file) throws ProtectionException {
        String only = null;
        int count = 0;
        try {
            for (String a : Collections.list(keys.aliases())) {
                if (keys.isKeyEntry(a)) {
                    if (a.equalsIgnoreCase(agentName)) {
                        return a;
                    }
                    only = a;
                    count++;
                }
            }
        } catch (GeneralSecurityException e) {
            throw new ProtectionException(file + ": cannot be read: " + e.getMessage(), e);
        }
        if (count == 1) {
            return only;
        }
        throw new ProtectionException(file + ": " + (count == 0 ? "holds no private key entry" : "holds " + count
                + " private key entries and none is named " + agentName) + "; make one with 'keytool -genkeypair -alias "
                + agentName + " -keyalg RSA -keysize 3072 -dname CN=" + agentName + " -storetype pkcs12 -keystore "
                + file + "'");
    }

    private static void checkValid(X509Certificate c, String what, Clock clock) throws ProtectionException {
        try {
            c.checkValidity(Date.from(clock.instant()));
        } catch (CertificateExpiredException e) {
            throw new ProtectionException(what + " expired on " + c.getNotAfter().toInstant());
        } catch (CertificateNotYetValidException e) {
            throw new ProtectionException(what + " is not valid before " + c.getNotBefore().toInstant());
        }
    }

    /** The certificate of this agent, for the administrator to give to its peers. */
    public X509Certificate certificate() {
        return own;
    }

    /** The agents whose certificates this agent holds, upper-case. */
    public java.util.Set<String> peers() {
        return peers.keySet();
    }

    private X509Certificate peer(String agent) throws ProtectionException {
        String name = agent == null ? "" : agent.toUpperCase(Locale.ROOT);
        X509Certificate c = peers.get(name);
        if (c == null && name.equals(agentName)) {
            c = own;
        }
        if (c == null) {
            throw new ProtectionException("this agent's message protection trust store has no certificate of agent "
                    + agent + " (an entry named " + agent + ": keytool -importcert -alias " + agent + ")");
        }
        checkValid(c, "the certificate of agent " + agent, clock);
        return c;
    }

    @Override
    public void checkPeer(String agent) throws ProtectionException {
        peer(agent);
    }

    @Override
    public byte[] wrap(String agent, byte[] key) throws ProtectionException {
        X509Certificate c = peer(agent);
        try {
            Cipher rsa = Cipher.getInstance("RSA/ECB/OAEPPadding");
            rsa.init(Cipher.ENCRYPT_MODE, c.getPublicKey(), OAEP);
            return rsa.doFinal(key);
        } catch (GeneralSecurityException e) {
            throw new ProtectionException("cannot wrap a key for agent " + agent + ": " + e.getMessage(), e);
        }
    }

    @Override
    public byte[] unwrap(byte[] wrapped) throws ProtectionException {
        try {
            Cipher rsa = Cipher.getInstance("RSA/ECB/OAEPPadding");
            rsa.init(Cipher.DECRYPT_MODE, privateKey, OAEP);
            return rsa.doFinal(wrapped);
        } catch (GeneralSecurityException e) {
            throw new ProtectionException("the transfer key was not wrapped for this agent's key", e);
        }
    }

    @Override
    public byte[] sign(byte[] content) throws ProtectionException {
        try {
            Signature s = Signature.getInstance("RSASSA-PSS");
            s.setParameter(PSS);
            s.initSign(privateKey);
            s.update(content);
            return s.sign();
        } catch (GeneralSecurityException e) {
            throw new ProtectionException("cannot sign with this agent's key: " + e.getMessage(), e);
        }
    }

    @Override
    public void verify(String agent, byte[] content, byte[] signature) throws ProtectionException {
        X509Certificate c = peer(agent);
        boolean valid;
        try {
            Signature s = Signature.getInstance("RSASSA-PSS");
            s.setParameter(PSS);
            s.initVerify(c.getPublicKey());
            s.update(content);
            valid = s.verify(signature);
        } catch (GeneralSecurityException e) {
            valid = false;
        }
        if (!valid) {
            throw new ProtectionException("the signature is not agent " + agent + "'s");
        }
    }
}
