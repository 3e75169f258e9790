package org.openmft.agent.transfer.destination;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;

import org.junit.jupiter.api.Test;
import org.openmft.agent.ResultCode;
import org.openmft.agent.authority.Authority;
import org.openmft.agent.authority.HeldAuthorities;

class DestinationAdmissionTest {
    final DestinationSettings settings = new DestinationSettings("DST", "QM1", false, 2, 10);
    final DestinationSettings checking = new DestinationSettings("DST", "QM1", false, 2, 10, true, null);

    static DestinationAdmission.Refusal judge(DestinationSettings s, int itemCount, int running) {
        return DestinationAdmission.judge(s, itemCount, running, false, HeldAuthorities.NONE, null);
    }

    @Test
    void aStartWithinTheLimitsIsAccepted() {
        assertThat(judge(settings, 10, 1)).isNull();
    }

    @Test
    void noDestinationTransfersAtAllIs52AndFinal() {
        var no = judge(new DestinationSettings("DST", "QM1", false, 0, 10), 1, 0);
        assertThat(no.code()).isEqualTo(ResultCode.NO_DESTINATION_TRANSFERS);
        assertThat(no.retry()).isFalse();
        assertThat(no.supplement()).contains("maxDestinationTransfers=0");
    }

    @Test
    void tooManyFilesIs47AndFinal() {
        var no = judge(settings, 11, 0);
        assertThat(no.code()).isEqualTo(ResultCode.DESTINATION_MAX_FILES);
        assertThat(no.retry()).isFalse();
        assertThat(no.supplement()).contains("11 files").contains("maxFilesForTransfer (10)");
    }

    @Test
    void aFullDestinationIs45WithRetry() {
        var no = judge(settings, 1, 2);
        assertThat(no.code()).isEqualTo(ResultCode.DESTINATION_CAPACITY);
        assertThat(no.retry()).isTrue();
    }

    @Test
    void agentsThatDisagreeAboutCheckingAre54WhateverTheSenderHolds() {
        var no = DestinationAdmission.judge(checking, 1, 0, false, HeldAuthorities.of(Set.of(Authority.AGENT_SEND)),
                "srcuser");
        assertThat(no.code()).isEqualTo(ResultCode.AUTHORITY_CHECKING_MISMATCH);
        assertThat(no.supplement()).contains("authorityChecking=false").contains("authorityChecking=true");
    }

    @Test
    void withCheckingTheSenderNeedsAgentPutHere() {
        var no = DestinationAdmission.judge(checking, 1, 0, true, HeldAuthorities.of(Set.of(Authority.TRANSFER)),
                "srcuser");
        assertThat(no.code()).isEqualTo(ResultCode.NOT_AUTHORIZED);
        assertThat(no.supplement()).startsWith("BFGCH0083E").contains("srcuser")
                .contains("put on SYSTEM.FTE.AUTHAGT1.DST");
        assertThat(DestinationAdmission.judge(checking, 1, 0, true, HeldAuthorities.of(Set.of(Authority.AGENT_SEND)),
                "srcuser")).isNull();
    }
}
