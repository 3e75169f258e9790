package org.openmft.agent.transfer;

import java.util.zip.CRC32C;

/**
 * What anyone who can change a message in flight can do to a CRC: change a body and keep its CRC32C,
 * by choosing 4 bytes of it. A CRC is affine over GF(2): for bodies of one length,
 * {@code crc(b ^ e) = crc(b) ^ L(e)} with L linear, and the 32 bits of 4 consecutive bytes span all
 * of L's values, so a 32 x 32 linear system gives the bits to flip. For the tests that show why a
 * chunk's CRC guards against accidents only.
 */
final class Crc32cForgery {
    private Crc32cForgery() {
    }

    static long crc(byte[] body) {
        CRC32C c = new CRC32C();
        c.update(body, 0, body.length);
        return c.getValue();
    }

    /**
     * Changes {@code body[at..at+3]} so that the body's CRC32C becomes {@code target}.
     *
     * @return the body, changed in place
     */
    static byte[] keep(byte[] body, int at, long target) {
        long base = crc(body);
        int[] columns = new int[32];
        for (int bit = 0; bit < 32; bit++) {
            flip(body, at, bit);
            columns[bit] = (int) (crc(body) ^ base);
            flip(body, at, bit);
        }
        // Solve: XOR of the chosen columns = base ^ target (Gaussian elimination, tracking which bits).
        int[] rows = columns.clone();
        int[] which = new int[32];
        for (int i = 0; i < 32; i++) {
            which[i] = 1 << i;
        }
        int want = (int) (base ^ target);
        int chosen = 0;
        for (int pivotBit = 31, row = 0; pivotBit >= 0 && row < 32; pivotBit--) {
            int p = -1;
            for (int r = row; r < 32; r++) {
                if ((rows[r] >>> pivotBit & 1) != 0) {
                    p = r;
                    break;
                }
            }
            if (p < 0) {
                continue;
            }
            swap(rows, row, p);
            swap(which, row, p);
            for (int r = 0; r < 32; r++) {
                if (r != row && (rows[r] >>> pivotBit & 1) != 0) {
                    rows[r] ^= rows[row];
                    which[r] ^= which[row];
                }
            }
            if ((want >>> pivotBit & 1) != 0) {
                want ^= rows[row];
                chosen ^= which[row];
            }
            row++;
        }
        if (want != 0) {
            throw new IllegalStateException("no 4 bytes at " + at + " reach the CRC");
        }
        for (int bit = 0; bit < 32; bit++) {
            if ((chosen >>> bit & 1) != 0) {
                flip(body, at, bit);
            }
        }
        if (crc(body) != target) {
            throw new IllegalStateException("the forged body's CRC is " + crc(body) + ", not " + target);
        }
        return body;
    }

    private static void flip(byte[] body, int at, int bit) {
        body[at + bit / 8] ^= (byte) (1 << (bit % 8));
    }

    private static void swap(int[] a, int i, int j) {
        int t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}
