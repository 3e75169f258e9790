package org.openmft.agent.protection;

/**
 * The public-key operations of a protected START: this agent's private key signs and unwraps, the
 * certificates of the agents it trusts verify and wrap. See {@link AgentKeyStores}.
 */
public interface PeerKeys {
    /** No keys: every operation fails, naming the missing configuration. */
    PeerKeys NONE = new PeerKeys() {
        private static final String WHY = "this agent has no message protection keys (openmft.protectionKeyStore and"
                + " openmft.protectionTrustStore are not set)";

        @Override
        public byte[] wrap(String agent, byte[] key) throws ProtectionException {
            throw new ProtectionException(WHY);
        }

        @Override
        public byte[] unwrap(byte[] wrapped) throws ProtectionException {
            throw new ProtectionException(WHY);
        }

        @Override
        public byte[] sign(byte[] content) throws ProtectionException {
            throw new ProtectionException(WHY);
        }

        @Override
        public void verify(String agent, byte[] content, byte[] signature) throws ProtectionException {
            throw new ProtectionException(WHY);
        }

        @Override
        public void checkPeer(String agent) throws ProtectionException {
            throw new ProtectionException(WHY);
        }
    };

    /**
     * Wraps a transfer's key so that only {@code agent} can read it.
     *
     * @param agent the agent whose certificate's public key wraps it
     * @param key   the transfer's key
     * @return the wrapped key
     * @throws ProtectionException when this agent has no valid certificate of {@code agent}
     */
    byte[] wrap(String agent, byte[] key) throws ProtectionException;

    /**
     * Unwraps a key wrapped for this agent.
     *
     * @param wrapped what {@link #wrap} made
     * @return the key
     * @throws ProtectionException when it was not wrapped for this agent's key, or was changed
     */
    byte[] unwrap(byte[] wrapped) throws ProtectionException;

    /**
     * Signs with this agent's private key.
     *
     * @param content the bytes signed
     * @return the signature
     * @throws ProtectionException when the key cannot sign
     */
    byte[] sign(byte[] content) throws ProtectionException;

    /**
     * Checks that {@code agent} signed {@code content}.
     *
     * @param agent     the agent named as the signer
     * @param content   the bytes signed
     * @param signature the signature
     * @throws ProtectionException when this agent has no valid certificate of {@code agent}, or the
     *                             signature is not {@code agent}'s over {@code content}
     */
    void verify(String agent, byte[] content, byte[] signature) throws ProtectionException;

    /**
     * Checks that this agent holds a valid certificate of {@code agent}, before a transfer with it begins.
     *
     * @param agent the peer agent
     * @throws ProtectionException naming what is missing or expired
     */
    void checkPeer(String agent) throws ProtectionException;
}
