package org.openmft.agent;

import java.util.function.Supplier;

import org.junit.jupiter.api.Assumptions;

/**
 * A test that needs something of the machine (a tmpfs it may mount, {@code chattr +i}, a file root
 * may not read) skips, saying why, where that is missing; in CI (the environment variable
 * {@code CI} set, as {@code .ci/run} runs) it fails instead, so a skip cannot pass for a pass there.
 * The same rule as the PostgreSQL tests' {@code OPENMFT_REQUIRE_POSTGRES}.
 */
public final class CiAssumptions {
    private CiAssumptions() {
    }

    /** Whether the tests run in CI: {@code CI} is set and not "false". */
    public static boolean inCi() {
        String ci = System.getenv("CI");
        return ci != null && !ci.isBlank() && !ci.equalsIgnoreCase("false");
    }

    /** Skips the test unless {@code condition} holds; in CI, fails it instead. */
    public static void assumeOrFailInCi(boolean condition, Supplier<String> reason) {
        if (condition) {
            return;
        }
        if (inCi()) {
            throw new AssertionError("CI=" + System.getenv("CI") + " and this test cannot run, which in CI is a"
                    + " failure, not a skip: " + reason.get());
        }
        Assumptions.assumeTrue(false, reason);
    }
}
