package org.openmft.agent.transfer.protocol;

import java.security.SecureRandom;
import java.util.HexFormat;

import org.openmft.agent.transfer.state.StateTag;

/**
 * The source agent's per-transfer keys: each transfer's key is derived from its id with the agent's
 * state key ({@link StateTag}: 32 random bytes in the agent's private state directory, readable by
 * the agent's user only), under a label of its own so that no key is also a state tag. The source
 * sends the key in its START; from then on every message of the transfer, both ways, carries a tag
 * under it ({@link MessageTag}), so only the two agents of the transfer can speak for it. Deriving
 * the key means the source never stores one, and finds it again after a restart.
 *
 * <p>Immutable and thread-safe.
 */
public final class TransferKeys {
    private static final String LABEL = "transfer key 1";

    private final StateTag secret;

    private TransferKeys(StateTag secret) {
        this.secret = secret;
    }

    /**
     * The keys of an agent.
     *
     * @param stateKey the agent's state key
     */
    public static TransferKeys of(StateTag stateKey) {
        return new TransferKeys(stateKey);
    }

    /** Keys from a secret kept in memory only, for an agent without a state directory (tests). */
    public static TransferKeys ephemeral() {
        byte[] fresh = new byte[32];
        new SecureRandom().nextBytes(fresh);
        return new TransferKeys(StateTag.of(fresh));
    }

    /**
     * The key of a transfer this agent is the source of.
     *
     * @param transferId the transfer id
     * @return 32 bytes, the same for the same id and state key
     */
    public byte[] forTransfer(String transferId) {
        return HexFormat.of().parseHex(secret.tag(LABEL, transferId));
    }
}
