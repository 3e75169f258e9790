package org.openmft.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.openmft.xml.QueueDestination;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * {@code fteCreateTransfer}'s file-to-message flags (IBM's): the destination queue and how each
 * file becomes messages. A mixin, so that the command grows by a hook only.
 */
final class QueueDestinationOptions {
    /** The names of these flags, read from their definitions below (for commands that take them whole). */
    static final Set<String> FLAGS = Set.copyOf(CommandSpec.forAnnotatedObject(new QueueDestinationOptions())
            .optionsMap().keySet());

    @Option(names = "-dq", paramLabel = "QUEUE[@QMGR]", description = "Destination queue (file to message), instead"
            + " of -df/-dd; on another queue manager with @QMGR. The destination agent needs"
            + " enableQueueInputOutput=true (else result 56).")
    String queue;
    @Option(names = "-dqp", paramLabel = "true|false|qdef", description = "With -dq: message persistence (default"
            + " true; qdef: the queue's default, persistent on an embedded queue manager).")
    String persistence;
    @Option(names = "-qmp", paramLabel = "true|false", description = "With -dq: IBM's usr.WMQFTE* properties on the"
            + " first message of each file (default false).")
    String properties;
    @Option(names = "-qs", paramLabel = "SIZE[B|K|M]", description = "With -dq: split each file into messages of"
            + " this length; several messages of one file form a group.")
    String messageSize;
    @Option(names = "-dqdt", paramLabel = "REGEX", description = "With -dq: split each (text) file at each match of"
            + " this Java regular expression.")
    String textDelimiter;
    @Option(names = "-dqdb", paramLabel = "HEX", description = "With -dq: split each file at this byte sequence,"
            + " in hex (such as x0D0A or 0x0D,0x0A).")
    String binaryDelimiter;
    @Option(names = "-dqdp", paramLabel = "prefix|postfix", description = "With -dqdt or -dqdb: whether the"
            + " delimiter comes before or after each message's data (default postfix).")
    String delimiterPosition;
    @Option(names = "-qi", description = "With -dqdt or -dqdb: keep the delimiter in the messages.")
    boolean includeDelimiter;

    /** Whether any of these flags was given. */
    boolean any() {
        return queue != null || persistence != null || properties != null || messageSize != null
                || textDelimiter != null || binaryDelimiter != null || delimiterPosition != null || includeDelimiter;
    }

    /**
     * The destination queue the flags describe.
     *
     * @throws IllegalArgumentException naming the flag that is wrong
     */
    QueueDestination destination() {
        if (queue == null) {
            throw new IllegalArgumentException("-dqp, -qmp, -qs, -dqdt, -dqdb, -dqdp and -qi need a destination"
                    + " queue: -dq QUEUE[@QMGR]");
        }
        if (textDelimiter != null && binaryDelimiter != null) {
            throw new IllegalArgumentException("-dqdt and -dqdb cannot be used together: give one delimiter");
        }
        if ((delimiterPosition != null || includeDelimiter) && textDelimiter == null && binaryDelimiter == null) {
            throw new IllegalArgumentException("-dqdp and -qi apply to a delimiter: add -dqdt or -dqdb");
        }
        Map<String, String> a = new LinkedHashMap<>();
        put(a, "persistent", persistence);
        if (properties != null) {
            if (!properties.equals("true") && !properties.equals("false")) {
                throw new IllegalArgumentException("-qmp " + properties + " is not valid; expected true or false");
            }
            a.put("setMqProps", properties);
        }
        if (messageSize != null) {
            try {
                a.put("messageLength", Long.toString(QueueDestination.parseSize(messageSize)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("-qs " + messageSize + " " + e.getMessage());
            }
        }
        if (textDelimiter != null) {
            a.put("delimiter", textDelimiter);
            a.put("delimiterType", "text");
        } else if (binaryDelimiter != null) {
            // IBM writes x0D0A; the record takes 0x bytes.
            a.put("delimiter", binaryDelimiter.matches("(?i)x[0-9a-f]+") ? binaryDelimiter.substring(1)
                    : binaryDelimiter);
            a.put("delimiterType", "binary");
        }
        put(a, "delimiterPosition", delimiterPosition);
        if (includeDelimiter) {
            a.put("includeDelimiterInMessage", "true");
        }
        return QueueDestination.of(queue, a);
    }

    private static void put(Map<String, String> a, String name, String value) {
        if (value != null) {
            a.put(name, value);
        }
    }
}
