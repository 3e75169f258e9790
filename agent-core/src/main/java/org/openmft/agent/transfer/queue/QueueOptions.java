package org.openmft.agent.transfer.queue;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import org.openmft.xml.QueueDestination;

/**
 * A destination queue's options as they travel on the first chunk of a file-to-message item
 * ({@code Wire.QUEUE_OPTIONS}): IBM's {@code <queue>} attributes plus the source file's time stamp,
 * which the destination needs for {@code usr.WMQFTEFileLastModified}. The destination judges them
 * again ({@link QueueDestination} validates), as it judges everything a source sends.
 *
 * @param destination the queue and how files become messages
 * @param encoding    the code page text-mode messages are in, or null (UTF-8)
 * @param lastModifiedMillis the source file's modification time, or -1
 */
public record QueueOptions(QueueDestination destination, String encoding, long lastModifiedMillis) {
    private static final String QUEUE = "queue";
    private static final String ENCODING = "encoding";
    private static final String LAST_MODIFIED = "lastModified";

    /** The wire form: {@code name=value} pairs, URL-encoded, joined by {@code &}. */
    public String encode() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(QUEUE, destination.spec());
        m.putAll(destination.attributes());
        if (encoding != null) {
            m.put(ENCODING, encoding);
        }
        m.put(LAST_MODIFIED, Long.toString(lastModifiedMillis));
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, String> e : m.entrySet()) {
            sb.append(sb.length() == 0 ? "" : "&").append(URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8))
                    .append('=').append(URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8));
        }
        return sb.toString();
    }

    /**
     * Reads the wire form.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public static QueueOptions decode(String wire) {
        if (wire == null || wire.isEmpty()) {
            throw new IllegalArgumentException("the item names no destination queue");
        }
        Map<String, String> m = new LinkedHashMap<>();
        for (String pair : wire.split("&")) {
            int eq = pair.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("queue option " + pair + " has no value");
            }
            m.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                    URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        String queue = m.remove(QUEUE);
        String encoding = m.remove(ENCODING);
        String lastModified = m.remove(LAST_MODIFIED);
        long millis;
        try {
            millis = lastModified == null ? -1 : Long.parseLong(lastModified);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("queue option lastModified=" + lastModified + " is not a number");
        }
        if (queue == null) {
            throw new IllegalArgumentException("the item names no destination queue");
        }
        return new QueueOptions(QueueDestination.of(queue, m), encoding, millis);
    }
}
