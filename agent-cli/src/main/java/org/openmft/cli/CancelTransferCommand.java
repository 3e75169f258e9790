package org.openmft.cli;

import java.time.Duration;
import java.util.Stack;
import java.util.concurrent.Callable;

import org.openmft.client.CancelOutcome;
import org.openmft.client.ClientSettings;
import org.openmft.client.ConnectionListener;
import org.openmft.client.MftClient;
import org.openmft.client.internal.Cancellation;

import picocli.CommandLine.Command;
import picocli.CommandLine.IParameterConsumer;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code mft transfer cancel} ({@code fteCancelTransfer}): puts IBM's {@code <cancel>} document
 * on the COMMAND queue of the transfer's source or destination agent through the command queue
 * manager ({@link MftClient#cancel}), and reports the agent's answer.
 *
 * <p>Exit codes: 0 when the agent cancelled the transfer or is cancelling it (result 0, or 27
 * "already being cancelled"); 1 when the agent does not know the transfer (result 26: it never
 * ran there, or it has ended) or refused the request; 3 when the agent did not answer (IBM's
 * result 3, acknowledgement timed out: is it running?); with {@code -w}, 2 when the transfer was
 * still running when the wait ran out.
 */
@Command(name = "cancel", aliases = "fteCancelTransfer", mixinStandardHelpOptions = true,
        description = {"Cancel a transfer (fteCancelTransfer). The request can go to the transfer's source or"
                + " destination agent. Files already transferred stay at the destination; a partly written file is"
                + " removed; the transfer ends with result code 41 (cancelled).",
                "Without -w the command returns once the agent has accepted the cancel; with -w it also waits"
                        + " until the transfer has ended."},
        footer = {"", "Examples:",
                "  id=414d5120514d312020202020202020204f5c8d6520002a04",
                "  fteCancelTransfer -a AGENT1 $id",
                "  mft transfer cancel -a AGENT2 -w 60 $id",
                "", "Exit codes: 0 cancelled or being cancelled, 1 unsuccessful (including an unknown transfer ID,"
                        + " result 26), 2 still running when the -w wait ran out, 3 the agent did not answer."})
final class CancelTransferCommand implements Callable<Integer> {
    @Mixin GlobalOptions global;
    @Parameters(index = "0", paramLabel = "TRANSFER_ID", description = "The transfer ID: 48 hexadecimal characters,"
            + " as fteCreateTransfer printed it.")
    String transferId;
    @Option(names = "-a", required = true, paramLabel = "AGENT",
            description = "The transfer's source or destination agent, which receives the cancel request.")
    String agent;
    @Option(names = "-m", paramLabel = "QMGR", description = "The agent's queue manager, when it is not the command"
            + " queue manager (reached through a channel).")
    String agentQMgr;
    @Option(names = "-w", arity = "0..1", paramLabel = "SECONDS", parameterConsumer = OptionalSeconds.class,
            description = "Wait until the transfer has ended, at most SECONDS (default " + OptionalSeconds.DEFAULT
                    + ").")
    Integer waitSeconds;
    @Option(names = "-p", description = "Configuration options set.") String configurationOptions;

    @Override
    public Integer call() throws Exception {
        Mft.prepare(global);
        String name = AgentCommands.validName(agent);
        if (waitSeconds != null && waitSeconds < 1) {
            throw new CommandFailure(ExitCodes.FAILED, "BFGCL0001E: -w must be at least 1 second");
        }
        String id = Cancellation.transferId(transferId);
        String coordination = global.configurationOptions(configurationOptions);
        ConnectionListener notices = text -> {
            System.out.flush();
            System.err.println(text);
        };
        // With -w a lost connection is waited through; a cancel may be put twice, so each one is put
        // again after a reconnect when need be.
        MftClient client = MftClient.connect(ClientSettings.fromDataDirectory(global.dataDirectory().root(),
                coordination), notices);
        // The agent's answer is printed at once, before the wait for the end (scripts and people watch it).
        CancelOutcome outcome = client.cancel(name, agentQMgr, id, waitSeconds == null ? null
                : Duration.ofSeconds(waitSeconds), System.out::println);
        if (waitSeconds == null) {
            return ExitCodes.OK;
        }
        if (outcome.ended()) {
            System.out.println("BFGCL0401I: Transfer " + id + " has ended.");
            return ExitCodes.OK;
        }
        throw new CommandFailure(ExitCodes.TIMED_OUT, "BFGCL0402W: Transfer " + id + " was still being"
                + " cancelled after " + waitSeconds + " seconds" + outcome.lostConnection().map(why -> " ("
                        + why + "; it may have ended meanwhile)").orElse("") + ".");
    }

    /**
     * {@code -w [SECONDS]}: takes the next argument only when it is a number, so that
     * {@code -w <transfer id>} waits the default time for that transfer instead of failing on an
     * id that is not a number.
     */
    static final class OptionalSeconds implements IParameterConsumer {
        static final int DEFAULT = 60;

        @Override
        public void consumeParameters(Stack<String> args, ArgSpec argSpec, CommandSpec commandSpec) {
            boolean number = !args.isEmpty() && args.peek().matches("[0-9]{1,9}");
            argSpec.setValue(number ? Integer.valueOf(args.pop()) : Integer.valueOf(DEFAULT));
        }
    }
}
