package org.openmft.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;

import org.openmft.client.internal.CommandChannel;
import org.openmft.client.internal.Requests;
import org.openmft.xml.CommandDocument;
import org.openmft.xml.ItemResult;
import org.openmft.xml.MalformedRequestException;
import org.openmft.xml.Reply;
import org.openmft.xml.ReplyTo;
import org.openmft.xml.RequestParser;
import org.openmft.xml.ManagedCallRequest;
import org.openmft.xml.TransferRequest;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code mft transfer}: create transfers from IBM's fteCreateTransfer flags (in
 * {@link CreateTransferCommand}); send transfer request documents written by hand (or by any tool
 * that writes IBM's FileTransfer.xsd) to their source agent; list and show transfers (in
 * {@link TransferQueryCommands}).
 */
@Command(name = "transfer", mixinStandardHelpOptions = true,
        description = "Create, submit, cancel, list and show transfers.",
        subcommands = {CreateTransferCommand.class, TransferCommands.Submit.class,
                TransferQueryCommands.ListTransfers.class,
                TransferQueryCommands.ShowTransfer.class, CancelTransferCommand.class})
final class TransferCommands {
    private TransferCommands() {
    }

    @Command(name = "submit", mixinStandardHelpOptions = true,
            description = {"Send a FileTransfer.xsd request document (a managed transfer, or a managed call) to its"
                    + " agent's COMMAND queue and print the request ID.",
                    "With -w, wait for the outcome: the exit code is the transfer's result code (0 success,"
                            + " 20 partial, 40 failed, 41 cancelled, ...; a managed call's 0 or 40), 2 when the"
                            + " wait ran out."},
            footer = {"", "Example:", "  mft transfer submit nightly.xml -w 600"})
    static final class Submit implements Callable<Integer> {
        @Mixin GlobalOptions global;
        @Parameters(index = "0", paramLabel = "FILE", description = "The request document.") Path file;
        @Option(names = "-w", arity = "0..1", fallbackValue = "86400", paramLabel = "SECONDS",
                description = "Wait for the outcome, at most SECONDS (default: a day).")
        Integer waitSeconds;
        @Option(names = "-p", description = "Configuration options set.") String configurationOptions;

        @Override
        public Integer call() throws Exception {
            Mft.prepare(global);
            if (!Files.isRegularFile(file)) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGCL0002E: the request file " + file + " does not exist");
            }
            CommandDocument document;
            try {
                document = new RequestParser().parse(Files.readAllBytes(file));
            } catch (MalformedRequestException e) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGCL0003E: " + file + " is not a valid request: "
                        + e.getMessage() + "; nothing was sent");
            }
            String target;
            if (document instanceof TransferRequest request) {
                target = request.sourceAgent().agent();
            } else if (document instanceof ManagedCallRequest call) {
                target = call.agent().agent();
            } else {
                throw new CommandFailure(ExitCodes.FAILED, "BFGCL0003E: " + file + " is not a transfer request"
                        + " (<request><managedTransfer>) nor a managed call (<request><managedCall>); nothing was sent");
            }
            String coordination = global.configurationOptions(configurationOptions);
            String agent = target.toUpperCase(java.util.Locale.ROOT);
            java.util.function.Consumer<String> notices = text -> {
                System.out.flush();
                System.err.println(text);
            };
            try (CommandChannel channel = waitSeconds == null ? CommandChannel.open(global.dataDirectory(),
                    coordination) : CommandChannel.openForWait(global.dataDirectory(), coordination, notices)) {
                CommandDocument toSend = document;
                if (waitSeconds != null) {
                    // Ask for the outcome on our reply queue, keeping the document's detail setting.
                    if (document instanceof TransferRequest request) {
                        boolean detailed = request.reply() != null && request.reply().detailed();
                        toSend = new TransferRequest(request.version(), request.originator(), request.sourceAgent(),
                                request.destinationAgent(), new ReplyTo(channel.replyQueueName(), channel.qmgrName(),
                                        detailed), request.transferSet(), request.jobName(), request.schedule(),
                                request.trigger());
                    } else if (document instanceof ManagedCallRequest call) {
                        toSend = new ManagedCallRequest(call.version(), call.originator(), call.agent(),
                                new ReplyTo(channel.replyQueueName(), channel.qmgrName(), false), call.priority(),
                                call.metadata(), call.call(), call.jobName());
                    }
                }
                Reply a = Requests.acknowledged(channel, agent, toSend);
                String id = a.requestId();
                System.out.println(document instanceof ManagedCallRequest
                        ? "BFGCL0035I: Managed call request issued. The request ID is: " + id
                        : "BFGCL0035I: Transfer request issued. The request ID is: " + id);
                if (waitSeconds == null) {
                    return ExitCodes.OK;
                }
                long waitStarted = System.nanoTime();
                Optional<Reply> outcome = channel.awaitReply(id, Duration.ofSeconds(waitSeconds));
                if (outcome.isEmpty()) {
                    throw CreateTransferCommand.noOutcome(id, waitStarted, channel.lostConnection());
                }
                Reply r = outcome.get();
                for (ItemResult item : r.items()) {
                    System.out.println("  [" + item.resultCode() + "] " + item.source() + " -> " + item.destination()
                            + (item.supplement() == null ? "" : "  " + item.supplement()));
                }
                String text = String.join("; ", r.supplements());
                if (r.resultCode() == 0) {
                    System.out.println(text);
                } else {
                    System.err.println(text);
                }
                return r.resultCode();
            }
        }
    }
}
