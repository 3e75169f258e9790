package org.openmft.agent.transfer.protocol;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.openmft.agent.config.PrivateFiles;

/**
 * The source agent's per-transfer keys: each transfer's key is an HMAC-SHA256 of its id under a
 * secret of the agent's own ({@value #FILE}, 32 random bytes in the agent's private state
 * directory, made at first use, readable by the agent's user only). The source sends the key in
 * its START; from then on every message of the transfer, both ways, carries a tag under it
 * ({@link MessageTag}), so only the two agents of the transfer can speak for it. Deriving the key
 * from the id means the source never stores one, and finds it again after a restart.
 *
 * <p>Immutable and thread-safe.
 */
public final class TransferKeys {
    /** The secret's file name in the state directory. */
    public static final String FILE = "transfer-keys.secret";
    private static final int SECRET_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final byte[] secret;

    private TransferKeys(byte[] secret) {
        this.secret = secret.clone();
    }

    /**
     * The keys of an agent whose state directory is {@code stateDirectory}: its secret is read, or
     * made when there is none.
     *
     * @throws IOException when the secret cannot be read or written, or has the wrong size
     */
    public static TransferKeys load(Path stateDirectory) throws IOException {
        Path file = stateDirectory.resolve(FILE);
        if (!Files.exists(file)) {
            PrivateFiles.createDirectories(stateDirectory);
            byte[] fresh = new byte[SECRET_BYTES];
            RANDOM.nextBytes(fresh);
            try {
                PrivateFiles.createFile(file, fresh);
            } catch (FileAlreadyExistsException raced) {
                // Another instance made it first: use that one.
            }
        }
        PrivateFiles.ensurePrivateFile(file, "secret of the agent's transfer keys");
        byte[] secret = Files.readAllBytes(file);
        if (secret.length != SECRET_BYTES) {
            throw new IOException(file + " holds " + secret.length + " bytes instead of " + SECRET_BYTES
                    + ": it is not a secret this agent wrote; remove it once no transfer is in flight");
        }
        return new TransferKeys(secret);
    }

    /** Keys from a secret kept in memory only, for an agent without a state directory (tests). */
    public static TransferKeys ephemeral() {
        byte[] fresh = new byte[SECRET_BYTES];
        RANDOM.nextBytes(fresh);
        return new TransferKeys(fresh);
    }

    /**
     * The key of a transfer this agent is the source of.
     *
     * @param transferId the transfer id
     * @return 32 bytes, the same for the same id and secret
     */
    public byte[] forTransfer(String transferId) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            mac.update("openmft transfer key 1\n".getBytes(StandardCharsets.US_ASCII));
            return mac.doFinal(transferId.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JVM has HmacSHA256", e);
        }
    }
}
