package org.openmft.agent.transfer.failure;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;

import org.junit.jupiter.api.Test;
import org.openmft.agent.ResultCode;
import org.openmft.agent.transfer.state.StateException;

class FailurePolicyTest {
    static FailurePolicy.Fail fail(FailurePolicy.Decision d) {
        assertThat(d).isInstanceOf(FailurePolicy.Fail.class);
        return (FailurePolicy.Fail) d;
    }

    @Test
    void aTransferFailureEndsWithItsOwnCodeEvenWhileStopping() {
        var f = fail(FailurePolicy.decide(new TransferFailure(ResultCode.RECOVERY_TIMED_OUT, "BFGTR0080E: late"),
                true, true, "DST"));
        assertThat(f.resultCode()).isEqualTo(ResultCode.RECOVERY_TIMED_OUT);
        assertThat(f.supplement()).isEqualTo("BFGTR0080E: late");
    }

    @Test
    void anythingElseSuspendsWhileStoppingOrWithoutAConnection() {
        for (Throwable t : new Throwable[] {new JMSException("gone"), new InterruptedException(),
            new StateException("record not written", null), new IllegalStateException("bug")}) {
            assertThat(FailurePolicy.decide(t, true, false, "DST")).isInstanceOf(FailurePolicy.Suspend.class);
            assertThat(FailurePolicy.decide(t, false, true, "DST")).isInstanceOf(FailurePolicy.Suspend.class);
        }
    }

    @Test
    void stateThatCouldNotBeMadeDurableFailsTheTransferNamingTheStore() {
        var f = fail(FailurePolicy.decide(new StateException("its record on SYSTEM.FTE.STATE.SRC could not be"
                + " written: full", null), false, false, "DST"));
        assertThat(f.resultCode()).isEqualTo(ResultCode.FAILED);
        assertThat(f.supplement()).startsWith("BFGTR0095E").contains("SYSTEM.FTE.STATE.SRC");
    }

    @Test
    void aMissingQueueOfThePeerIs49AndOtherMessagingErrors40() {
        assertThat(fail(FailurePolicy.decide(new InvalidDestinationException("no queue"), false, false, "DST"))
                .resultCode()).isEqualTo(ResultCode.DESTINATION_UNREACHABLE);
        assertThat(fail(FailurePolicy.decide(new JMSException("boom"), false, false, "DST")).supplement())
                .startsWith("BFGTR0073E");
    }

    @Test
    void theEngineIsAskedAboutItsConnectionOnlyWhenItMatters() {
        int[] probes = {0};
        EngineStatus status = new EngineStatus() {
            @Override
            public boolean stopping() {
                return false;
            }

            @Override
            public boolean connectionLost() {
                probes[0]++;
                return true;
            }
        };
        FailurePolicy.decide(new TransferFailure(ResultCode.CANCELLED, null), status, "DST");
        assertThat(probes[0]).isZero();
        assertThat(FailurePolicy.decide(new JMSException("x"), status, "DST")).isInstanceOf(FailurePolicy.Suspend.class);
        assertThat(probes[0]).isOne();
    }
}
