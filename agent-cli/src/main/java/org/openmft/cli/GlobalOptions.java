package org.openmft.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

import org.openmft.agent.config.ConfigurationException;
import org.openmft.agent.config.DataDirectory;
import org.openmft.agent.config.PrivateFiles;

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
     * The data directory, for a command that writes into it or a daemon that runs from it: created
     * {@code rwx------} when missing, and tightened to that (with a warning) when an older version
     * left it open to other users. Everything OpenMFT keeps is below it, so nobody else can read
     * configuration, journals, logs or the logger's database.
     */
    DataDirectory privateDataDirectory() throws CommandFailure {
        DataDirectory dd = dataDirectory();
        try {
            PrivateFiles.ensurePrivateDirectory(dd.root(), "data directory");
        } catch (IOException e) {
            throw new CommandFailure(ExitCodes.CONFIGURATION, "cannot make the data directory " + dd.root()
                    + " private to its owner (rwx------): " + e, e);
        }
        return dd;
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
