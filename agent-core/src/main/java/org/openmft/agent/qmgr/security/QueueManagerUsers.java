package org.openmft.agent.qmgr.security;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

import org.apache.activemq.artemis.utils.DefaultSensitiveStringCodec;
import org.apache.activemq.artemis.utils.PasswordMaskingUtil;
import org.openmft.agent.config.PrivateFiles;
import org.openmft.agent.credentials.Credentials;
import org.openmft.agent.credentials.CredentialsException;
import org.openmft.agent.credentials.CredentialsFile;

/**
 * The users and roles of one embedded queue manager, in files private to its directory
 * ({@code <qmgr>/security/}, {@code rwx------}):
 * <ul>
 *   <li>{@value #USERS_FILE}: {@code user=ENC(<PBKDF2 hash>)}, Artemis's own one-way codec, so the
 *       file holds no password;</li>
 *   <li>{@value #ROLES_FILE}: {@code role=user1,user2};</li>
 *   <li>{@value #ADMINISTRATOR_CREDENTIALS}: the administrator's user and password in IBM's
 *       {@code MQMFTCredentials.xml} format, which the owner's local commands use;</li>
 *   <li>{@code credentials/<USER>.xml}: the credentials written for users added here.</li>
 * </ul>
 * All are {@code rw-------}, written whole to a temporary file and renamed, so that the queue
 * manager never reads half a file.
 *
 * <p>Why files read by Artemis's {@code PropertiesLoginModule} (see {@link PropertiesLogin}) rather
 * than the basic security manager, which keeps users in the journal: {@code mft qmgr user} and
 * {@code fteCreateAgent} must work whether or not the queue manager runs, and a journal can be
 * written only by the process that has it open. The login module rereads a file when it changes,
 * so a running queue manager sees a new user at its next login; {@link SecurityWatcher} does the
 * rest (permissions of new agents, connections of removed users).
 *
 * <p>Writers (commands, the queue manager's first start) take an exclusive file lock on
 * {@code security/.lock} for each read-modify-write, so two commands never lose each other's change.
 * Thread-safe.
 */
public final class QueueManagerUsers {
    /** The directory below the queue manager's directory. */
    public static final String DIRECTORY = "security";
    /** Users and their hashed passwords. */
    public static final String USERS_FILE = "users.properties";
    /** Roles and their users. */
    public static final String ROLES_FILE = "roles.properties";
    /** The administrator's credentials, IBM's format. */
    public static final String ADMINISTRATOR_CREDENTIALS = CredentialsFile.FILE_NAME;
    /** Where the credentials of users added by {@code mft qmgr user add} go by default. */
    public static final String CREDENTIALS_DIRECTORY = "credentials";
    /** Where the running queue manager records which version of the files it applied. */
    static final String APPLIED = ".applied";
    /** The administrator user a new queue manager gets. */
    public static final String ADMINISTRATOR = "mftadmin";

    private static final Pattern USER = Pattern.compile("[A-Za-z0-9._@-]{1,64}");
    private static final SecureRandom RANDOM = new SecureRandom();
    /** One writer per JVM at a time: a JVM cannot hold two locks on one file. */
    private static final Object JVM_LOCK = new Object();

    private final String qmgrName;
    private final Path directory;

    private QueueManagerUsers(String qmgrName, Path directory) {
        this.qmgrName = qmgrName;
        this.directory = directory;
    }

    /**
     * The users of a queue manager.
     *
     * @param qmgrName      the queue manager name
     * @param qmgrDirectory the queue manager's directory
     * @return the store (nothing is read or written yet)
     */
    public static QueueManagerUsers of(String qmgrName, Path qmgrDirectory) {
        return new QueueManagerUsers(qmgrName, qmgrDirectory.resolve(DIRECTORY));
    }

    /**
     * Checks a user name: 1 to 64 characters from A-Z, a-z, 0-9, '.', '_', '@' and '-'.
     *
     * @param user the name
     * @return the name
     * @throws IllegalArgumentException naming the rule
     */
    public static String validateUser(String user) {
        if (user == null || !USER.matcher(user).matches()) {
            throw new IllegalArgumentException("user name '" + user + "' is not valid: 1 to 64 characters from A-Z,"
                    + " a-z, 0-9, '.', '_', '@' and '-' are allowed");
        }
        return user;
    }

    /** The security directory. */
    public Path directory() {
        return directory;
    }

    /** The file of users and password hashes. */
    public Path usersFile() {
        return directory.resolve(USERS_FILE);
    }

    /** The file of roles. */
    public Path rolesFile() {
        return directory.resolve(ROLES_FILE);
    }

    /** The administrator's credentials file. */
    public Path administratorCredentialsFile() {
        return directory.resolve(ADMINISTRATOR_CREDENTIALS);
    }

    /** Where {@code mft qmgr user add} writes a user's credentials unless told otherwise. */
    public Path defaultCredentialsFile(String user) {
        return directory.resolve(CREDENTIALS_DIRECTORY).resolve(validateUser(user) + ".xml");
    }

    /** Whether the queue manager has its user files. */
    public boolean exists() {
        return Files.isRegularFile(usersFile());
    }

    /**
     * Makes the user files when the queue manager has none (a new queue manager, or one created
     * before security existed): an administrator {@value #ADMINISTRATOR} with a random password, in
     * role {@link Permissions#ADMIN}, whose credentials go to {@link #administratorCredentialsFile()}.
     *
     * @return the administrator's credentials when they were made now; empty when the files existed
     * @throws IOException when the files cannot be written
     */
    public Optional<Credentials> initialize() throws IOException {
        return locked(state -> {
            if (Files.isRegularFile(usersFile())) {
                return Optional.empty();
            }
            Credentials admin = new Credentials(ADMINISTRATOR, newPassword());
            state.users.put(ADMINISTRATOR, hash(admin.password()));
            state.grant(ADMINISTRATOR, Permissions.ADMIN);
            writeCredentials(administratorCredentialsFile(), admin, true);
            state.changed = true;
            return Optional.of(admin);
        });
    }

    /**
     * Adds a user with a random password and the given roles.
     *
     * @param user  the user name
     * @param roles roles to grant (see {@link Permissions#validateRole})
     * @param replace whether an existing user gets a new password (and the roles added) instead of
     *                being refused
     * @return the user's credentials
     * @throws IllegalArgumentException when the name or a role is not valid, or the user exists and
     *                                  {@code replace} is false
     * @throws IOException when the files cannot be written
     */
    public Credentials add(String user, Set<String> roles, boolean replace) throws IOException {
        validateUser(user);
        roles.forEach(Permissions::validateRole);
        return locked(state -> {
            if (state.users.containsKey(user) && !replace) {
                throw new IllegalArgumentException("user " + user + " already exists on queue manager " + qmgrName);
            }
            Credentials c = new Credentials(user, newPassword());
            state.users.put(user, hash(c.password()));
            roles.forEach(r -> state.grant(user, r));
            state.changed = true;
            return c;
        });
    }

    /**
     * Gives an agent a user of its own: user {@code <AGENT>} with a new random password and roles
     * {@code agent} and {@code agent.<AGENT>}, written to {@code credentialsFile} (owner-only,
     * replaced if it exists). An existing user of that name gets the new password.
     *
     * @param agent           the agent name, any case
     * @param credentialsFile where the agent's credentials go
     * @return the agent's credentials
     */
    public Credentials addAgent(String agent, Path credentialsFile) throws IOException {
        String role = Permissions.agentRole(agent);
        String user = role.substring(Permissions.AGENT_PREFIX.length());
        Credentials c = add(user, Set.of(role), true);
        writeCredentials(credentialsFile, c, true);
        return c;
    }

    /**
     * Removes a user and its roles. The running queue manager closes its connections within
     * {@link SecurityWatcher#PERIOD_MILLIS}.
     *
     * @return whether the user existed
     * @throws IllegalArgumentException when removing the last administrator
     */
    public boolean remove(String user) throws IOException {
        validateUser(user);
        return locked(state -> {
            if (!state.users.containsKey(user)) {
                return false;
            }
            Set<String> admins = state.roles.getOrDefault(Permissions.ADMIN, Set.of());
            if (admins.contains(user) && admins.size() == 1) {
                throw new IllegalArgumentException("user " + user + " is the last administrator of queue manager "
                        + qmgrName + ": grant the admin role to another user first");
            }
            state.users.remove(user);
            for (Set<String> members : state.roles.values()) {
                members.remove(user);
            }
            state.roles.values().removeIf(Set::isEmpty);
            state.changed = true;
            return true;
        });
    }

    /**
     * Grants a role to an existing user; {@code agent.<AGENT>} also grants {@code agent}.
     *
     * @throws IllegalArgumentException when the user does not exist or the role is not valid
     */
    public void grant(String user, String role) throws IOException {
        validateUser(user);
        Permissions.validateRole(role);
        locked(state -> {
            requireUser(state, user);
            state.grant(user, role);
            state.changed = true;
            return null;
        });
    }

    /**
     * Takes a role from a user; taking its last {@code agent.<AGENT>} role takes {@code agent} too.
     *
     * @return whether the user had the role
     * @throws IllegalArgumentException when the user does not exist, or it is the last administrator
     */
    public boolean revoke(String user, String role) throws IOException {
        validateUser(user);
        Permissions.validateRole(role);
        return locked(state -> {
            requireUser(state, user);
            Set<String> members = state.roles.get(role);
            if (members == null || !members.contains(user)) {
                return false;
            }
            if (Permissions.ADMIN.equals(role) && members.size() == 1) {
                throw new IllegalArgumentException("user " + user + " is the last administrator of queue manager "
                        + qmgrName);
            }
            members.remove(user);
            if (role.startsWith(Permissions.AGENT_PREFIX) && state.roles.entrySet().stream().noneMatch(
                    e -> e.getKey().startsWith(Permissions.AGENT_PREFIX) && e.getValue().contains(user))) {
                state.roles.getOrDefault(Permissions.AGENT, new TreeSet<>()).remove(user);
            }
            state.roles.values().removeIf(Set::isEmpty);
            state.changed = true;
            return true;
        });
    }

    private void requireUser(State state, String user) {
        if (!state.users.containsKey(user)) {
            throw new IllegalArgumentException("user " + user + " does not exist on queue manager " + qmgrName
                    + " (see 'mft qmgr user list " + qmgrName + "')");
        }
    }

    /**
     * Every user with its roles, sorted by name.
     *
     * @return user to roles
     * @throws IOException when the files cannot be read
     */
    public Map<String, Set<String>> users() throws IOException {
        State state = read();
        Map<String, Set<String>> result = new TreeMap<>();
        for (String user : state.users.keySet()) {
            result.put(user, new TreeSet<>());
        }
        state.roles.forEach((role, members) -> members.forEach(
                u -> result.computeIfAbsent(u, k -> new TreeSet<>()).add(role)));
        result.replaceAll((u, r) -> Collections.unmodifiableSet(r));
        return Collections.unmodifiableMap(result);
    }

    /**
     * Every role with its users, as the queue manager grants them.
     *
     * @return role to users
     * @throws IOException when the file cannot be read
     */
    public Map<String, Set<String>> roles() throws IOException {
        Map<String, Set<String>> result = new TreeMap<>();
        read().roles.forEach((r, m) -> result.put(r, Set.copyOf(m)));
        return result;
    }

    /**
     * The administrator's credentials, for the owner's local commands.
     *
     * @return the credentials; empty when the file does not exist
     * @throws CredentialsException when the file is not usable (open to others, malformed)
     */
    public Optional<Credentials> administrator() throws CredentialsException {
        Path file = administratorCredentialsFile();
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        return CredentialsFile.read(file).queueManager(qmgrName, CredentialsFile.localUser());
    }

    /**
     * Writes a credentials file for this queue manager, readable by its owner only.
     *
     * @param file        the file to write
     * @param credentials the user and password
     * @param replace     whether an existing file is replaced
     * @throws java.nio.file.FileAlreadyExistsException when the file exists and {@code replace} is false
     */
    public void writeCredentials(Path file, Credentials credentials, boolean replace) throws IOException {
        PrivateFiles.createDirectories(file.toAbsolutePath().getParent());
        byte[] content = CredentialsFile.document(qmgrName, credentials).getBytes(StandardCharsets.UTF_8);
        if (replace) {
            replaceFile(file, content);
        } else {
            PrivateFiles.createFile(file, content);
        }
    }

    /**
     * What the users and roles files are now (size, modification time and file identity of each):
     * a change of either file changes it.
     */
    String stamp() throws IOException {
        return stamp(usersFile()) + "|" + stamp(rolesFile());
    }

    private static String stamp(Path file) throws IOException {
        try {
            var a = Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class);
            return a.size() + "/" + a.lastModifiedTime().to(java.util.concurrent.TimeUnit.NANOSECONDS) + "/"
                    + a.fileKey();
        } catch (java.nio.file.NoSuchFileException e) {
            return "-";
        }
    }

    /** Records that the running queue manager applied the files as they are at {@code stamp}. */
    void markApplied(String stamp) throws IOException {
        replaceFile(directory.resolve(APPLIED), stamp.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Waits until the running queue manager has applied the files as they are now (its watcher looks
     * every {@link SecurityWatcher#PERIOD_MILLIS} ms). Call only while it runs.
     *
     * @param timeout the longest wait
     * @return whether it did within {@code timeout}
     */
    public boolean awaitApplied(java.time.Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Path applied = directory.resolve(APPLIED);
        while (true) {
            String now = stamp();
            if (Files.isRegularFile(applied) && now.equals(Files.readString(applied, StandardCharsets.UTF_8))) {
                return true;
            }
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(50);
        }
    }

    /** A password of 32 random characters (192 bits). */
    static String newPassword() {
        byte[] b = new byte[24];
        RANDOM.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    /** Artemis's one-way (PBKDF2) form, {@code ENC(...)}, which PropertiesLoginModule verifies. */
    static String hash(String password) {
        try {
            DefaultSensitiveStringCodec codec = PasswordMaskingUtil.getDefaultCodec(
                    Map.of(DefaultSensitiveStringCodec.ALGORITHM, DefaultSensitiveStringCodec.ONE_WAY));
            return PasswordMaskingUtil.wrap(codec.encode(password));
        } catch (Exception e) {
            throw new IllegalStateException("cannot hash a password: " + e.getMessage(), e);
        }
    }

    /** The content of both files, as read. */
    private static final class State {
        final Map<String, String> users = new TreeMap<>();
        final Map<String, Set<String>> roles = new TreeMap<>();
        boolean changed;

        void grant(String user, String role) {
            roles.computeIfAbsent(role, r -> new TreeSet<>()).add(user);
            if (role.startsWith(Permissions.AGENT_PREFIX)) {
                roles.computeIfAbsent(Permissions.AGENT, r -> new TreeSet<>()).add(user);
            }
        }
    }

    private interface Change<T> {
        T apply(State state) throws IOException;
    }

    private <T> T locked(Change<T> change) throws IOException {
        synchronized (JVM_LOCK) {
            PrivateFiles.createDirectories(directory);
            try (FileChannel ch = FileChannel.open(directory.resolve(".lock"),
                    Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE), PrivateFiles.ownerOnlyFile(directory))) {
                FileLock lock = ch.lock();
                assert lock.isValid();
                State state = read();
                T result = change.apply(state);
                if (state.changed) {
                    write(state);
                }
                return result;
            }
        }
    }

    private State read() throws IOException {
        State state = new State();
        for (Map.Entry<Object, Object> e : load(usersFile()).entrySet()) {
            state.users.put(e.getKey().toString(), e.getValue().toString());
        }
        for (Map.Entry<Object, Object> e : load(rolesFile()).entrySet()) {
            Set<String> members = new TreeSet<>();
            for (String u : e.getValue().toString().split(",")) {
                if (!u.isBlank()) {
                    members.add(u.trim());
                }
            }
            state.roles.put(e.getKey().toString(), members);
        }
        return state;
    }

    private static Properties load(Path file) throws IOException {
        Properties p = new Properties();
        if (Files.isRegularFile(file)) {
            try (InputStream in = Files.newInputStream(file)) {
                p.load(in);
            }
        }
        return p;
    }

    private void write(State state) throws IOException {
        StringBuilder users = new StringBuilder("# OpenMFT queue manager " + qmgrName
                + ": users and their password hashes (Artemis PropertiesLoginModule). Use 'mft qmgr user'.\n");
        state.users.forEach((u, h) -> users.append(u).append('=').append(h).append('\n'));
        StringBuilder roles = new StringBuilder("# OpenMFT queue manager " + qmgrName
                + ": roles and their users. Use 'mft qmgr user grant|revoke'.\n");
        state.roles.forEach((r, m) -> roles.append(r).append('=').append(String.join(",", m)).append('\n'));
        // Roles first: a user appears in the users file only once its roles are in place.
        replaceFile(rolesFile(), roles.toString().getBytes(StandardCharsets.ISO_8859_1));
        replaceFile(usersFile(), users.toString().getBytes(StandardCharsets.ISO_8859_1));
    }

    /** Replaces a file whole: a new owner-only file renamed over the old one. */
    private static void replaceFile(Path file, byte[] content) throws IOException {
        Path target = file.toAbsolutePath();
        Path tmp = target.resolveSibling("." + target.getFileName() + "." + Long.toHexString(RANDOM.nextLong())
                + ".tmp");
        try {
            try (FileChannel ch = FileChannel.open(tmp, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                    PrivateFiles.ownerOnlyFile(tmp))) {
                java.nio.ByteBuffer buffer = java.nio.ByteBuffer.wrap(content);
                while (buffer.hasRemaining()) {
                    ch.write(buffer);
                }
                ch.force(true);
            }
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
