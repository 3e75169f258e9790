package org.openmft.agent.credentials;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;

import javax.crypto.Cipher;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * What {@code fteObfuscate -credentialsKeyFile} does to the secrets of an {@code MQMFTCredentials.xml}
 * ({@code mqUserId} to {@code mqUserIdCipher}, {@code mqPassword} to {@code mqPasswordCipher},
 * {@code password} to {@code passwordCipher}), and its reverse when a process reads the file with
 * IBM's {@code *CredentialsKeyFile}: AES-256-GCM under a key derived from the key file's content with
 * PBKDF2-HMAC-SHA256 (a fresh salt and nonce per value; the attribute name is authenticated, so a
 * value cannot be moved to another attribute). A value is {@value #PREFIX} followed by base64 of
 * salt, nonce and ciphertext with its tag.
 *
 * <p>IBM does not document its cipher, so its values cannot be read here, nor ours by IBM's agents:
 * a value without the prefix is refused naming that. A key built into the program, as IBM's
 * fteObfuscate uses without a key file, protects nothing, so a key file is always required.
 *
 * <p>Immutable and thread-safe.
 */
public final class CredentialsCipher {
    /** Marks a value written by this class. */
    public static final String PREFIX = "OPENMFT1:";
    private static final int SALT_BYTES = 16;
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final int ITERATIONS = 120_000;
    /** The shortest key file content accepted, in bytes, after trimming. */
    static final int MIN_KEY_BYTES = 16;
    private static final int MAX_KEY_FILE_BYTES = 64 * 1024;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Path keyFile;
    private final char[] passphrase;

    private CredentialsCipher(Path keyFile, char[] passphrase) {
        this.keyFile = keyFile;
        this.passphrase = passphrase;
    }

    /**
     * Reads a key file: readable by its owner only (as a credentials file), at most 64 KiB, and at
     * least {@value #MIN_KEY_BYTES} bytes of key once surrounding white space is trimmed.
     *
     * @param keyFile the key file
     * @return the cipher
     * @throws CredentialsException naming the file and what is wrong with it
     */
    public static CredentialsCipher fromKeyFile(Path keyFile) throws CredentialsException {
        try {
            CredentialsFile.checkPrivate(keyFile);
            if (Files.size(keyFile) > MAX_KEY_FILE_BYTES) {
                throw new CredentialsException(keyFile, keyFile + ": a credentials key file is at most "
                        + MAX_KEY_FILE_BYTES + " bytes");
            }
            String key = Files.readString(keyFile, StandardCharsets.UTF_8).strip();
            if (key.getBytes(StandardCharsets.UTF_8).length < MIN_KEY_BYTES) {
                throw new CredentialsException(keyFile, keyFile + ": a credentials key file holds at least "
                        + MIN_KEY_BYTES + " bytes of key (for example: head -c 32 /dev/urandom | base64 > key)");
            }
            return new CredentialsCipher(keyFile, key.toCharArray());
        } catch (IOException e) {
            throw new CredentialsException(keyFile, keyFile + ": the credentials key file cannot be read: " + e, e);
        }
    }

    /** The key file this cipher was read from. */
    public Path keyFile() {
        return keyFile;
    }

    /**
     * Encrypts one attribute's value.
     *
     * @param attribute the attribute it will be stored in ({@code mqPasswordCipher}, ...)
     * @param value     the secret
     * @return {@value #PREFIX} and the encrypted value
     */
    public String encrypt(String attribute, String value) {
        byte[] salt = new byte[SALT_BYTES];
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(salt);
        RANDOM.nextBytes(nonce);
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.ENCRYPT_MODE, key(salt), new GCMParameterSpec(TAG_BITS, nonce));
            c.updateAAD(attribute.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = c.doFinal(value.getBytes(StandardCharsets.UTF_8));
            byte[] all = new byte[SALT_BYTES + NONCE_BYTES + sealed.length];
            System.arraycopy(salt, 0, all, 0, SALT_BYTES);
            System.arraycopy(nonce, 0, all, SALT_BYTES, NONCE_BYTES);
            System.arraycopy(sealed, 0, all, SALT_BYTES + NONCE_BYTES, sealed.length);
            return PREFIX + Base64.getEncoder().encodeToString(all);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available in this JVM", e);
        }
    }

    /**
     * Decrypts one attribute's value.
     *
     * @param file      the credentials file, for messages
     * @param attribute the attribute it was read from
     * @param value     its value
     * @return the secret
     * @throws CredentialsException when the value is not one of ours, damaged, or made with another key
     */
    public String decrypt(Path file, String attribute, String value) throws CredentialsException {
        if (!value.startsWith(PREFIX)) {
            throw new CredentialsException(file, file + ": " + attribute + " was not written by OpenMFT's fteObfuscate"
                    + " (IBM's cipher is not documented, so OpenMFT cannot read it): run OpenMFT's fteObfuscate on the"
                    + " file with the clear value, or give the clear value in a file only its owner may read");
        }
        byte[] all;
        try {
            all = Base64.getDecoder().decode(value.substring(PREFIX.length()));
        } catch (IllegalArgumentException e) {
            throw new CredentialsException(file, file + ": " + attribute + " is damaged (not base64)");
        }
        if (all.length < SALT_BYTES + NONCE_BYTES + TAG_BITS / 8) {
            throw new CredentialsException(file, file + ": " + attribute + " is damaged (too short)");
        }
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.DECRYPT_MODE, key(Arrays.copyOfRange(all, 0, SALT_BYTES)),
                    new GCMParameterSpec(TAG_BITS, all, SALT_BYTES, NONCE_BYTES));
            c.updateAAD(attribute.getBytes(StandardCharsets.UTF_8));
            byte[] clear = c.doFinal(all, SALT_BYTES + NONCE_BYTES, all.length - SALT_BYTES - NONCE_BYTES);
            return new String(clear, StandardCharsets.UTF_8);
        } catch (javax.crypto.AEADBadTagException e) {
            throw new CredentialsException(file, file + ": " + attribute + " cannot be decrypted with key file "
                    + keyFile + ": it was encrypted with another key, or changed since");
        } catch (GeneralSecurityException e) {
            throw new CredentialsException(file, file + ": " + attribute + " cannot be decrypted: " + e, e);
        }
    }

    private SecretKeySpec key(byte[] salt) throws GeneralSecurityException {
        SecretKeyFactory f = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256");
        byte[] key = f.generateSecret(new PBEKeySpec(passphrase, salt, ITERATIONS, 256)).getEncoded();
        return new SecretKeySpec(key, "AES");
    }
}
