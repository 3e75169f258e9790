package org.openmft.agent.monitor;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * What the agent keeps of one monitor: its definition as IBM's XML, whether it is started, who
 * created it, and its history. Stored as one gzipped record ({@link #toBytes()}), so a definition
 * and the history its tasks were submitted against are always replaced together. Immutable.
 *
 * @param name the monitor's name
 * @param definitionXml the definition, as {@code DocumentWriter} writes it
 * @param started whether it polls (fteStopMonitor clears it, fteStartMonitor sets it)
 * @param creatorUser the user the queue manager vouched for on the create request, or {@code null}
 * @param createRequestId the create request's message id, IBM's {@code referenceId} in monitor logs
 * @param noMatchArmed whether a {@code fileNoMatch} condition may trigger
 * @param history each file's state by path
 */
public record MonitorRecord(String name, String definitionXml, boolean started, String creatorUser,
        String createRequestId, boolean noMatchArmed, Map<String, FileHistory> history) {

    private static final int FORMAT = 1;
    /** Largest record read back, uncompressed: a hostile or damaged record cannot exhaust memory. */
    static final int MAX_RECORD_BYTES = 256 * 1024 * 1024;

    /** Validates; the history is copied, unless it is a record's own already. */
    public MonitorRecord {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(definitionXml, "definitionXml");
        history = history instanceof History own ? own : new History(history);
    }

    /**
     * A record's history: an unmodifiable copy in a hash map, so a poll's look-ups by path are
     * cheap, and a record made from another's history (a poll that changed nothing) shares it
     * rather than copying every file's entry.
     */
    private static final class History extends AbstractMap<String, FileHistory> {
        private final Map<String, FileHistory> files;

        History(Map<String, FileHistory> copied) {
            Map<String, FileHistory> m = new HashMap<>(Math.max(16, copied.size() * 4 / 3 + 1));
            copied.forEach((path, state) -> m.put(Objects.requireNonNull(path, "path"),
                    Objects.requireNonNull(state, "state")));
            this.files = Collections.unmodifiableMap(m);
        }

        @Override
        public FileHistory get(Object path) {
            return files.get(path);
        }

        @Override
        public boolean containsKey(Object path) {
            return files.containsKey(path);
        }

        @Override
        public int size() {
            return files.size();
        }

        @Override
        public Set<String> keySet() {
            return files.keySet();
        }

        @Override
        public Set<Map.Entry<String, FileHistory>> entrySet() {
            return files.entrySet();
        }
    }

    MonitorRecord with(boolean nowStarted) {
        return new MonitorRecord(name, definitionXml, nowStarted, creatorUser, createRequestId, noMatchArmed, history);
    }

    MonitorRecord with(Map<String, FileHistory> newHistory, boolean armed) {
        return new MonitorRecord(name, definitionXml, started, creatorUser, createRequestId, armed, newHistory);
    }

    /** @return the record, gzipped */
    public byte[] toBytes() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(new GZIPOutputStream(bytes))) {
            out.writeInt(FORMAT);
            string(out, name);
            string(out, definitionXml);
            out.writeBoolean(started);
            string(out, creatorUser == null ? "" : creatorUser);
            string(out, createRequestId == null ? "" : createRequestId);
            out.writeBoolean(noMatchArmed);
            out.writeInt(history.size());
            for (Map.Entry<String, FileHistory> e : history.entrySet()) {
                string(out, e.getKey());
                FileHistory h = e.getValue();
                out.writeLong(h.size());
                out.writeLong(h.lastModifiedMillis());
                out.writeInt(h.samePolls());
                out.writeBoolean(h.triggered());
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot write a monitor record in memory", e);
        }
        return bytes.toByteArray();
    }

    /**
     * @param bytes what {@link #toBytes()} wrote
     * @return the record
     * @throws IOException if it is damaged, of another format or too large
     */
    public static MonitorRecord fromBytes(byte[] bytes) throws IOException {
        try (DataInputStream in = new DataInputStream(new GZIPInputStream(new ByteArrayInputStream(bytes)))) {
            int format = in.readInt();
            if (format != FORMAT) {
                throw new IOException("monitor record format " + format + " is not " + FORMAT);
            }
            String name = string(in);
            String xml = string(in);
            boolean started = in.readBoolean();
            String creator = string(in);
            String requestId = string(in);
            boolean armed = in.readBoolean();
            int count = in.readInt();
            if (count < 0 || count > MAX_RECORD_BYTES / 24) {
                throw new IOException("monitor record holds " + count + " files");
            }
            Map<String, FileHistory> history = new HashMap<>();
            for (int i = 0; i < count; i++) {
                history.put(string(in), new FileHistory(in.readLong(), in.readLong(), in.readInt(), in.readBoolean()));
            }
            return new MonitorRecord(name, xml, started, creator.isEmpty() ? null : creator,
                    requestId.isEmpty() ? null : requestId, armed, history);
        }
    }

    private static void string(DataOutputStream out, String value) throws IOException {
        byte[] b = value.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    private static String string(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > MAX_RECORD_BYTES) {
            throw new IOException("monitor record holds a string of " + length + " bytes");
        }
        return new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }
}
