package org.openmft.cli.it;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;

/**
 * A second local (operating-system) user for tests of what other users of the machine can read:
 * {@value #OTHER_USER}, created when missing. That needs root (for {@code useradd} and
 * {@code runuser}), which CI has: there a missing root is a failure, elsewhere a skip saying why.
 */
final class LocalUsers {
    /** The second local user. */
    static final String OTHER_USER = "openmftother";

    private LocalUsers() {
    }

    /** The second local user, created when missing. */
    static String otherUser() throws Exception {
        boolean root = "root".equals(System.getProperty("user.name"));
        String reason = "reading files as another local user needs root (to run 'runuser' and, when "
                + OTHER_USER + " is missing, 'useradd'); this JVM runs as " + System.getProperty("user.name");
        if (!root) {
            if (inCi()) {
                throw new AssertionError("CI=" + System.getenv("CI") + " and this test cannot run, which in CI is a"
                        + " failure, not a skip: " + reason);
            }
            Assumptions.assumeTrue(false, reason);
        }
        if (exec("id", "-u", OTHER_USER).exitCode() != 0) {
            Distribution.Result added = exec("useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin",
                    OTHER_USER);
            // Another test JVM may have added it meanwhile (integration tests run two at a time).
            if (added.exitCode() != 0 && exec("id", "-u", OTHER_USER).exitCode() != 0) {
                throw new AssertionError("useradd " + OTHER_USER + " failed: " + added.output());
            }
        }
        return OTHER_USER;
    }

    private static boolean inCi() {
        String ci = System.getenv("CI");
        return ci != null && !ci.isBlank() && !ci.equalsIgnoreCase("false");
    }

    /** Runs a command as {@code user}, its output and errors together. */
    static Distribution.Result runAs(String user, String... command) throws Exception {
        String[] cmd = new String[command.length + 4];
        cmd[0] = "runuser";
        cmd[1] = "-u";
        cmd[2] = user;
        cmd[3] = "--";
        System.arraycopy(command, 0, cmd, 4, command.length);
        return exec(cmd);
    }

    static Distribution.Result exec(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", cmd) + " did not end within 60 s");
        }
        return new Distribution.Result(p.exitValue(), out);
    }
}
