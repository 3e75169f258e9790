package org.openmft.agent.qmgr.channel;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Queue manager aliases kept with their queue manager (read back as written, as at a restart), and
 * which of them are applied: an alias goes through a channel, not through another alias of the same
 * queue manager (a chain is one alias per queue manager on the way, ChannelAliasIT).
 */
class ChannelAliasTest {
    @TempDir
    Path qmgr;

    @Test
    void aliasesAreReadBackAsWritten() throws Exception {
        new ChannelAlias("QMB", "QMC").store(qmgr);
        new ChannelAlias("QMD", "QMC").store(qmgr);
        assertThat(ChannelAlias.loadAll(qmgr)).isEqualTo(Map.of("QMB", new ChannelAlias("QMB", "QMC"),
                "QMD", new ChannelAlias("QMD", "QMC")));
    }

    @Test
    void anAliasThroughAnotherAliasIsRefusedByNameAndTwoThroughEachOtherBothAre() {
        ChannelAlias qmb = new ChannelAlias("QMB", "QMC");
        ChannelAlias qmc = new ChannelAlias("QMC", "QMD");
        Map<String, ChannelAlias> chain = Map.of("QMB", qmb, "QMC", qmc);
        assertThat(qmb.refusal(chain)).hasValue("alias QMB goes through QMC, itself an alias (via QMD): an alias goes"
                + " through a channel; for a longer route, define an alias on each queue manager on the way");
        assertThat(qmc.refusal(chain)).as("through a channel (or nothing yet)").isEmpty();

        ChannelAlias back = new ChannelAlias("QMC", "QMB");
        Map<String, ChannelAlias> loop = Map.of("QMB", qmb, "QMC", back);
        assertThat(qmb.refusal(loop)).isPresent();
        assertThat(back.refusal(loop)).isPresent();
    }
}
