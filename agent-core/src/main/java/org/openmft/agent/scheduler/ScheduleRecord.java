package org.openmft.agent.scheduler;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Properties;

/**
 * What a source agent keeps of one schedule: its id, the request as it arrived (with its
 * {@code <schedule>} and any {@code <trigger>}), the source agent's zone when it was accepted
 * (the {@code source} time base must not move when the host's zone does), the index of the next
 * occurrence not yet run or skipped, and who created it. Replaced whole, never edited. Immutable.
 *
 * @param id          the schedule's id, unique on the agent
 * @param requestXml  the request document
 * @param sourceZone  the source agent's zone id when the schedule was accepted
 * @param next        the first occurrence index not yet run or skipped
 * @param creatorUser who asked, as the queue manager vouched for it, or null
 */
public record ScheduleRecord(long id, String requestXml, String sourceZone, long next, String creatorUser) {
    /** The largest record accepted: a request is at most 4 MiB. */
    static final int MAX_RECORD_BYTES = 5 * 1024 * 1024;

    /** This record with another next index. */
    public ScheduleRecord withNext(long index) {
        return new ScheduleRecord(id, requestXml, sourceZone, index, creatorUser);
    }

    byte[] toBytes() {
        Properties p = new Properties();
        p.setProperty("id", Long.toString(id));
        p.setProperty("request", requestXml);
        p.setProperty("sourceZone", sourceZone);
        p.setProperty("next", Long.toString(next));
        if (creatorUser != null) {
            p.setProperty("creator", creatorUser);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            p.store(new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8), null);
        } catch (IOException e) {
            throw new IllegalStateException("writing to memory cannot fail", e);
        }
        return out.toByteArray();
    }

    static ScheduleRecord fromBytes(byte[] body) throws IOException {
        Properties p = new Properties();
        p.load(new java.io.InputStreamReader(new ByteArrayInputStream(body), StandardCharsets.UTF_8));
        try {
            return new ScheduleRecord(Long.parseLong(p.getProperty("id")), p.getProperty("request"),
                    p.getProperty("sourceZone"), Long.parseLong(p.getProperty("next")), p.getProperty("creator"));
        } catch (RuntimeException e) {
            throw new IOException("the schedule record is incomplete: " + e.getMessage(), e);
        }
    }
}
