package org.openmft.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;

import org.openmft.client.Acknowledgement;
import org.openmft.client.ClientSettings;
import org.openmft.client.ConnectionListener;
import org.openmft.client.ItemOutcome;
import org.openmft.client.MftClient;
import org.openmft.client.RequestDocument;
import org.openmft.client.TransferHandle;
import org.openmft.client.TransferOutcome;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code mft transfer}: create transfers from IBM's fteCreateTransfer flags (in
 * {@link CreateTransferCommand}); send transfer request documents written by hand (or by any tool
 * that writes IBM's FileTransfer.xsd) to their source agent with the client API
 * ({@link MftClient#submit(RequestDocument, org.openmft.client.ProgressListener)}); list and show transfers (in
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
            RequestDocument document;
            try {
                document = RequestDocument.fromXml(Files.readAllBytes(file));
            } catch (IllegalArgumentException e) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGCL0003E: " + file + " is " + e.getMessage()
                        + "; nothing was sent");
            }
            if (waitSeconds != null && waitSeconds < 1) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGCL0001E: -w " + waitSeconds + " is not valid: give a"
                        + " number of seconds from 1; nothing was sent");
            }
            if (document.scheduled() && waitSeconds != null) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGCL0001E: -w cannot be used with a scheduled transfer"
                        + " (<schedule>): it has no outcome to wait for now; nothing was sent");
            }
            String issued = document.managedCall() ? "BFGCL0035I: Managed call request issued. The request ID is: "
                    : "BFGCL0035I: Transfer request issued. The request ID is: ";
            ConnectionListener notices = text -> {
                System.out.flush();
                System.err.println(text);
            };
            MftClient client = MftClient.connect(ClientSettings.fromDataDirectory(global.dataDirectory().root(),
                    global.configurationOptions(configurationOptions)), notices);
            if (waitSeconds == null) {
                Acknowledgement a = client.send(document);
                System.out.println(issued + a.transferId());
                return ExitCodes.OK;
            }
            try (TransferHandle request = client.submit(document, null)) {
                String id = request.transferId();
                System.out.println(issued + id);
                long waitStarted = System.nanoTime();
                Optional<TransferOutcome> outcome = request.await(Duration.ofSeconds(waitSeconds));
                if (outcome.isEmpty()) {
                    throw CreateTransferCommand.noOutcome(id, waitStarted, request.lostConnection());
                }
                TransferOutcome r = outcome.get();
                for (ItemOutcome item : r.items()) {
                    System.out.println("  [" + item.resultCode() + "] " + item.source() + " -> " + item.destination()
                            + (item.message() == null ? "" : "  " + item.message()));
                }
                String text = String.join("; ", r.messages());
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
