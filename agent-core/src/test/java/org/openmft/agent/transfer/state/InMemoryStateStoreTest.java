package org.openmft.agent.transfer.state;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class InMemoryStateStoreTest extends TransferStateStoreContract {
    InMemoryStateStore store;

    @Override
    TransferStateStore store() {
        store = new InMemoryStateStore();
        return store;
    }

    @Override
    TransferStateStore reopened() {
        return store;
    }

    @Test
    void aBrokenStoreRefusesWritesNamingTheTransferAndTheReason() {
        InMemoryStateStore s = new InMemoryStateStore();
        s.failWrites("disk full");
        assertThatThrownBy(() -> s.saveSource(new SourceRecord(ID, "DST", 1, 0, 0, null, null)))
                .isInstanceOf(StateException.class).hasMessageContaining(ID).hasMessageContaining("disk full");
    }
}
