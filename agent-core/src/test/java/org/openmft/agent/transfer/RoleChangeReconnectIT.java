package org.openmft.agent.transfer;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.AgentState;
import org.openmft.agent.Poll;
import org.openmft.agent.authority.Authority;

/**
 * An agent whose user's authorities change is disconnected by the queue manager and reconnects.
 * It used to close its lost transfer connection on the reconnecting thread, and when that raced
 * the provider's own news of the loss (about one change in fifty on a busy machine), Artemis's
 * close waited its whole call timeout, 30 s, for an answer that never came: a request put
 * meanwhile waited as long for its acknowledgement. The lost connections are now closed beside
 * the reconnect, so every reconnect here must end well within that timeout.
 */
class RoleChangeReconnectIT {
    private static final int CHANGES = 40;
    /** Well below Artemis's 30 s call timeout, well above a reconnect on a loaded machine. */
    private static final Duration RECONNECT = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    @Test
    void anAgentReconnectsWithinSecondsEachTimeItsUsersRolesChange() throws Exception {
        TransferHarness h = new TransferHarness(dir.toRealPath(), false);
        try {
            h.agent("SRC", Map.of("authorityChecking", "true"));
            h.agent("DST", Map.of("authorityChecking", "true"));
            for (int i = 0; i < CHANGES; i++) {
                int from = h.events.size();
                if (i % 2 == 0) {
                    h.grant("SRC", Authority.AGENT_SEND.role("DST"));
                } else {
                    h.revoke("SRC", Authority.AGENT_SEND.role("DST"));
                }
                int change = i + 1;
                Poll.until(() -> "agent SRC was not disconnected and back within " + RECONNECT.toSeconds()
                        + " s of role change " + change + "; its events: " + h.events.subList(from, h.events.size()),
                        RECONNECT, () -> lostThenReady(h, from));
            }
        } finally {
            h.close();
        }
    }

    private static boolean lostThenReady(TransferHarness h, int from) {
        boolean lost = false;
        for (int k = from; k < h.events.size(); k++) {
            String e = h.events.get(k);
            lost |= e.equals("state SRC " + AgentState.PROBLEM);
            if (lost && e.equals("state SRC " + AgentState.READY)) {
                return true;
            }
        }
        return false;
    }
}
