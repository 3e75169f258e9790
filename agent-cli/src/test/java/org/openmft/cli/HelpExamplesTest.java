package org.openmft.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import picocli.CommandLine;

/** Every runnable command's {@code --help} shows at least one example, as the issue asks. */
class HelpExamplesTest {

    private static void leaves(CommandLine c, List<CommandLine> out) {
        if (c.getSubcommands().isEmpty()) {
            out.add(c);
            return;
        }
        // Aliases appear as extra keys for the same command: visit each command once.
        c.getSubcommands().values().stream().distinct().forEach(s -> leaves(s, out));
    }

    @Test
    void everyCommandHasExamplesInItsHelp() {
        List<CommandLine> commands = new ArrayList<>();
        leaves(Mft.commandLine(), commands);
        assertThat(commands).hasSizeGreaterThan(20);
        for (CommandLine c : commands) {
            if (c.getCommandName().equals("help")) {
                continue;
            }
            assertThat(c.getUsageMessage()).as("help of %s", c.getCommandSpec().qualifiedName())
                    .containsIgnoringCase("example");
        }
    }
}
