package org.openmft.agent.monitor;

import java.util.Locale;

/**
 * Which queues a queue monitor may watch: a queue of the agent's own queue manager (no
 * {@code QUEUE@QM}), and none of the queue manager's and MFT's own ({@code SYSTEM.*}): a monitor
 * browsing the agent's COMMAND or STATE queue would hand their contents to whoever wrote its task.
 */
final class QueueMonitoring {
    private QueueMonitoring() {
    }

    /** @return why {@code queue} may not be monitored by {@code agent}, or null */
    static String refusal(String queue, String agent) {
        if (queue.indexOf('@') >= 0) {
            return "BFGDM0043E: the monitored queue " + queue + " must be a queue of agent " + agent
                    + "'s own queue manager, named without @";
        }
        if (queue.toUpperCase(Locale.ROOT).startsWith("SYSTEM.")) {
            return "BFGDM0043E: the monitored queue " + queue + " is one of the queue manager's own (SYSTEM.*), which"
                    + " agent " + agent + " does not monitor";
        }
        return null;
    }
}
