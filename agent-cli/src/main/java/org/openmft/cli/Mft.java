package org.openmft.cli;

import java.io.PrintWriter;

import org.openmft.client.MftClientException;
import org.openmft.agent.config.ConfigurationException;
import org.openmft.agent.qmgr.QueueManagerException;

import ch.qos.logback.classic.Level;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * The {@code mft} command: one picocli application with subcommands grouped by noun. The
 * {@code fte*} launchers in {@code bin/} call it with the matching subcommand. This class is the
 * only place that calls {@link System#exit}.
 */
@Command(name = "mft", mixinStandardHelpOptions = true, versionProvider = Mft.Version.class,
        description = "OpenMFT: managed file transfer agents compatible with IBM MQ Managed File Transfer.",
        subcommands = {QmgrCommands.class, SetupCommands.class, AgentCommands.class, TransferCommands.class,
                LoggerCommands.class, RestCommands.class, MonitorCommands.class, ScheduleCommands.class,
                CompletionCommand.class,
                TemplateCommands.class, CommandLine.HelpCommand.class},
        footer = {"", "Exit codes: 0 success, 1 unsuccessful (including a wrong flag), 2 timed out waiting"
                + " for a reply, 70 agent ended abnormally, 75 queue manager unavailable, 78 configuration"
                + " problem."})
public final class Mft implements Runnable {

    @picocli.CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        try {
            LogSetup.applyFormat(System.getProperties(), System.getenv());
        } catch (IllegalArgumentException e) {
            // Before any command: a daemon must not start writing logs in a format nobody asked for.
            System.err.println(e.getMessage());
            System.exit(ExitCodes.CONFIGURATION);
        }
        System.exit(run(args));
    }

    /** Runs a command line and returns its exit code, without exiting. */
    public static int run(String... args) {
        return commandLine().execute(args);
    }

    static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Mft());
        cl.setParameterExceptionHandler(new UsageErrors());
        cl.setExecutionExceptionHandler(new Failures());
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        // picocli gives subcommands no version of their own: without this, 'fteStartAgent --version'
        // (the launcher runs 'mft agent start') would print nothing.
        forEachCommand(cl, c -> c.getCommandSpec().versionProvider(new Version()));
        return cl;
    }

    private static void forEachCommand(CommandLine cl, java.util.function.Consumer<CommandLine> action) {
        action.accept(cl);
        cl.getSubcommands().values().stream().distinct().forEach(sub -> forEachCommand(sub, action));
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Called by each command before it runs: console level from -v. */
    static void prepare(GlobalOptions global) {
        LogSetup.consoleLevel(global.verbose ? Level.DEBUG : Level.WARN);
    }

    /** A wrong flag or value: one line, the usage hint, and exit code 1 as IBM's commands do. */
    private static final class UsageErrors implements IParameterExceptionHandler {
        @Override
        public int handleParseException(CommandLine.ParameterException ex, String[] args) {
            CommandLine cmd = ex.getCommandLine();
            PrintWriter err = cmd.getErr();
            err.println("BFGCL0001E: " + ex.getMessage());
            CommandLine.UnmatchedArgumentException.printSuggestions(ex, err);
            err.println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for more information.");
            return ExitCodes.FAILED;
        }
    }

    /** Known failures become one line and their exit code; others a short line, or a trace with -v. */
    private static final class Failures implements IExecutionExceptionHandler {
        @Override
        public int handleExecutionException(Exception ex, CommandLine cmd, ParseResult parsed) {
            boolean verbose = parsed.hasMatchedOption("-v");
            PrintWriter err = cmd.getErr();
            int code;
            if (ex instanceof CommandFailure f) {
                code = f.exitCode();
            } else if (ex instanceof MftClientException m) {
                code = m.code();
            } else if (ex instanceof QueueManagerException q) {
                code = q.exitCode();
            } else if (ex instanceof ConfigurationException) {
                code = ExitCodes.CONFIGURATION;
            } else {
                code = ExitCodes.FAILED;
            }
            String message = ex.getMessage() == null ? ex.toString() : ex.getMessage();
            err.println(message);
            if (verbose) {
                ex.printStackTrace(err);
            }
            err.flush();
            return code;
        }
    }

    /** The version from the jar manifest, or "development". */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Mft.class.getPackage().getImplementationVersion();
            return new String[] {"OpenMFT " + (v == null ? "development build" : v),
                    "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"};
        }
    }
}
