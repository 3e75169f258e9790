package org.openmft.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.qmgr.channel.ChannelAlias;
import org.openmft.agent.qmgr.channel.ChannelDefinition;

/**
 * {@code mft qmgr channel alias} on a queue manager that does not run: an alias needs the channel it
 * goes through, is not made twice nor beside a channel to the same queue manager, holds its
 * channel while it exists, and goes; {@code channel mqsc --via} writes IBM's QREMOTE.
 */
class QmgrChannelAliasCommandsTest {
    @TempDir
    Path data;

    private int mft(String... args) {
        String[] all = new String[args.length + 2];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--data-dir";
        all[args.length + 1] = data.toString();
        return MftCommandLineTest.run(all).exitCode();
    }

    @Test
    void anAliasNeedsItsChannelExcludesADirectChannelAndHoldsItsChannelUntilDeleted() throws Exception {
        assertThat(mft("qmgr", "create", "QMA", "--port", "41414")).isZero();
        Path qma = data.resolve("qmgrs/QMA");
        Path alias = ChannelAlias.file(qma, "QMB");

        assertThat(mft("qmgr", "channel", "alias", "create", "QMA", "--to", "QMB", "--via", "QMC"))
                .as("no channel to QMC yet").isEqualTo(ExitCodes.FAILED);
        assertThat(alias).doesNotExist();
        new ChannelDefinition("QMC", "127.0.0.1", 1415, data.resolve("qma-to-qmc.xml"), null, null, false).store(qma);
        assertThat(mft("qmgr", "channel", "alias", "create", "QMA", "--to", "QMB", "--via", "QMB")).as("through itself")
                .isEqualTo(ExitCodes.FAILED);
        assertThat(mft("qmgr", "channel", "alias", "create", "QMA", "--to", "QMB", "--via", "QMC")).isZero();
        assertThat(ChannelAlias.loadAll(qma)).containsValue(new ChannelAlias("QMB", "QMC"));
        assertThat(mft("qmgr", "channel", "alias", "create", "QMA", "--to", "QMB", "--via", "QMC"))
                .as("twice without --replace").isEqualTo(ExitCodes.FAILED);
        assertThat(mft("qmgr", "channel", "alias", "list", "QMA")).isZero();

        assertThat(mft("qmgr", "channel", "create", "QMA", "--to", "QMB", "--host", "127.0.0.1", "--credentials",
                data.resolve("none.xml").toString())).as("a channel beside the alias").isEqualTo(ExitCodes.FAILED);
        assertThat(ChannelDefinition.file(qma, "QMB")).doesNotExist();
        assertThat(mft("qmgr", "channel", "delete", "QMA", "--to", "QMC")).as("the channel the alias goes through")
                .isEqualTo(ExitCodes.FAILED);
        assertThat(ChannelDefinition.file(qma, "QMC")).exists();

        // An alias through another alias, which no command makes (a file written by hand): not applied.
        new ChannelAlias("QMC", "QMD").store(qma);
        java.io.PrintStream original = System.out;
        java.io.ByteArrayOutputStream listed = new java.io.ByteArrayOutputStream();
        System.setOut(new java.io.PrintStream(listed, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            assertThat(mft("qmgr", "channel", "alias", "list", "QMA")).isZero();
        } finally {
            System.setOut(original);
        }
        assertThat(listed.toString(java.nio.charset.StandardCharsets.UTF_8))
                .contains("not applied: alias QMB goes through QMC, itself an alias (via QMD)");
        Files.delete(ChannelAlias.file(qma, "QMC"));

        assertThat(mft("qmgr", "channel", "alias", "delete", "QMA", "--to", "QMB")).isZero();
        assertThat(alias).doesNotExist();
        assertThat(mft("qmgr", "channel", "alias", "delete", "QMA", "--to", "QMB")).isEqualTo(ExitCodes.FAILED);
        assertThat(mft("qmgr", "channel", "delete", "QMA", "--to", "QMC")).isZero();
    }

    @Test
    void mqscViaWritesTheQueueManagerAliasAndWithoutItAHostIsNeeded() throws Exception {
        Path out = Files.createDirectories(data.resolve("mqsc"));
        assertThat(mft("qmgr", "channel", "mqsc", "--from", "QMA", "--to", "QMB", "--via", "QMC", "--out",
                out.toString())).isZero();
        assertThat(out.resolve("QMA.TO.QMB.alias.mqsc")).content()
                .contains("DEFINE QREMOTE('QMB') RNAME(' ') RQMNAME('QMB') XMITQ('QMC') REPLACE");
        assertThat(mft("qmgr", "channel", "mqsc", "--from", "QMA", "--to", "QMB", "--out", out.toString()))
                .as("neither --host nor --via").isEqualTo(ExitCodes.FAILED);
        assertThat(mft("qmgr", "channel", "mqsc", "--from", "QMA", "--to", "QMB", "--via", "QMB", "--out",
                out.toString())).as("through itself").isEqualTo(ExitCodes.FAILED);
        try (var files = Files.list(out)) {
            assertThat(files.map(f -> f.getFileName().toString()).toList()).containsExactly("QMA.TO.QMB.alias.mqsc");
        }
    }
}
