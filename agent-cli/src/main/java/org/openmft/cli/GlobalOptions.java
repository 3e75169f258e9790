package org.openmft.cli;

import java.nio.file.Path;
import java.util.Optional;

import org.openmft.agent.config.ConfigurationException;
import org.openmft.agent.config.DataDirectory;

import picocli.CommandLine.Option;

/**
 * Options every command takes: where the data directory is, and how much to say.
 */
final class GlobalOptions {
    @Option(names = "--data-dir", paramLabel = "DIR",
            description = "The OpenMFT data directory (default: $OPENMFT_DATA, else ~/.openmft).")
    Path dataDir;

    @Option(names = {"-v", "--verbose"}, description = "Show debug output and stack traces.")
    boolean verbose;

    DataDirectory dataDirectory() {
        return DataDirectory.resolve(dataDir, System.getenv());
    }

    /**
     * The configuration options set (IBM's {@code -p}): the named coordination queue manager, or
     * the installation's default.
     */
    String configurationOptions(String explicit) throws CommandFailure {
        if (explicit != null && !explicit.isBlank()) {
            return explicit;
        }
        Optional<String> dflt;
        try {
            dflt = dataDirectory().defaultCoordination();
        } catch (ConfigurationException e) {
            throw new CommandFailure(ExitCodes.CONFIGURATION, e.getMessage(), e);
        }
        if (dflt.isEmpty()) {
            throw new CommandFailure(ExitCodes.CONFIGURATION, "no default configuration options in "
                    + dataDirectory().installationProperties()
                    + ": run 'mft setup coordination -coordinationQMgr <QMGR> -default' first, or give -p");
        }
        return dflt.get();
    }
}
