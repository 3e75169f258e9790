package org.openmft.bench;

import java.util.List;
import java.util.Optional;

/** The report sections run by {@link Section}s, in the order {@code --scenario all} runs them. */
final class Sections {
    private Sections() {
    }

    /** Every section suite; {@code --scenario all} runs them after the transfer and coordination scenarios. */
    static List<Section> all() {
        return List.of(new Seed000Matrix(), new Seed000Channels(), new LatencySuite(), new Seed002Suite(), new ChannelOptionsSuite(), new Seed003Suite(), new ProtectionSuite(),
                new CompressionSuite(), new MicroSuite(), new QueueIoSuite(), new MonitorSuite());
    }

    /** The section called {@code name}, if there is one. */
    static Optional<Section> named(String name) {
        return all().stream().filter(s -> s.name().equals(name)).findFirst();
    }
}
