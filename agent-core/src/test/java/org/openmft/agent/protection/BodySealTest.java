package org.openmft.agent.protection;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.SecureRandom;
import java.util.Arrays;

import org.junit.jupiter.api.Test;

class BodySealTest {
    private static final byte[] KEY = random(32);
    private static final byte[] BODY = random(70_000);
    private static final byte[] PLACE = BodySeal.place("a".repeat(48), 1, 7, 7 * 70_000L);

    private static byte[] random(int n) {
        byte[] b = new byte[n];
        new SecureRandom().nextBytes(b);
        return b;
    }

    @Test
    void anEncryptedBodyOpensOnlyWithItsKeyNonceAndPlace() {
        byte[] nonce = BodySeal.nonce();
        byte[] sealed = new byte[BODY.length + BodySeal.OVERHEAD];
        int n = BodySeal.encrypt(KEY, nonce, PLACE, BODY, BODY.length, sealed);
        assertThat(n).isEqualTo(BODY.length + BodySeal.OVERHEAD);
        assertThat(Arrays.copyOf(sealed, BODY.length)).isNotEqualTo(BODY);

        byte[] out = new byte[n];
        assertThat(BodySeal.decrypt(KEY, nonce, PLACE, sealed, n, out)).isEqualTo(BODY.length);
        assertThat(Arrays.copyOf(out, BODY.length)).isEqualTo(BODY);

        assertThat(BodySeal.decrypt(random(32), nonce, PLACE, sealed, n, out)).as("another key").isEqualTo(-1);
        assertThat(BodySeal.decrypt(KEY, BodySeal.nonce(), PLACE, sealed, n, out)).as("another nonce").isEqualTo(-1);
        assertThat(BodySeal.decrypt(KEY, nonce, BodySeal.place("a".repeat(48), 1, 8, 8 * 70_000L), sealed, n, out))
                .as("moved to another chunk").isEqualTo(-1);
        sealed[100] ^= 1;
        assertThat(BodySeal.decrypt(KEY, nonce, PLACE, sealed, n, out)).as("one bit changed").isEqualTo(-1);
        assertThat(BodySeal.decrypt(KEY, new byte[3], PLACE, sealed, n, out)).as("a short nonce").isEqualTo(-1);
        assertThat(BodySeal.decrypt(KEY, nonce, PLACE, sealed, 5, out)).as("shorter than a tag").isEqualTo(-1);
    }

    @Test
    void theSameChunkEncryptsDifferentlyEachTime() {
        byte[] a = new byte[BODY.length + BodySeal.OVERHEAD];
        byte[] b = new byte[BODY.length + BodySeal.OVERHEAD];
        BodySeal.encrypt(KEY, BodySeal.nonce(), PLACE, BODY, BODY.length, a);
        BodySeal.encrypt(KEY, BodySeal.nonce(), PLACE, BODY, BODY.length, b);
        assertThat(a).isNotEqualTo(b);
    }

    @Test
    void theIntegrityMacCoversBodyPlaceAndKey() {
        byte[] mac = BodySeal.mac(KEY, PLACE, BODY, BODY.length);
        assertThat(BodySeal.macMatches(KEY, PLACE, BODY, BODY.length, mac)).isTrue();
        byte[] changed = BODY.clone();
        changed[0] ^= 1;
        assertThat(BodySeal.macMatches(KEY, PLACE, changed, changed.length, mac)).isFalse();
        assertThat(BodySeal.macMatches(KEY, BodySeal.place("a".repeat(48), 2, 7, 7 * 70_000L), BODY, BODY.length, mac))
                .as("another incarnation").isFalse();
        assertThat(BodySeal.macMatches(random(32), PLACE, BODY, BODY.length, mac)).isFalse();
        assertThat(BodySeal.macMatches(KEY, PLACE, BODY, BODY.length, null)).isFalse();
    }
}
