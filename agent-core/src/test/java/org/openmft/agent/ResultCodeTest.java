package org.openmft.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

class ResultCodeTest {
    @Test
    void ibmsNumbersAreKeptAndUnique() {
        assertThat(ResultCode.SUCCESS.code()).isZero();
        assertThat(ResultCode.PARTIAL_SUCCESS.code()).isEqualTo(20);
        assertThat(ResultCode.CANCELLED.code()).isEqualTo(41);
        assertThat(ResultCode.DESTINATION_CAPACITY.code()).isEqualTo(45);
        assertThat(ResultCode.RECOVERY_TIMED_OUT.code()).isEqualTo(69);
        assertThat(Arrays.stream(ResultCode.values()).map(ResultCode::code).distinct().count())
                .isEqualTo(ResultCode.values().length);
        for (ResultCode c : ResultCode.values()) {
            assertThat(ResultCode.of(c.code())).isSameAs(c);
        }
        assertThatThrownBy(() -> ResultCode.of(99)).hasMessageContaining("99");
    }

    @Test
    void aTransfersResultFollowsItsItems() {
        ItemOutcome ok = new ItemOutcome(0, "a", "b", 1, ItemOutcome.SUCCESS, null, null);
        ItemOutcome warn = new ItemOutcome(1, "a", "b", 1, ItemOutcome.WARNING, "w", null);
        ItemOutcome bad = new ItemOutcome(2, "a", "b", 0, ItemOutcome.FAILED, "f", null);
        assertThat(ResultCode.fromItems(List.of(ok, warn))).isEqualTo(ResultCode.SUCCESS);
        assertThat(ResultCode.fromItems(List.of(ok, bad))).isEqualTo(ResultCode.PARTIAL_SUCCESS);
        assertThat(ResultCode.fromItems(List.of(bad))).isEqualTo(ResultCode.FAILED);
    }
}
