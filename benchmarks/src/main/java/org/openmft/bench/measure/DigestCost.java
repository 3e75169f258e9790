package org.openmft.bench.measure;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Random;

/**
 * What the MD5 digest alone costs: CPU seconds of one thread per GiB digested, in chunks of the
 * agents' default size from a heap array, as an agent's {@code MessageDigest.update} does on each
 * side. Issue 18's goal "MD5 adds no more than the digest itself costs on each side" is judged
 * against twice this.
 */
public final class DigestCost {
    private static final int CHUNK = 262_144;
    private static final long GIB = 1L << 30;

    private DigestCost() {
    }

    /** CPU seconds per GiB of MD5 on this thread, over one GiB after a short warm-up; NaN without thread CPU time. */
    public static double md5CpuSecondsPerGib() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        if (!threads.isCurrentThreadCpuTimeSupported()) {
            return Double.NaN;
        }
        byte[] chunk = new byte[CHUNK];
        new Random(18).nextBytes(chunk);
        MessageDigest md5;
        try {
            md5 = MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        for (int i = 0; i < 256; i++) {
            md5.update(chunk);
        }
        md5.digest();
        long cpu0 = threads.getCurrentThreadCpuTime();
        for (long done = 0; done < GIB; done += CHUNK) {
            md5.update(chunk);
        }
        md5.digest();
        return (threads.getCurrentThreadCpuTime() - cpu0) / 1e9;
    }
}
