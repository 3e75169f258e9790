package org.openmft.agent.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import javax.security.auth.x500.X500Principal;

import org.junit.jupiter.api.Test;

/** IBM MQ's SSLPEER rules, as an MQ administrator writes agentSslPeerName. */
class PeerNamePatternTest {
    static final X500Principal QM1 = new X500Principal("CN=QM1.PROD, OU=MFT, OU=Payments, O=Example, C=GB");

    @Test
    void everyAttributeOfThePatternMustMatchAndOthersAreIgnored() {
        assertThat(PeerNamePattern.parse("CN=QM1.PROD, O=Example").mismatch(QM1)).isEmpty();
        assertThat(PeerNamePattern.parse("CN=QM1.PROD").mismatch(QM1)).isEmpty();
        assertThat(PeerNamePattern.parse("CN=OTHER,O=Example").mismatch(QM1))
                .hasValue("CN is 'QM1.PROD' where 'OTHER' is required");
        assertThat(PeerNamePattern.parse("CN=QM1.PROD, O=Elsewhere").mismatch(QM1))
                .hasValue("O is 'Example' where 'Elsewhere' is required");
        assertThat(PeerNamePattern.parse("CN=QM1.PROD, L=London").mismatch(QM1)).get().asString()
                .contains("no L attribute");
    }

    @Test
    void valuesMatchIrrespectiveOfCaseWithAsterisksAtEitherEnd() {
        assertThat(PeerNamePattern.parse("cn=qm1.prod;o=EXAMPLE").mismatch(QM1)).isEmpty();
        assertThat(PeerNamePattern.parse("CN=QM1*").mismatch(QM1)).isEmpty();
        assertThat(PeerNamePattern.parse("CN=*PROD").mismatch(QM1)).isEmpty();
        assertThat(PeerNamePattern.parse("CN=*1.P*").mismatch(QM1)).isEmpty();
        assertThat(PeerNamePattern.parse("CN=QM2*").mismatch(QM1)).isPresent();
    }

    @Test
    void quotedValuesKeepSeparatorsAndOrganisationalUnitsMatchInOrder() {
        X500Principal quoted = new X500Principal("CN=\"Smith, John\", O=Example");
        assertThat(PeerNamePattern.parse("CN=\"Smith, John\" , O=Example").mismatch(quoted)).isEmpty();
        assertThat(PeerNamePattern.parse("OU=MFT, OU=Payments").mismatch(QM1)).isEmpty();
        assertThat(PeerNamePattern.parse("OU=MFT").mismatch(QM1)).isEmpty();
        assertThat(PeerNamePattern.parse("OU=Payments, OU=MFT").mismatch(QM1))
                .hasValue("OU is 'MFT' where 'Payments' is required");
        assertThat(PeerNamePattern.parse("OU=MFT, OU=Payments, OU=Extra").mismatch(QM1)).get().asString()
                .contains("3");
    }

    @Test
    void stateAndEmailAliasesAreTheSameAttribute() {
        X500Principal p = new X500Principal("EMAILADDRESS=mq@example.com, CN=QM1, ST=Hampshire");
        assertThatThrownBy(() -> PeerNamePattern.parse("S=Hampshire, SP=hamp*")).hasMessageContaining("given twice");
        assertThat(PeerNamePattern.parse("SP=Hampshire").mismatch(p)).isEmpty();
        assertThat(PeerNamePattern.parse("E=mq@example.com").mismatch(p)).isEmpty();
    }

    @Test
    void malformedPatternsAreRefusedWithTheReason() {
        assertThatThrownBy(() -> PeerNamePattern.parse("XX=1")).hasMessageContaining("attribute type 'XX'");
        assertThatThrownBy(() -> PeerNamePattern.parse("CN=a*b")).hasMessageContaining("only at the start or end");
        assertThatThrownBy(() -> PeerNamePattern.parse("CN=a, CN=b")).hasMessageContaining("given twice");
        assertThatThrownBy(() -> PeerNamePattern.parse("CN =a")).hasMessageContaining("no space");
        assertThatThrownBy(() -> PeerNamePattern.parse("CN")).hasMessageContaining("TYPE=value");
        assertThatThrownBy(() -> PeerNamePattern.parse(" ")).isInstanceOf(IllegalArgumentException.class);
    }
}
