package org.openmft.agent.transfer.destination;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.openmft.agent.ResultCode;

class DestinationAdmissionTest {
    final DestinationSettings settings = new DestinationSettings("DST", "QM1", false, 2, 10);

    @Test
    void aStartWithinTheLimitsIsAccepted() {
        assertThat(DestinationAdmission.judge(settings, 10, 1)).isNull();
    }

    @Test
    void noDestinationTransfersAtAllIs52AndFinal() {
        var no = DestinationAdmission.judge(new DestinationSettings("DST", "QM1", false, 0, 10), 1, 0);
        assertThat(no.code()).isEqualTo(ResultCode.NO_DESTINATION_TRANSFERS);
        assertThat(no.retry()).isFalse();
        assertThat(no.supplement()).contains("maxDestinationTransfers=0");
    }

    @Test
    void tooManyFilesIs47AndFinal() {
        var no = DestinationAdmission.judge(settings, 11, 0);
        assertThat(no.code()).isEqualTo(ResultCode.DESTINATION_MAX_FILES);
        assertThat(no.retry()).isFalse();
        assertThat(no.supplement()).contains("11 files").contains("maxFilesForTransfer (10)");
    }

    @Test
    void aFullDestinationIs45WithRetry() {
        var no = DestinationAdmission.judge(settings, 1, 2);
        assertThat(no.code()).isEqualTo(ResultCode.DESTINATION_CAPACITY);
        assertThat(no.retry()).isTrue();
    }
}
