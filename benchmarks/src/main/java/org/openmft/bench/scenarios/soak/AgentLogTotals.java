package org.openmft.bench.scenarios.soak;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the agents' own logs say about recovery, summed over a run: the bytes a source sent more
 * than once, the bytes a destination received twice or discarded when it resumed, how often each
 * resumed, lost its queue manager, or could not send a final reply, and the errors it logged.
 *
 * <p>Read from each agent process's console log ({@code logs/<coordQM>/agents/<AGENT>/logs/console.log}),
 * which every start of the daemon appends to and which takes every INFO line, from any thread;
 * the rolling {@code output<N>.log} files take only lines of the agent's own threads.
 */
final class AgentLogTotals {
    static final Pattern SENT_TWICE = Pattern.compile(
            "Transfer (\\w+): (\\d+) bytes were sent more than once");
    static final Pattern RECEIVED_TWICE = Pattern.compile(
            "Transfer (\\w+): (\\d+) bytes were received twice \\(duplicates dropped\\) and (\\d+) bytes written"
                    + " before a restart were discarded");
    static final Pattern RESUMED_AS_DESTINATION = Pattern.compile(
            "BFGTR0091I: Transfer (\\w+): resumed as destination at chunk (\\d+), item (-?\\d+) \\(.*\\) at byte"
                    + " (\\d+); (\\d+) bytes written after the last checkpoint");
    static final Pattern RESUMED_AS_SOURCE = Pattern.compile("Transfer (\\w+): (resuming|queued again) after a restart");
    static final Pattern CONNECTION_LOST = Pattern.compile("BFGAG0183I: Agent \\S+ lost its connection");
    static final Pattern ENDED = Pattern.compile("Transfer (\\w+) ended with result (\\d+)");
    static final Pattern REPLY_NOT_SENT = Pattern.compile("Transfer (\\w+): the final reply could not be sent");
    static final Pattern ERROR = Pattern.compile("^\\S+ ERROR ");
    private static final int MAX_ERRORS_KEPT = 20;

    long bytesSentTwice;
    long bytesReceivedTwice;
    long bytesDiscardedAtEnd;
    long destinationResumes;
    long bytesDiscardedAtResume;
    long sourceResumes;
    final Map<String, Integer> connectionLosses = new LinkedHashMap<>();
    long finalRepliesNotSent;
    long errorLines;
    final List<String> errors = new ArrayList<>();
    /** Result codes the source logged, by transfer id (the last one logged). */
    final Map<String, String> endedWith = new LinkedHashMap<>();
    /** Transfers the source logged as ended more than once, with the count. */
    final Map<String, Integer> endedMoreThanOnce = new LinkedHashMap<>();

    /** Reads the console logs of the named agents under {@code dataDir}. */
    static AgentLogTotals read(Path dataDir, String coordinationQMgr, List<String> agents) throws IOException {
        AgentLogTotals t = new AgentLogTotals();
        for (String agent : agents) {
            Path console = dataDir.resolve("logs").resolve(coordinationQMgr).resolve("agents").resolve(agent)
                    .resolve("logs").resolve("console.log");
            t.connectionLosses.put(agent, 0);
            if (Files.exists(console)) {
                for (String line : Files.readAllLines(console, StandardCharsets.UTF_8)) {
                    t.accept(agent, line);
                }
            }
        }
        return t;
    }

    void accept(String agent, String line) {
        Matcher m;
        if ((m = SENT_TWICE.matcher(line)).find()) {
            bytesSentTwice += Long.parseLong(m.group(2));
        } else if ((m = RECEIVED_TWICE.matcher(line)).find()) {
            bytesReceivedTwice += Long.parseLong(m.group(2));
            bytesDiscardedAtEnd += Long.parseLong(m.group(3));
        } else if ((m = RESUMED_AS_DESTINATION.matcher(line)).find()) {
            destinationResumes++;
            bytesDiscardedAtResume += Long.parseLong(m.group(5));
        } else if (RESUMED_AS_SOURCE.matcher(line).find()) {
            sourceResumes++;
        } else if (CONNECTION_LOST.matcher(line).find()) {
            connectionLosses.merge(agent, 1, Integer::sum);
        } else if ((m = ENDED.matcher(line)).find()) {
            if (endedWith.put(m.group(1), m.group(2)) != null) {
                endedMoreThanOnce.merge(m.group(1), 2, (a, b) -> a + 1);
            }
        } else if (REPLY_NOT_SENT.matcher(line).find()) {
            finalRepliesNotSent++;
        }
        if (ERROR.matcher(line).find()) {
            errorLines++;
            if (errors.size() < MAX_ERRORS_KEPT) {
                errors.add(agent + ": " + line);
            }
        }
    }
}
