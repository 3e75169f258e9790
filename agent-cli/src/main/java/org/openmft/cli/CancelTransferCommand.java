package org.openmft.cli;

import java.time.Duration;
import java.util.Optional;
import java.util.Stack;
import java.util.concurrent.Callable;

import org.openmft.agent.config.QueueNames;
import org.openmft.xml.CancelRequest;
import org.openmft.xml.Reply;
import org.openmft.xml.ReplyTo;

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
 * manager, and reports the agent's answer.
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
    /** How long the agent has to answer, as for every request the CLI sends (IBM's result 3 after it). */
    static final Duration ACKNOWLEDGEMENT_WAIT = Duration.ofSeconds(30);
    /** IBM's result code: the transfer id is not known to the agent. */
    static final int NOT_FOUND = 26;
    /** IBM's result code: a cancel of this transfer is already in progress. */
    static final int ALREADY_CANCELLING = 27;
    /** The exit code when the agent did not acknowledge the request (IBM's result 3). */
    static final int NOT_ACKNOWLEDGED = 3;
    private static final Duration POLL = Duration.ofMillis(500);

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
        CancelRequest check;
        try {
            check = new CancelRequest("6.00", CommandChannel.originator(), transferId);
        } catch (IllegalArgumentException e) {
            throw new CommandFailure(ExitCodes.FAILED, "BFGCL0400E: '" + transferId + "' is not a transfer ID: a"
                    + " transfer ID is 48 hexadecimal characters; nothing was sent");
        }
        String id = check.transferId();
        String coordination = global.configurationOptions(configurationOptions);
        java.util.function.Consumer<String> notices = text -> {
            System.out.flush();
            System.err.println(text);
        };
        // With -w a lost connection is waited through (CommandChannel.openForWait); a cancel may be
        // put twice, so each one is put again after a reconnect when need be.
        try (CommandChannel channel = waitSeconds == null ? CommandChannel.open(global.dataDirectory(), coordination)
                : CommandChannel.openForWait(global.dataDirectory(), coordination, notices)) {
            channel.toQueueManager(agentQMgr);
            Reply first = ask(channel, name, id);
            System.out.println(first.supplements().isEmpty() ? "BFGCL0404I: Agent " + name + " accepted the cancel"
                    + " request for transfer " + id + "." : String.join("; ", first.supplements()));
            if (waitSeconds == null) {
                return ExitCodes.OK;
            }
            // The agent forgets a transfer once it has ended: asking again until it answers
            // "not known" is the wait. A repeated cancel of a transfer being cancelled is harmless.
            long deadline = System.nanoTime() + Duration.ofSeconds(waitSeconds).toNanos();
            while (deadline - System.nanoTime() > POLL.toNanos()) {
                Thread.sleep(POLL.toMillis());
                Duration left = Duration.ofNanos(Math.max(deadline - System.nanoTime(), POLL.toNanos()));
                Optional<Reply> again = channel.requestIdempotent(QueueNames.command(name), request(channel, id),
                        left.compareTo(ACKNOWLEDGEMENT_WAIT) < 0 ? left : ACKNOWLEDGEMENT_WAIT);
                if (again.isPresent() && again.get().resultCode() == NOT_FOUND) {
                    System.out.println("BFGCL0401I: Transfer " + id + " has ended.");
                    return ExitCodes.OK;
                }
            }
            throw new CommandFailure(ExitCodes.TIMED_OUT, "BFGCL0402W: Transfer " + id + " was still being"
                    + " cancelled after " + waitSeconds + " seconds" + channel.lostConnection().map(why -> " ("
                            + why + "; it may have ended meanwhile)").orElse("") + ".");
        }
    }

    /** Sends the first cancel; returns the agent's answer when it accepted, else fails with the exit code. */
    private Reply ask(CommandChannel channel, String name, String id) throws Exception {
        Optional<Reply> reply = channel.requestIdempotent(QueueNames.command(name), request(channel, id),
                ACKNOWLEDGEMENT_WAIT);
        if (reply.isEmpty()) {
            throw new CommandFailure(NOT_ACKNOWLEDGED, "BFGCL0213E: agent " + name + " did not answer the cancel"
                    + " request within " + ACKNOWLEDGEMENT_WAIT.toSeconds() + " seconds; is it running?");
        }
        Reply r = reply.get();
        int code = r.resultCode();
        if (code != 0 && code != ALREADY_CANCELLING) {
            String text = String.join("; ", r.supplements());
            if (code == NOT_FOUND) {
                throw new CommandFailure(ExitCodes.FAILED, text.isEmpty() ? "BFGCL0039E: Transfer " + id
                        + " is not known to agent " + name + "." : text);
            }
            throw new CommandFailure(ExitCodes.FAILED, "BFGCL0403E: agent " + name + " refused the cancel request"
                    + " (result code " + code + ")" + (text.isEmpty() ? "" : ": " + text));
        }
        return r;
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

    private static CancelRequest request(CommandChannel channel, String id) throws Exception {
        return new CancelRequest("6.00", CommandChannel.originator(), id,
                new ReplyTo(channel.replyQueueName(), channel.qmgrName(), false));
    }
}
