package org.openmft.client.example;

import java.time.Duration;

import org.openmft.client.ClientSettings;
import org.openmft.client.MftClient;
import org.openmft.client.MonitorSpec;
import org.openmft.client.TransferSpec;

/**
 * Creates a resource monitor that moves each {@code *.csv} file dropped into a directory to another
 * agent: {@code WatchDirectory DIRECTORY DESTINATION_DIRECTORY}, with the default configuration
 * options of the OpenMFT data directory and agents AGENT1 (which watches) and AGENT2. Compiled by
 * the build (src/example/java), so it cannot fall behind the API.
 */
public final class WatchDirectory {
    private WatchDirectory() {
    }

    /**
     * The example.
     *
     * @param args the directory watched and the destination directory
     * @throws Exception when the monitor cannot be created
     */
    public static void main(String[] args) throws Exception {
        // --8<-- [start:example]
        MftClient client = MftClient.connect(ClientSettings.fromDataDirectory(null, null));
        MonitorSpec monitor = MonitorSpec.builder()
                .agent("AGENT1").name("CSV.DROP").directory(args[0])
                .trigger("match,*.csv").pollInterval(Duration.ofSeconds(30))
                .task(TransferSpec.builder().sourceAgent("AGENT1").destinationAgent("AGENT2")
                        .file("${FilePath}", args[1] + "/${FileName}").build())
                .build();
        client.createMonitor(monitor, null);
        System.out.println("Monitor " + monitor.name() + " created on agent " + monitor.agent());
        // --8<-- [end:example]
    }
}
