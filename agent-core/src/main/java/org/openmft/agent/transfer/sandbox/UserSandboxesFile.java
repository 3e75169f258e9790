package org.openmft.agent.transfer.sandbox;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;

import org.openmft.agent.config.ConfigurationException;
import org.openmft.agent.transfer.files.Sandbox;
import org.openmft.agent.transfer.files.SandboxPolicy;
import org.openmft.xml.sandbox.MalformedSandboxesException;
import org.openmft.xml.sandbox.UserSandboxesParser;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An agent's {@code UserSandboxes.xml} ({@code userSandboxes=true}), kept current while the agent
 * runs, as IBM's agents do: every {@code xmlConfigReloadInterval} seconds at most, when the rules are
 * asked for (and when the agent's command thread looks by, so that problems are logged even while
 * no transfer runs), the file is read again, and if its content changed it replaces the rules in
 * force. It never fails open:
 * <ul>
 *   <li>invalid when the agent starts: {@link #open} refuses, and the agent does not start;</li>
 *   <li>missing when the agent starts, or deleted later: no file may be read or written by any
 *       transfer until it exists (said at start, and at the change);</li>
 *   <li>invalid after a change: the rules loaded before stay in force, and the error is logged
 *       naming the problem, once per bad content; a later good version is taken.</li>
 * </ul>
 *
 * <p>Thread-safe: transfers ask from their threads; a reload is done by one of them at a time
 * while the others keep the rules in force.
 */
public final class UserSandboxesFile implements SandboxPolicy {
    private static final Logger log = LoggerFactory.getLogger(UserSandboxesFile.class);

    /** IBM's file name, in the agent's configuration directory. */
    public static final String FILE_NAME = "UserSandboxes.xml";

    /** What is in force: the rules and the content they came from (null when the file is missing). */
    private record Loaded(SandboxPolicy policy, byte[] content, String summary) {
    }

    private final Path file;
    private final Path transferRoot;
    private final Duration reloadInterval;
    private final Clock clock;
    private final UserSandboxesParser parser = new UserSandboxesParser();
    private volatile Loaded current;
    /** Guarded by this: the content last refused, so that it is reported once. */
    private byte[] refused;
    /** Guarded by this: when the file is looked at next. */
    private Instant nextCheck;

    private UserSandboxesFile(Path file, Path transferRoot, Duration reloadInterval, Clock clock) {
        this.file = file;
        this.transferRoot = transferRoot;
        this.reloadInterval = reloadInterval;
        this.clock = clock;
    }

    /**
     * Loads an agent's user sandboxes at start-up.
     *
     * @param file the agent's {@code UserSandboxes.xml}
     * @param transferRoot the agent's {@code transferRoot}, for relative patterns
     * @param reloadInterval {@code xmlConfigReloadInterval}
     * @param clock the time reloads are due by
     * @return the file's rules, or rules that refuse everything while it is missing
     * @throws ConfigurationException (exit code 78) when the file exists but cannot be read or used
     */
    public static UserSandboxesFile open(Path file, Path transferRoot, Duration reloadInterval, Clock clock)
            throws ConfigurationException {
        UserSandboxesFile f = new UserSandboxesFile(Objects.requireNonNull(file, "file"),
                transferRoot.toAbsolutePath().normalize(), reloadInterval, clock);
        byte[] content;
        try {
            content = read(file);
        } catch (NoSuchFileException e) {
            f.current = f.missing();
            log.error("User sandboxes: userSandboxes=true but {} does not exist: every transfer's file access is"
                    + " refused until it is created (it is looked for every {} s)", file, reloadInterval.toSeconds());
            f.nextCheck = clock.instant().plus(reloadInterval);
            return f;
        } catch (IOException e) {
            throw new ConfigurationException(file + " cannot be read (" + e + "); with userSandboxes=true the agent"
                    + " does not start without its user sandboxes", "userSandboxes", "true");
        }
        try {
            f.current = f.compile(content);
        } catch (MalformedSandboxesException | IllegalArgumentException e) {
            throw new ConfigurationException(file + ": " + e.getMessage() + "; with userSandboxes=true the agent does"
                    + " not start without valid user sandboxes", "userSandboxes", "true");
        }
        log.info("User sandboxes: {} from {}; looked at again every {} s", f.current.summary(), file,
                reloadInterval.toSeconds());
        f.nextCheck = clock.instant().plus(reloadInterval);
        return f;
    }

    /** @return the file read */
    public Path file() {
        return file;
    }

    @Override
    public Sandbox forRequester(String requesterUser) {
        refreshIfDue();
        return current.policy().forRequester(requesterUser);
    }

    @Override
    public void refresh() {
        refreshIfDue();
    }

    /**
     * Reads the file again if {@code xmlConfigReloadInterval} has passed since it was last looked
     * at, and takes its content if it changed and is valid. Never throws: problems are logged.
     */
    public synchronized void refreshIfDue() {
        Instant now = clock.instant();
        if (now.isBefore(nextCheck)) {
            return;
        }
        nextCheck = now.plus(reloadInterval);
        Loaded before = current;
        byte[] content;
        try {
            content = read(file);
        } catch (NoSuchFileException e) {
            if (before.content() != null) {
                current = missing();
                refused = null;
                log.error("User sandboxes: {} was deleted: every transfer's file access is refused until it exists"
                        + " again", file);
            }
            return;
        } catch (IOException e) {
            log.error("User sandboxes: {} cannot be read ({}); the rules in force stay: {}", file, e, before.summary());
            return;
        }
        if (Arrays.equals(content, before.content()) || Arrays.equals(content, refused)) {
            return;
        }
        try {
            current = compile(content);
            refused = null;
            log.info("User sandboxes: {} changed; now in force: {}", file, current.summary());
        } catch (MalformedSandboxesException | IllegalArgumentException e) {
            refused = content;
            log.error("User sandboxes: {} changed but cannot be used, so the rules in force stay ({}): {}", file,
                    before.summary(), e.getMessage());
        }
    }

    private Loaded compile(byte[] content) throws MalformedSandboxesException {
        UserSandboxes rules = UserSandboxes.compile(parser.parse(content), transferRoot, file.toString());
        return new Loaded(rules, content, rules.size() + " <sandbox> entr" + (rules.size() == 1 ? "y" : "ies"));
    }

    private Loaded missing() {
        ClosedSandbox closed = new ClosedSandbox("userSandboxes=true but " + file + " does not exist, so no file may be"
                + " read or written", FILE_NAME + " missing");
        return new Loaded(requester -> closed, null, "none (" + file + " does not exist: every file access refused)");
    }

    private static byte[] read(Path file) throws IOException {
        long size = Files.size(file);
        if (size > UserSandboxesParser.MAX_DOCUMENT_BYTES) {
            // The parser would refuse it too; this keeps a huge file from being read at all.
            throw new IOException("it is " + size + " bytes long; the limit is " + UserSandboxesParser.MAX_DOCUMENT_BYTES);
        }
        return Files.readAllBytes(file);
    }
}
