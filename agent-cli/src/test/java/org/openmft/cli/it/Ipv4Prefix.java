package org.openmft.cli.it;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An IPv4 network ({@code 10.231.4.0/24}), for {@link NetworkHosts} to choose a private /24 that
 * overlaps none of the machine's own networks: the hosts' addresses then never mean anything
 * else on this machine, in logs or should a route to them ever be added.
 */
record Ipv4Prefix(int network, int length) {
    private static final Pattern ADDRESS = Pattern.compile("\\b(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})(?:/(\\d{1,2}))?\\b");

    Ipv4Prefix {
        if (length < 0 || length > 32) {
            throw new IllegalArgumentException("prefix length " + length);
        }
        network &= mask(length);
    }

    /** Every {@code a.b.c.d/len} (a bare address as /32) in {@code text}, such as {@code ip -o addr} prints. */
    static List<Ipv4Prefix> findAll(String text) {
        List<Ipv4Prefix> found = new ArrayList<>();
        Matcher m = ADDRESS.matcher(text);
        while (m.find()) {
            int address = 0;
            for (int i = 1; i <= 4; i++) {
                address = address << 8 | Integer.parseInt(m.group(i)) & 0xff;
            }
            found.add(new Ipv4Prefix(address, m.group(5) == null ? 32 : Integer.parseInt(m.group(5))));
        }
        return found;
    }

    /**
     * The first /24 of 10.231.0.0/16, then of 172.29.0.0/16, then of 192.168.0.0/16, that
     * overlaps none of {@code taken}.
     */
    static Ipv4Prefix freeSlash24(Collection<Ipv4Prefix> taken) {
        for (int base : new int[] {10 << 24 | 231 << 16, 172 << 24 | 29 << 16, 192 << 24 | 168 << 16}) {
            for (int third = 0; third < 256; third++) {
                Ipv4Prefix candidate = new Ipv4Prefix(base | third << 8, 24);
                if (taken.stream().noneMatch(candidate::overlaps)) {
                    return candidate;
                }
            }
        }
        throw new IllegalStateException("no free private /24 beside " + taken);
    }

    boolean overlaps(Ipv4Prefix other) {
        int m = mask(Math.min(length, other.length));
        return (network & m) == (other.network & m);
    }

    /** The {@code n}th address of this network ({@code host(1)} of 10.231.0.0/24 is 10.231.0.1). */
    InetAddress host(int n) {
        if (n <= 0 || n >= (1L << (32 - length)) - 1) {
            throw new IllegalArgumentException("no host " + n + " in " + this);
        }
        int a = network | n;
        try {
            return InetAddress.getByAddress(new byte[] {(byte) (a >>> 24), (byte) (a >>> 16), (byte) (a >>> 8), (byte) a});
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    private static int mask(int length) {
        return length == 0 ? 0 : -1 << (32 - length);
    }

    @Override
    public String toString() {
        return (network >>> 24) + "." + (network >>> 16 & 0xff) + "." + (network >>> 8 & 0xff) + "." + (network & 0xff)
                + "/" + length;
    }
}
