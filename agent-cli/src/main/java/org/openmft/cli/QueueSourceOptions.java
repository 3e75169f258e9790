package org.openmft.cli;

import java.util.LinkedHashMap;
import java.util.Map;

import java.util.Set;

import org.openmft.xml.QueueSource;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * {@code fteCreateTransfer}'s message-to-file flags (IBM's): the source is a queue ({@code -sq}, the
 * positional source names it) and how its messages make the file. A mixin, so that the command
 * grows by a hook only.
 */
final class QueueSourceOptions {
    /** The names of these flags, read from their definitions below (for commands that take them whole). */
    static final Set<String> FLAGS = Set.copyOf(CommandSpec.forAnnotatedObject(new QueueSourceOptions()).optionsMap()
            .keySet());

    @Option(names = "-sq", description = "The source is a queue (message to file): the source given last is"
            + " QUEUE or QUEUE@QMGR on the source agent's queue manager, the destination one file (-df). The source"
            + " agent needs enableQueueInputOutput=true (else result 59). The messages are removed once the"
            + " destination has the file.")
    boolean queue;
    @Option(names = "-sqgi", description = "With -sq: read the first complete group only (JMSXGroupID; its last"
            + " message is there), instead of every message on the queue.")
    boolean groups;
    @Option(names = "-sqwt", paramLabel = "SECONDS", description = "With -sq: wait this long for a message (or a"
            + " complete group with -sqgi); without it an empty queue fails the transfer. IBM requires it below the"
            + " destination agent's transferAckTimeout (60 s by default).")
    String waitTime;
    @Option(names = "-sqdt", paramLabel = "TEXT", description = "With -sq: text written with each message in the"
            + " file (Java escapes such as \\n allowed).")
    String textDelimiter;
    @Option(names = "-sqdb", paramLabel = "HEX", description = "With -sq: bytes written with each message in the"
            + " file, in hex (such as x0D0A or 0x0D,0x0A).")
    String binaryDelimiter;
    @Option(names = "-sqdp", paramLabel = "prefix|postfix", description = "With -sqdt or -sqdb: whether the"
            + " delimiter comes before or after each message (default postfix).")
    String delimiterPosition;

    /** Whether any of these flags was given. */
    boolean any() {
        return queue || groups || waitTime != null || textDelimiter != null || binaryDelimiter != null
                || delimiterPosition != null;
    }

    /**
     * The source queue the flags describe, named by {@code spec}.
     *
     * @throws IllegalArgumentException naming the flag that is wrong
     */
    QueueSource source(String spec) {
        if (!queue) {
            throw new IllegalArgumentException("-sqgi, -sqwt, -sqdt, -sqdb and -sqdp apply to a queue source: add -sq");
        }
        if (textDelimiter != null && binaryDelimiter != null) {
            throw new IllegalArgumentException("-sqdt and -sqdb cannot be used together: give one delimiter");
        }
        if (delimiterPosition != null && textDelimiter == null && binaryDelimiter == null) {
            throw new IllegalArgumentException("-sqdp applies to a delimiter: add -sqdt or -sqdb");
        }
        Map<String, String> a = new LinkedHashMap<>();
        if (groups) {
            a.put("useGroups", "true");
        }
        if (waitTime != null) {
            if (!waitTime.matches("[0-9]{1,9}") || Integer.parseInt(waitTime) > QueueSource.MAX_WAIT_SECONDS) {
                throw new IllegalArgumentException("-sqwt " + waitTime + " is not valid: give whole seconds from 0 to "
                        + QueueSource.MAX_WAIT_SECONDS + " (IBM: below the destination's transferAckTimeout)");
            }
            a.put("waitTime", waitTime);
        }
        if (textDelimiter != null) {
            a.put("delimiter", textDelimiter);
            a.put("delimiterType", "text");
        } else if (binaryDelimiter != null) {
            a.put("delimiter", binaryDelimiter);
            a.put("delimiterType", "binary");
        }
        if (delimiterPosition != null) {
            a.put("delimiterPosition", delimiterPosition);
        }
        try {
            return QueueSource.of(spec, a);
        } catch (IllegalArgumentException e) {
            String flag = e.getMessage().contains("delimiterPosition") ? "-sqdp"
                    : e.getMessage().contains("delimiter") ? (textDelimiter != null ? "-sqdt" : "-sqdb") : "-sq";
            throw new IllegalArgumentException(flag + ": " + e.getMessage());
        }
    }
}
