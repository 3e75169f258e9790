package org.openmft.client.example;

import java.time.Duration;

import org.openmft.client.ClientSettings;
import org.openmft.client.MftClient;
import org.openmft.client.TransferHandle;
import org.openmft.client.TransferOutcome;
import org.openmft.client.TransferSpec;

/**
 * Submits one transfer and waits for it: {@code SubmitAndAwait SOURCE_FILE DESTINATION_FILE}, with
 * the default configuration options of the OpenMFT data directory ($OPENMFT_DATA or ~/.openmft) and
 * agents AGENT1 and AGENT2. Compiled by the build (src/example/java), so it cannot fall behind the API.
 */
public final class SubmitAndAwait {
    private SubmitAndAwait() {
    }

    /**
     * The example.
     *
     * @param args the source file and the destination file
     * @throws Exception when the transfer cannot be submitted
     */
    public static void main(String[] args) throws Exception {
        // --8<-- [start:example]
        MftClient client = MftClient.connect(ClientSettings.fromDataDirectory(null, null));
        TransferSpec spec = TransferSpec.builder()
                .sourceAgent("AGENT1").destinationAgent("AGENT2")
                .file(args[0], args[1])
                .build();
        TransferOutcome outcome;
        try (TransferHandle transfer = client.submit(spec, p -> System.out.println(p.bytes() + " bytes"))) {
            outcome = transfer.await(Duration.ofMinutes(10)).orElseThrow();
        }
        System.out.println("Transfer " + outcome.transferId() + " ended with result " + outcome.resultCode());
        // --8<-- [end:example]
    }
}
