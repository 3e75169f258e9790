package org.openmft.agent.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import org.openmft.agent.transfer.protocol.TransferIds;

class TransferIdsTest {
    @Test
    void anMqMessageIdIsTheTransferId() {
        String mq = "414d5120514d31202020202020202020" + "6b02d56100208a14";
        assertThat(TransferIds.forRequest("ID:" + mq.toUpperCase(java.util.Locale.ROOT), "QM1")).isEqualTo(mq);
    }

    @Test
    void aRequestDeliveredAgainKeepsItsTransferId() {
        // Artemis message ids: "ID:" and a UUID, kept by a message that is delivered again.
        String first = TransferIds.forRequest("ID:6b02d561-e667-11f1-bd57-02fc00000001", "SOAKQM");
        String again = TransferIds.forRequest("ID:6b02d561-e667-11f1-bd57-02fc00000001", "SOAKQM");
        String other = TransferIds.forRequest("ID:6b02d561-e667-11f1-bd57-02fc00000002", "SOAKQM");

        assertThat(again).isEqualTo(first);
        assertThat(other).isNotEqualTo(first);
        assertThat(TransferIds.isValid(first)).isTrue();
        // "AMQ ", the queue manager name padded to 12 bytes, then the unique part.
        assertThat(first).startsWith("414d5120" + "534f414b514d" + "202020202020");
    }

    @Test
    void withoutAMessageIdEveryIdIsNew() {
        assertThat(TransferIds.forRequest(null, "QM1")).isNotEqualTo(TransferIds.forRequest(null, "QM1"));
        assertThat(TransferIds.forRequest("", "QM1")).isNotEqualTo(TransferIds.forRequest("", "QM1"));
        assertThat(TransferIds.isValid(TransferIds.newId("A_VERY_LONG_QUEUE_MANAGER_NAME"))).isTrue();
    }
}
