package org.openmft.cli.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class Ipv4PrefixTest {
    @Test
    void findsTheNetworksIpPrints() {
        String ip = """
                1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever preferred_lft forever
                4: eth0    inet 192.0.2.2/24 brd 192.0.2.255 scope global eth0
                default via 192.0.2.1 dev eth0
                10.231.0.0/16 via 192.0.2.1 dev eth0
                """;
        assertThat(Ipv4Prefix.findAll(ip)).extracting(Ipv4Prefix::toString).containsExactly("127.0.0.0/8",
                "192.0.2.0/24", "192.0.2.255/32", "192.0.2.1/32", "10.231.0.0/16", "192.0.2.1/32");
    }

    @Test
    void aFreeSlash24OverlapsNoneTaken() {
        assertThat(Ipv4Prefix.freeSlash24(List.of())).hasToString("10.231.0.0/24");
        assertThat(Ipv4Prefix.freeSlash24(Ipv4Prefix.findAll("10.231.0.7/24 10.231.1.0/24"))).hasToString(
                "10.231.2.0/24");
        assertThat(Ipv4Prefix.freeSlash24(Ipv4Prefix.findAll("10.0.0.0/8"))).hasToString("172.29.0.0/24");
    }
}
