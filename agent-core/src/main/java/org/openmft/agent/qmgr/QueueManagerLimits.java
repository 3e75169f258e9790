package org.openmft.agent.qmgr;

import java.util.Properties;

import org.openmft.agent.command.CommandIntake;
import org.openmft.agent.messaging.ArtemisTuning;

/**
 * What one message, and one address, may cost an embedded queue manager: Artemis has no
 * per-message size limit of its own (IBM MQ's MAXMSGL), so {@link MessageSizeCap} refuses a
 * message over its address's limit to its producer; and every address is bounded on disk
 * ({@code page-limit-bytes}, puts fail beyond it) except {@code SYSTEM.FTE.DATA.*}, whose producers
 * block instead, and the publication outbox, which has its own bound. Kept in
 * {@code qmgr.properties} as {@code limits.<name>}; a value left out takes its default.
 *
 * @param commandMessageMaxBytes largest message on a command or reject queue
 *                               ({@code SYSTEM.FTE.COMMAND.*}, {@code SYSTEM.FTE.CMD.RJCT.*},
 *                               {@code SYSTEM.FTE.LOG.CMD.*}, {@code SYSTEM.FTE.LOG.RJCT.*}), bytes as
 *                               the broker stores it
 * @param dataMessageMaxBytes    largest message on a {@code SYSTEM.FTE.DATA.*} queue, bytes
 * @param messageMaxBytes        largest message on any other address, bytes
 * @param addressDiskMaxBytes    bytes any address other than the data and publication ones may page
 *                               to disk; puts to a full one fail ({@code AMQ229102} or
 *                               {@code AMQ229254})
 */
public record QueueManagerLimits(long commandMessageMaxBytes, long dataMessageMaxBytes, long messageMaxBytes,
        long addressDiskMaxBytes) {

    /**
     * What an agent reads from its command queue ({@link CommandIntake#DEFAULT_MAX_MESSAGE_BYTES},
     * 4 MiB), as Artemis stores it: text takes two bytes a character; plus 1 MiB for properties: 9 MiB.
     */
    public static final long DEFAULT_COMMAND_MESSAGE_MAX_BYTES = 2L * CommandIntake.DEFAULT_MAX_MESSAGE_BYTES
            + (1 << 20);
    /**
     * The largest chunk that travels as a normal message ({@link ArtemisTuning#MAX_NORMAL_MESSAGE_BYTES},
     * which bounds {@code agentChunkSize}) plus 1 MiB for headers: 5 MiB.
     */
    public static final long DEFAULT_DATA_MESSAGE_MAX_BYTES = ArtemisTuning.MAX_NORMAL_MESSAGE_BYTES + (1L << 20);
    /** IBM MQ's largest MAXMSGL, 100 MiB: replies, events, state records and publications fit. */
    public static final long DEFAULT_MESSAGE_MAX_BYTES = 100L << 20;
    /** 2 GiB on disk per address. */
    public static final long DEFAULT_ADDRESS_DISK_MAX_BYTES = 2L << 30;
    /** Artemis's page file size; {@code page-limit-bytes} may not be smaller. */
    static final long PAGE_SIZE_BYTES = 10L << 20;
    /** The smallest message limit accepted: a reply or a control message must always fit. */
    static final long MIN_MESSAGE_MAX_BYTES = 64L << 10;

    /** The defaults. */
    public static final QueueManagerLimits DEFAULTS = new QueueManagerLimits(DEFAULT_COMMAND_MESSAGE_MAX_BYTES,
            DEFAULT_DATA_MESSAGE_MAX_BYTES, DEFAULT_MESSAGE_MAX_BYTES, DEFAULT_ADDRESS_DISK_MAX_BYTES);

    private static final String PREFIX = "limits.";

    public QueueManagerLimits {
        check("commandMessageMaxBytes", commandMessageMaxBytes, MIN_MESSAGE_MAX_BYTES);
        check("dataMessageMaxBytes", dataMessageMaxBytes, DEFAULT_DATA_MESSAGE_MAX_BYTES);
        check("messageMaxBytes", messageMaxBytes, MIN_MESSAGE_MAX_BYTES);
        check("addressDiskMaxBytes", addressDiskMaxBytes, PAGE_SIZE_BYTES);
    }

    private static void check(String key, long value, long min) {
        if (value < min) {
            throw new IllegalArgumentException(PREFIX + key + "=" + value + " is not allowed: at least " + min
                    + " bytes is required");
        }
    }

    /** These limits with another disk limit per address. */
    public QueueManagerLimits withAddressDiskMaxBytes(long bytes) {
        return new QueueManagerLimits(commandMessageMaxBytes, dataMessageMaxBytes, messageMaxBytes, bytes);
    }

    /** Reads {@code limits.*} keys; missing ones take their defaults. */
    static QueueManagerLimits load(Properties p) {
        return new QueueManagerLimits(get(p, "commandMessageMaxBytes", DEFAULT_COMMAND_MESSAGE_MAX_BYTES),
                get(p, "dataMessageMaxBytes", DEFAULT_DATA_MESSAGE_MAX_BYTES),
                get(p, "messageMaxBytes", DEFAULT_MESSAGE_MAX_BYTES),
                get(p, "addressDiskMaxBytes", DEFAULT_ADDRESS_DISK_MAX_BYTES));
    }

    private static long get(Properties p, String key, long defaultValue) {
        String v = p.getProperty(PREFIX + key);
        if (v == null) {
            return defaultValue;
        }
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(PREFIX + key + "=" + v + " is not a number of bytes", e);
        }
    }

    /** Writes the keys whose value is not the default (so a later default applies to the others). */
    void store(Properties p) {
        put(p, "commandMessageMaxBytes", commandMessageMaxBytes, DEFAULT_COMMAND_MESSAGE_MAX_BYTES);
        put(p, "dataMessageMaxBytes", dataMessageMaxBytes, DEFAULT_DATA_MESSAGE_MAX_BYTES);
        put(p, "messageMaxBytes", messageMaxBytes, DEFAULT_MESSAGE_MAX_BYTES);
        put(p, "addressDiskMaxBytes", addressDiskMaxBytes, DEFAULT_ADDRESS_DISK_MAX_BYTES);
    }

    private static void put(Properties p, String key, long value, long defaultValue) {
        if (value != defaultValue) {
            p.setProperty(PREFIX + key, String.valueOf(value));
        }
    }
}
