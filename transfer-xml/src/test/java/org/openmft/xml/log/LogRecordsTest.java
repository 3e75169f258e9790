package org.openmft.xml.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.openmft.xml.log.Publications.DESTINATION;
import static org.openmft.xml.log.Publications.SOURCE;
import static org.openmft.xml.log.Publications.START;
import static org.openmft.xml.log.Publications.TRANSFER_ID;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the publication records accept, and what they normalise so that it survives a write and a read. */
class LogRecordsTest {

    private static TransferLog log(Instant time, int total, Integer resultCode, List<String> supplements) {
        return new TransferLog("6.00", TRANSFER_ID, TransferLog.SOURCE_AGENT, LogAction.STARTED, time, null, null,
                null, null, time, total, -1, -1, List.of(), resultCode, supplements, null, Map.of());
    }

    @Test
    void timesAreKeptToTheMillisecond() {
        Instant precise = Instant.parse("2026-11-22T10:00:00.123456789Z");

        assertThat(log(precise, -1, null, List.of()).time()).isEqualTo(START);
        assertThat(log(precise, -1, null, List.of()).startTime()).isEqualTo(START);
        assertThat(new Statistics(precise, 0, 0, 0).actualStartTime()).isEqualTo(START);
        assertThat(new TransferProgress("4.00", TRANSFER_ID, SOURCE, DESTINATION, precise, 0, 0, 0, 0, 0, 0, null,
                null).time()).isEqualTo(START);
    }

    @Test
    void whatEveryDocumentNeedsIsRequired() {
        assertThatThrownBy(() -> log(null, -1, null, List.of())).isInstanceOf(NullPointerException.class)
                .hasMessage("time");
        assertThatThrownBy(() -> new TransferLog("6.00", null, "sourceAgent", LogAction.STARTED, START, null, null,
                null, null, null, -1, -1, -1, List.of(), null, List.of(), null, Map.of()))
                .hasMessage("transferId");
        assertThatThrownBy(() -> new TransferProgress("4.00", TRANSFER_ID, null, DESTINATION, START, 0, 0, 0, 0, 0, 0,
                null, null)).hasMessage("sourceAgent");
        assertThatThrownBy(() -> new LogItem(null, null, null, -1, null, null, -1, null, null, 0, null))
                .hasMessage("source");
        assertThatThrownBy(() -> new AgentStatus(null, null, null, null, null, null, null, null, null, -1, null, null,
                null, null, -1, -1, -1, -1, -1, Map.of(), Map.of())).hasMessage("agentName");
    }

    @Test
    void numbersAreMinusOneForUnknownOrMore() {
        assertThat(log(START, -1, null, List.of()).totalItems()).isEqualTo(-1);
        assertThatThrownBy(() -> log(START, -2, null, List.of())).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("totalItems must be -1 (unknown) or more, not -2");
        assertThatThrownBy(() -> new Statistics(null, -5, 0, 0)).hasMessage(
                "retryCount must be -1 (unknown) or more, not -5");
        assertThatThrownBy(() -> new TransferProgress("4.00", TRANSFER_ID, SOURCE, DESTINATION, START, 0,
                Double.NaN, 0, 0, 0, 0, null, null)).hasMessage("seconds must be -1 (unknown) or more, not NaN");
        assertThat(new TransferProgress("4.00", TRANSFER_ID, SOURCE, DESTINATION, START, 0, -0.0, 0, 0, 0, 0, null,
                null).seconds()).isEqualTo(0.0).isNotNegative();
    }

    @Test
    void supplementsNeedAResultCode() {
        assertThat(log(START, -1, 0, List.of("ok")).supplements()).containsExactly("ok");
        assertThatThrownBy(() -> log(START, -1, null, List.of("orphan")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("supplements need a resultCode");
    }

    @Test
    void metadataKeepsItsOrderAndRefusesNulls() {
        Map<String, String> metadata = new LinkedHashMap<>();
        metadata.put("z", "1");
        metadata.put("a", "2");
        TransferLog log = new TransferLog("6.00", TRANSFER_ID, "sourceAgent", LogAction.STARTED, START, null, null,
                null, null, null, -1, -1, -1, List.of(), null, List.of(), null, metadata);
        metadata.put("later", "3");

        assertThat(log.metadata()).containsExactly(Map.entry("z", "1"), Map.entry("a", "2"));
        metadata.put("null", null);
        assertThatThrownBy(() -> new TransferLog("6.00", TRANSFER_ID, "sourceAgent", LogAction.STARTED, START, null,
                null, null, null, null, -1, -1, -1, List.of(), null, List.of(), null, metadata))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void emptyOptionalStringsMeanAbsent() {
        LogItem item = new LogItem("binary", "/a", null, -1, null, null, -1, "", "", 0, "");
        assertThat(item.checksumMethod()).isNull();
        assertThat(item.checksum()).isNull();
        assertThat(item.supplement()).isEmpty();

        AgentStatus status = new AgentStatus("A", "", null, null, null, null, null, null, "", -1, "", null, null, null,
                -1, -1, -1, -1, -1, Map.of(), Map.of());
        assertThat(status.description()).isNull();
        assertThat(status.queueManagerHost()).isNull();
        assertThat(status.queueManagerChannel()).isNull();
    }

    @Test
    void transferStatesMustFitTheirOneLineForm() {
        assertThatThrownBy(() -> status(Map.of("a=b", "RunningTransfer"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("transfer id \"a=b\"");
        assertThatThrownBy(() -> status(Map.of("", "RunningTransfer"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> status(Map.of(" id", "RunningTransfer"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> status(Map.of("id", "Running\nTransfer"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("state");
        assertThat(status(Map.of("id", "")).sourceTransferStates()).containsEntry("id", "");
        assertThatThrownBy(() -> new AgentStatus("A", null, null, null, null, null, null, null, null, 65536, null, null,
                null, null, -1, -1, -1, -1, -1, Map.of(), Map.of())).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("queueManagerPort must be -1 (bindings) or 0-65535, not 65536");
    }

    private static AgentStatus status(Map<String, String> sourceStates) {
        return new AgentStatus("A", null, null, null, null, null, null, null, null, -1, null, null, null, null, -1, -1,
                -1, -1, -1, sourceStates, Map.of());
    }
}
