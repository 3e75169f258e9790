package org.openmft.agent.authority;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

class AuthorityTest {

    @Test
    void rolesAreTheAuthorityQueueAndTheAccessAsSetmqautNamesThem() {
        assertThat(Authority.TRANSFER.role("agent.one")).isEqualTo("SYSTEM.FTE.AUTHTRN1.AGENT.ONE+browse");
        assertThat(Authority.AGENT_SEND.role("DST")).isEqualTo("SYSTEM.FTE.AUTHAGT1.DST+put");
        assertThat(Authority.AGENT_RECEIVE.role("DST")).isEqualTo("SYSTEM.FTE.AUTHAGT1.DST+browse");
        for (Authority a : Authority.values()) {
            assertThat(Authority.parseRole(a.role("A.B_C"))).contains(new Authority.Grant(a, "A.B_C"));
        }
        assertThat(Authority.parseRole("requester")).isEmpty();
        assertThat(Authority.parseRole("agent.SRC")).isEqualTo(Optional.empty());
    }

    @Test
    void aRoleThatLooksLikeAnAuthorityButIsNotOneIsRefusedWithWhatWouldBe() {
        assertThatThrownBy(() -> Authority.parseRole("SYSTEM.FTE.AUTHTRN1.SRC+put"))
                .hasMessageContaining("the authority roles are").hasMessageContaining("SYSTEM.FTE.AUTHTRN1.<AGENT>+browse");
        assertThatThrownBy(() -> Authority.parseRole("SYSTEM.FTE.AUTHTRN1.SRC"))
                .hasMessageContaining("an authority queue and an access");
        assertThatThrownBy(() -> Authority.parseRole("SYSTEM.FTE.AUTHTRN1.src+browse"))
                .hasMessageContaining("upper case").hasMessageContaining("SYSTEM.FTE.AUTHTRN1.SRC+browse");
        assertThatThrownBy(() -> Authority.parseRole("SYSTEM.FTE.AUTHXYZ1.SRC+browse"))
                .hasMessageContaining("the authority roles are");
        assertThatThrownBy(() -> Authority.parseRole("SYSTEM.FTE.AUTHTRN1.S*C+browse"))
                .hasMessageContaining("agent name 'S*C' is not valid");
    }

    @Test
    void theQueueManagerEvaluatesRequestsStartsAndTheirAcceptancesOnly() {
        assertThat(AuthorityStamp.target("SYSTEM.FTE.COMMAND.SRC", null)).isEqualTo(new AuthorityStamp.Target("SRC",
                EnumSet.of(Authority.TRANSFER, Authority.SCHEDULE, Authority.MONITOR, Authority.OPERATIONS,
                        Authority.ADMINISTRATION)));
        assertThat(AuthorityStamp.target("SYSTEM.FTE.DATA.A.B", "START"))
                .isEqualTo(new AuthorityStamp.Target("A.B", Set.of(Authority.AGENT_SEND)));
        assertThat(AuthorityStamp.target("SYSTEM.FTE.REPLY.SRC", "START_OK"))
                .isEqualTo(new AuthorityStamp.Target("SRC", Set.of(Authority.AGENT_RECEIVE)));
        assertThat(AuthorityStamp.target("SYSTEM.FTE.DATA.DST", "DATA")).isNull();
        assertThat(AuthorityStamp.target("SYSTEM.FTE.REPLY.SRC", "ACK")).isNull();
        assertThat(AuthorityStamp.target("SYSTEM.FTE.STATE.SRC", null)).isNull();
        assertThat(AuthorityStamp.target("SYSTEM.FTE.COMMAND.lower", null)).as("not an agent's queue").isNull();
        assertThat(AuthorityStamp.target(null, null)).isNull();
        assertThat(AuthorityStamp.encode(EnumSet.of(Authority.TRANSFER, Authority.ADMINISTRATION)))
                .isEqualTo("ADMINISTRATION,TRANSFER");
        assertThat(AuthorityStamp.encode(Set.of())).isEmpty();
    }

    @Test
    void theRefusalNamesTheUserTheAuthorityAndTheQueue() {
        assertThat(AuthorityRefusal.message("alice", Authority.ADMINISTRATION, "SRC", "shut down the agent"))
                .isEqualTo("BFGCH0083E: User alice does not have the authority (ADMINISTRATION) required to shut down"
                        + " the agent on agent SRC: it needs browse on SYSTEM.FTE.AUTHADM1.SRC.");
        assertThat(AuthorityRefusal.message(null, Authority.AGENT_SEND, "DST", "send it a transfer"))
                .startsWith("BFGCH0083E: A request without a user validated by the queue manager does not have")
                .endsWith("it needs put on SYSTEM.FTE.AUTHAGT1.DST.");
    }
}
