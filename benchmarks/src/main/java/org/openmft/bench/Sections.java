package org.openmft.bench;

import org.openmft.bench.scenarios.MonitorSuite;
import org.openmft.bench.scenarios.QueueIoSuite;
import org.openmft.bench.scenarios.channels.ChannelOptionsSuite;
import org.openmft.bench.scenarios.channels.ChunkSizeTables;
import org.openmft.bench.scenarios.channels.FileShapesOverChannels;
import org.openmft.bench.scenarios.channels.LatencySuite;
import org.openmft.bench.scenarios.fileshapes.FileShapeMatrix;
import org.openmft.bench.scenarios.filesizes.FileSizeSuite;
import org.openmft.bench.scenarios.memory.MemorySuite;
import org.openmft.bench.scenarios.micro.CompressionSuite;
import org.openmft.bench.scenarios.micro.MicroSuite;
import org.openmft.bench.scenarios.protection.ProtectionSuite;

import java.util.List;
import java.util.Optional;

/** The report sections run by {@link Section}s, in the order {@code --scenario all} runs them. */
public final class Sections {
    private Sections() {
    }

    /** Every section suite; {@code --scenario all} runs them after the transfer and coordination scenarios. */
    static List<Section> all() {
        return List.of(new FileShapeMatrix(), new FileShapesOverChannels(), new LatencySuite(), new ChunkSizeTables(), new ChannelOptionsSuite(), new FileSizeSuite(), new ProtectionSuite(),
                new CompressionSuite(), new MicroSuite(), new QueueIoSuite(), new MonitorSuite(), new MemorySuite());
    }

    /** The section called {@code name}, by {@link Section#scenario()} or by its key {@link Section#name()}. */
    public static Optional<Section> named(String name) {
        return all().stream().filter(s -> s.scenario().equals(name) || s.name().equals(name)).findFirst();
    }
}
