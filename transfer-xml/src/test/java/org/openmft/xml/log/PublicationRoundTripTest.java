package org.openmft.xml.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openmft.xml.log.Publications.AWKWARD;
import static org.openmft.xml.log.Publications.DESTINATION;
import static org.openmft.xml.log.Publications.ORIGINATOR;
import static org.openmft.xml.log.Publications.SOURCE;
import static org.openmft.xml.log.Publications.START;
import static org.openmft.xml.log.Publications.TRANSFER_ID;

import java.io.ByteArrayInputStream;
import java.time.Instant;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.openmft.xml.AgentRef;
import org.openmft.xml.Originator;

/** Whatever a record holds comes back equal after a write and a read, through text and through bytes. */
class PublicationRoundTripTest {
    private final PublicationWriter writer = new PublicationWriter();
    private final PublicationReader reader = new PublicationReader();

    static Stream<TransferLog> logs() {
        Map<String, String> awkwardMetadata = new LinkedHashMap<>();
        awkwardMetadata.put("key" + AWKWARD, "value" + AWKWARD);
        awkwardMetadata.put("empty", "");
        awkwardMetadata.put("", "empty key");
        LogItem awkwardItem = new LogItem(" text ", "/in/" + AWKWARD, "delete", 0, "C:\\out\\" + AWKWARD, "overwrite",
                Long.MAX_VALUE, "MD5", "d41d8cd98f00b204e9800998ecf8427e", 2, AWKWARD);
        LogItem noDestination = new LogItem(null, "/in/vanished.txt", null, -1, null, null, -1, null, null, 1,
                "BFGII0001E: File \"/in/vanished.txt\" does not exist.");
        LogItem existOnly = new LogItem("binary", "/in/a", "leave", 5, null, "error", -1, "MD5", null, 1, "");
        // Message to file: the source is a queue.
        LogItem fromQueue = new LogItem("binary", "ORDERS@QM1", "leave", 11, "/in/orders.txt", "error", 11, "MD5",
                "d41d8cd98f00b204e9800998ecf8427e", 0, null, true);
        return Stream.of(
                Publications.started(),
                Publications.progress(Publications.succeeded(), Publications.failed()),
                Publications.progress(),
                Publications.progress(awkwardItem, noDestination, existOnly, fromQueue),
                Publications.completed(),
                Publications.cancelled(),
                Publications.malformed(),
                // A managed call: its agent written as <agent> (the call itself is not read back).
                new TransferLog("6.00", TRANSFER_ID, TransferLog.SOURCE_AGENT, LogAction.CALL_STARTED, START, SOURCE,
                        null, new Originator("h", "u"), "job", null, -1, -1, -1, List.of(), null, List.of(), null,
                        Map.of("k", "v")),
                new TransferLog("6.00", TRANSFER_ID, TransferLog.SOURCE_AGENT, LogAction.CALL_COMPLETED, START, SOURCE,
                        null, new Originator("h", "u"), null, null, -1, -1, -1, List.of(), 40, List.of("failed"), null,
                        Map.of()),
                // A status without supplements, an empty job name, a destination agent without queue manager.
                new TransferLog("1.00", TRANSFER_ID.toUpperCase(), TransferLog.DESTINATION_AGENT, LogAction.COMPLETED,
                        START, SOURCE, new AgentRef("DST", null), new Originator("h", "u"), "", null, 0, 0, -1,
                        List.of(), 0, List.of(), new Statistics(null, -1, -1, -1), Map.of()),
                // Every free-form string awkward; times before 1970 and with nanoseconds (kept to the millisecond).
                new TransferLog("6.00", "id" + AWKWARD, "role" + AWKWARD, LogAction.CANCELLED,
                        Instant.parse("1969-07-20T20:17:40.123456789Z"), new AgentRef("AGENT&\"<1>'é", "QM'é&"),
                        new AgentRef("中文", "😀"), new Originator("host-é-中文", "user&<\"'>", "mqmd 😀"),
                        "job" + AWKWARD, Instant.parse("2026-11-22T23:59:59.999999Z"), Integer.MAX_VALUE, Long.MAX_VALUE,
                        Integer.MAX_VALUE, List.of(awkwardItem), Integer.MAX_VALUE, List.of(AWKWARD, "", " "),
                        new Statistics(Instant.EPOCH, 0, Integer.MAX_VALUE, 7), awkwardMetadata));
    }

    @ParameterizedTest
    @MethodSource("logs")
    void transferLogsSurviveAsText(TransferLog log) throws Exception {
        assertThat(reader.readLog(writer.write(log))).isEqualTo(log);
    }

    @ParameterizedTest
    @MethodSource("logs")
    void transferLogsSurviveAsBytes(TransferLog log) throws Exception {
        assertThat(reader.readLog(writer.writeBytes(log))).isEqualTo(log);
    }

    @Test
    void everyActionIsCovered() {
        Set<LogAction> covered = logs().map(TransferLog::action).collect(Collectors.toSet());
        assertThat(covered).isEqualTo(EnumSet.allOf(LogAction.class));
    }

    @Test
    void metadataKeepsItsOrder() throws Exception {
        TransferLog read = reader.readLog(writer.write(Publications.started()));
        assertThat(read.metadata().keySet()).containsExactlyElementsOf(Publications.metadata().keySet());
    }

    static Stream<TransferProgress> progresses() {
        return Stream.of(
                Publications.liveProgress(),
                new TransferProgress("4.00", TRANSFER_ID, SOURCE, DESTINATION, START, -1, -1, -1, -1, -1, -1, null, null),
                new TransferProgress("4.00", TRANSFER_ID, SOURCE, new AgentRef("D", null), START, 0, 0.0, 1, 1, 0, -1,
                        "/in/only-source", null),
                new TransferProgress("4.00", TRANSFER_ID, SOURCE, DESTINATION, START, 1, 1.0E-4, 1, 1, -1, -1, null,
                        "/out/only-destination"),
                new TransferProgress("4.00", TRANSFER_ID, SOURCE, DESTINATION, START, Long.MAX_VALUE, 12345678.901234,
                        Integer.MAX_VALUE, Integer.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE, "/in/" + AWKWARD,
                        "/out/" + AWKWARD),
                new TransferProgress("v" + AWKWARD, "id" + AWKWARD, new AgentRef("AGENT&\"<1>'é", "QM'é&"),
                        new AgentRef("中文", null), Instant.parse("2026-11-22T10:00:00.000000001Z"), 2, Double.MIN_VALUE,
                        2, 3, 4, 5, "", ""));
    }

    @ParameterizedTest
    @MethodSource("progresses")
    void progressSurvives(TransferProgress progress) throws Exception {
        assertThat(reader.readProgress(writer.write(progress))).isEqualTo(progress);
        assertThat(reader.readProgress(writer.writeBytes(progress))).isEqualTo(progress);
    }

    /** {@link Publications#AWKWARD} without the emoji, which agent status documents cannot carry. */
    private static final String AWKWARD_BMP = AWKWARD.replace("😀", "☺");

    static Stream<AgentStatus> statuses() {
        Map<String, String> many = new LinkedHashMap<>();
        for (int i = 0; i < 50; i++) {
            many.put(String.format("414d5120514d5f5041592020202020204a1b8e65200100%02d", i), "RunningTransfer");
        }
        many.put("odd&<id>\"é", "State&<\"'>中文");
        many.put("no-state", "");
        return Stream.of(
                Publications.clientStatus(),
                Publications.bindingsStatus(),
                new AgentStatus("AGENT" + AWKWARD_BMP, "line one\r\nline two\ttabbed & <b>\"quoted\"</b> ]]> ☺ ",
                        AWKWARD_BMP, "BRIDGE", "Windows 11", "America/New_York", "host-中文", "QM&1", "::1", 0,
                        "CHL'\"", "STARTING", Instant.parse("1970-01-01T00:00:00.000999Z"),
                        Instant.parse("2026-11-22T10:00:00Z"), 0, 0, 0, 0, 0, many, many));
    }

    @ParameterizedTest
    @MethodSource("statuses")
    void agentStatusSurvives(AgentStatus status) throws Exception {
        assertThat(reader.readAgentStatus(writer.write(status))).isEqualTo(status);
        assertThat(reader.readAgentStatus(writer.writeBytes(status))).isEqualTo(status);
    }

    @Test
    void transferStateOrderIsKept() throws Exception {
        AgentStatus read = reader.readAgentStatus(writer.write(Publications.clientStatus()));
        assertThat(read.sourceTransferStates().keySet())
                .containsExactlyElementsOf(Publications.clientStatus().sourceTransferStates().keySet());
    }

    @Test
    void charactersOutsideTheBmpInAStatusBecomeReplacementCharacters() throws Exception {
        AgentStatus status = new AgentStatus("A😀", "d😀𝄞", null, null, null, null, null, null, null, -1, null, null,
                null, null, -1, -1, -1, -1, -1, Map.of("id😀", "s😀"), Map.of());

        String xml = writer.write(status);

        assertThat(reader.readAgentStatus(xml)).isEqualTo(new AgentStatus("A\uFFFD", "d\uFFFD\uFFFD", null, null,
                null, null, null, null, null, -1, null, null, null, null, -1, -1, -1, -1, -1,
                Map.of("id\uFFFD", "s\uFFFD"), Map.of()));
        Properties properties = new Properties();
        properties.loadFromXML(new ByteArrayInputStream(writer.writeBytes(status)));
        assertThat(properties.getProperty("agentDescription")).isEqualTo("d\uFFFD\uFFFD");
    }

    // ---------------------------------------------------------------- characters XML 1.0 cannot carry

    /** NUL, other C0 controls, unpaired surrogates and the two non-characters. */
    private static final String ILLEGAL = "a\u0000b\u0001c\u001fd\uD800e\uDC00f\uFFFEg\uFFFFh";
    private static final String REPLACED = "a\uFFFDb\uFFFDc\uFFFDd\uFFFDe\uFFFDf\uFFFDg\uFFFDh";

    @Test
    void illegalCharactersInALogBecomeReplacementCharacters() throws Exception {
        LogItem item = new LogItem(ILLEGAL, "/in/" + ILLEGAL, ILLEGAL, 1, "/out/" + ILLEGAL, ILLEGAL, 1, ILLEGAL,
                ILLEGAL, 1, ILLEGAL);
        TransferLog log = new TransferLog(ILLEGAL, ILLEGAL, ILLEGAL, LogAction.PROGRESS, START, SOURCE, DESTINATION,
                ORIGINATOR, ILLEGAL, null, -1, -1, 0, List.of(item), 1, List.of(ILLEGAL), null,
                Map.of(ILLEGAL, ILLEGAL));

        String xml = writer.write(log);

        assertThat(xml).doesNotContain("\u0000", "\u0001", "\u001f", "\uFFFE", "\uFFFF");
        LogItem replacedItem = new LogItem(REPLACED, "/in/" + REPLACED, REPLACED, 1, "/out/" + REPLACED, REPLACED, 1,
                REPLACED, REPLACED, 1, REPLACED);
        assertThat(reader.readLog(xml)).isEqualTo(new TransferLog(REPLACED, REPLACED, REPLACED, LogAction.PROGRESS,
                START, SOURCE, DESTINATION, ORIGINATOR, REPLACED, null, -1, -1, 0, List.of(replacedItem), 1,
                List.of(REPLACED), null, Map.of(REPLACED, REPLACED)));
    }

    @Test
    void illegalCharactersInProgressAndStatusBecomeReplacementCharacters() throws Exception {
        TransferProgress progress = new TransferProgress("4.00", TRANSFER_ID, SOURCE, DESTINATION, START, 1, 1, 1, 1,
                1, 1, ILLEGAL, ILLEGAL);
        assertThat(reader.readProgress(writer.write(progress))).isEqualTo(new TransferProgress("4.00", TRANSFER_ID,
                SOURCE, DESTINATION, START, 1, 1, 1, 1, 1, 1, REPLACED, REPLACED));

        AgentStatus status = new AgentStatus(ILLEGAL, ILLEGAL, null, null, null, null, null, null, null, -1, null,
                ILLEGAL, null, null, -1, -1, -1, -1, -1, Map.of(ILLEGAL, ILLEGAL), Map.of());
        assertThat(reader.readAgentStatus(writer.write(status))).isEqualTo(new AgentStatus(REPLACED, REPLACED, null,
                null, null, null, null, null, null, -1, null, REPLACED, null, null, -1, -1, -1, -1, -1,
                Map.of(REPLACED, REPLACED), Map.of()));
    }
}
