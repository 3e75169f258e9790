package org.openmft.agent.transfer.state;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.openmft.agent.config.PrivateFiles;

/**
 * The authentication tags that tell an agent's own transfer state from state it did not write: an
 * HMAC-SHA256, keyed with 32 random bytes kept in the agent's state directory
 * ({@value #KEY_FILE}, {@code rw-------} in a {@code rwx------} directory), over the content of a
 * STATE record or a state file together with what it claims to be (its kind, queue or file name),
 * so that a tag copied from one record or file to another does not fit.
 *
 * <p>Whoever can put a message on {@code SYSTEM.FTE.STATE.<AGENT>} cannot read the key, so cannot
 * make a record the agent trusts; a record or file whose tag is missing or wrong is never used.
 *
 * <p>State of an earlier version has no tag. When the key is made, a marker
 * ({@value #ADOPT_FILE}) is made first: the untagged state present then is older than the key, so
 * was written by the agent's earlier version, and is adopted (tagged) once by
 * {@link QueueStateStore}, which removes the marker when done; from then on untagged state is
 * refused like a wrong tag. A crash in between leaves the marker, and adoption runs again.
 *
 * <p>Thread-safe.
 */
public final class StateTag {
    /** The key's file in the state directory. */
    public static final String KEY_FILE = "state.key";
    /** Present while untagged state older than the key is to be adopted. */
    public static final String ADOPT_FILE = "state.key.adopt";
    /** Bytes of key. */
    static final int KEY_BYTES = 32;
    private static final String ALGORITHM = "HmacSHA256";
    /** The prefix of a value {@link #seal} made. */
    private static final String SEALED = "gcm:";
    private static final Set<PosixFilePermission> OTHERS = Set.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

    private final SecretKeySpec key;
    private final Path adoptMarker;
    private final AtomicLong refused = new AtomicLong();
    /**
     * Each thread's {@link Mac}, initialised with the key once: a tag per journal line and record
     * made {@code Mac.getInstance} (a provider look-up) and {@code init} the costliest part of a
     * small file's bookkeeping (docs/profiling.md).
     */
    private final ThreadLocal<Mac> macs = ThreadLocal.withInitial(this::newMac);

    private StateTag(byte[] key, Path adoptMarker) {
        if (key.length != KEY_BYTES) {
            throw new IllegalArgumentException("a state key has " + KEY_BYTES + " bytes, not " + key.length);
        }
        this.key = new SecretKeySpec(key, ALGORITHM);
        this.adoptMarker = adoptMarker;
    }

    /** A tag with this key and nothing to adopt, for tests. */
    public static StateTag of(byte[] key) {
        return new StateTag(key, null);
    }

    /**
     * The key of a state directory: read, or made at first use (the directory is made
     * {@code rwx------}, or tightened so with a warning).
     *
     * @throws StateException when the key file may be read or changed by other users (it is refused:
     *                        a key others know authenticates nothing), is not a key, or cannot be read
     *                        or made
     */
    public static StateTag open(Path directory) throws StateException {
        Path file = directory.resolve(KEY_FILE);
        Path marker = directory.resolve(ADOPT_FILE);
        try {
            PrivateFiles.ensurePrivateDirectory(directory, "state directory");
            if (!Files.exists(file)) {
                // The marker first: a crash between the two leaves it, never a key without it.
                if (!Files.exists(marker)) {
                    Files.write(marker, new byte[0]);
                }
                byte[] fresh = new byte[KEY_BYTES];
                new SecureRandom().nextBytes(fresh);
                try {
                    PrivateFiles.createFile(file, fresh);
                } catch (FileAlreadyExistsException e) {
                    // Another process of this agent made it meanwhile: its key is the one.
                }
            }
            checkPrivate(file);
            byte[] bytes = Files.readAllBytes(file);
            if (bytes.length != KEY_BYTES) {
                throw new StateException(file + ": the agent's state key is damaged (" + bytes.length + " bytes, not "
                        + KEY_BYTES + "); the transfer state it authenticated cannot be trusted. Remove the agent's"
                        + " transfer state ('fteCleanAgent -trs') to start afresh", null);
            }
            return new StateTag(bytes, Files.exists(marker) ? marker : null);
        } catch (IOException e) {
            throw new StateException(file + ": the agent's state key cannot be read or made: " + e, e);
        }
    }

    private static void checkPrivate(Path file) throws IOException, StateException {
        if (!PrivateFiles.isPosix(file)) {
            return; // Not a POSIX file system: its access control is the administrator's.
        }
        Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
        if (perms.stream().anyMatch(OTHERS::contains)) {
            throw new StateException(file + ": the agent's state key may be read or changed by other users of this"
                    + " machine (" + PosixFilePermissions.toString(perms) + "); it is refused, since anyone knowing it"
                    + " can forge transfer state: protect it first with 'chmod 600 " + file + "'", null);
        }
    }

    /** Whether untagged state older than the key is still to be adopted. */
    boolean adopting() {
        return adoptMarker != null && Files.exists(adoptMarker);
    }

    /** Adoption is done: untagged state is refused from now on. */
    void adopted() throws IOException {
        if (adoptMarker != null) {
            try {
                Files.delete(adoptMarker);
            } catch (NoSuchFileException e) {
                // Done by another store of this agent.
            }
        }
    }

    /**
     * The tag of {@code fields} in {@code kind} (such as "record" or "line"): lower-case hex. Each
     * field is framed by its length (null apart from ""), so no two lists of fields share an input.
     */
    public String tag(String kind, String... fields) {
        Mac mac = mac();
        update(mac, kind);
        for (String f : fields) {
            update(mac, f);
        }
        return HexFormat.of().formatHex(mac.doFinal());
    }

    /** The tag of a whole file's {@code content}, named {@code name}. */
    String tagBytes(String name, byte[] content) {
        Mac mac = mac();
        update(mac, "file");
        update(mac, name);
        mac.update(content);
        return HexFormat.of().formatHex(mac.doFinal());
    }

    /**
     * Encrypts a secret kept in transfer state that leaves the agent's machine (a transfer's key in
     * a STATE queue record): AES-256-GCM under a key derived from the state key, with a random nonce.
     *
     * @param secret the secret, or null
     * @return {@code gcm:} and base64 of nonce and ciphertext; null for null
     */
    public String seal(String secret) {
        if (secret == null) {
            return null;
        }
        try {
            byte[] nonce = new byte[12];
            new SecureRandom().nextBytes(nonce);
            javax.crypto.Cipher c = javax.crypto.Cipher.getInstance("AES/GCM/NoPadding");
            c.init(javax.crypto.Cipher.ENCRYPT_MODE, secretKey(), new javax.crypto.spec.GCMParameterSpec(128, nonce));
            byte[] out = c.doFinal(secret.getBytes(StandardCharsets.UTF_8));
            return SEALED + java.util.Base64.getEncoder().encodeToString(ByteBuffer.allocate(nonce.length + out.length)
                    .put(nonce).put(out).array());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JVM has AES/GCM", e);
        }
    }

    /**
     * Reads what {@link #seal} made; a value without its prefix (written before secrets were
     * sealed, in a record whose tag is checked) is returned as it is.
     *
     * @param stored the stored value, or null
     * @return the secret, or null when {@code stored} is null or was not sealed with this key
     */
    public String open(String stored) {
        if (stored == null || !stored.startsWith(SEALED)) {
            return stored;
        }
        try {
            byte[] all = java.util.Base64.getDecoder().decode(stored.substring(SEALED.length()));
            javax.crypto.Cipher c = javax.crypto.Cipher.getInstance("AES/GCM/NoPadding");
            c.init(javax.crypto.Cipher.DECRYPT_MODE, secretKey(), new javax.crypto.spec.GCMParameterSpec(128, all, 0,
                    12));
            return new String(c.doFinal(all, 12, all.length - 12), StandardCharsets.UTF_8);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return null;
        }
    }

    private javax.crypto.spec.SecretKeySpec secretKey() {
        Mac mac = mac();
        update(mac, "state secret 1");
        return new javax.crypto.spec.SecretKeySpec(mac.doFinal(), "AES");
    }

    /** Whether {@code tag} is the tag {@code expected}, compared in constant time. */
    public static boolean matches(String expected, String tag) {
        return tag != null && MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII),
                tag.getBytes(StandardCharsets.US_ASCII));
    }

    /** Counts a record, file or line refused for its tag or transfer id. */
    public void refused() {
        refused.incrementAndGet();
    }

    /** The records, files and lines refused since this key was opened. */
    public long refusedCount() {
        return refused.get();
    }

    private Mac mac() {
        Mac mac = macs.get();
        mac.reset();
        return mac;
    }

    private Mac newMac() {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JVM has " + ALGORITHM, e);
        }
    }

    private static void update(Mac mac, String field) {
        if (field == null) {
            mac.update(ByteBuffer.allocate(4).putInt(-1).array());
            return;
        }
        byte[] bytes = field.getBytes(StandardCharsets.UTF_8);
        mac.update(ByteBuffer.allocate(4).putInt(bytes.length).array());
        mac.update(bytes);
    }
}
