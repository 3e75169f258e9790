package org.openmft.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The builder checks everything and names what is wrong; a built request reads back from its XML. */
class TransferSpecTest {
    private static TransferSpec.Builder valid() {
        return TransferSpec.builder().sourceAgent("agent1").destinationAgent("AGENT2")
                .file("/data/out/a.csv", "/data/in/a.csv");
    }

    @Test
    void aValidRequestCarriesEverySettingIntoIbmsDocument() {
        TransferSpec spec = valid().toDirectory("/data/out/*.txt", "/data/in").mode(TransferMode.TEXT)
                .checksum(Checksum.SHA_256).ifExists(IfExists.OVERWRITE).sourceDisposition(SourceDisposition.DELETE)
                .priority(9).jobName("NIGHTLY").metadata("batch", "42").build();
        assertThat(spec.sourceAgent()).isEqualTo("AGENT1");
        assertThat(spec.destinationAgent()).isEqualTo("AGENT2");
        String xml = spec.toXml();
        assertThat(xml).contains("<managedTransfer>", "SHA-256", "overwrite", "delete", "NIGHTLY", "batch",
                "/data/out/*.txt", "type=\"directory\"");
        assertThat(TransferSpec.fromXml(xml).toXml()).isEqualTo(xml);
    }

    @Test
    void missingAgentsAreNamed() {
        assertThatThrownBy(() -> TransferSpec.builder().destinationAgent("B").file("/a", "/b").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage("sourceAgent is required");
        assertThatThrownBy(() -> TransferSpec.builder().sourceAgent("A").file("/a", "/b").build())
                .hasMessage("destinationAgent is required");
    }

    @Test
    void aBadAgentNameIsNamed() {
        assertThatThrownBy(() -> valid().sourceAgent("BAD NAME").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("sourceAgent: ");
    }

    @Test
    void aRequestWithoutItemsIsRefused() {
        assertThatThrownBy(() -> TransferSpec.builder().sourceAgent("A").destinationAgent("B").build())
                .hasMessageStartingWith("no item: add at least one");
    }

    @Test
    void emptyPathsAreRefused() {
        assertThatThrownBy(() -> valid().file("", "/x").build()).hasMessageContaining("source is empty");
        assertThatThrownBy(() -> valid().file("/x", " ").build())
                .hasMessage("item '/x': the destination file is empty");
    }

    @Test
    void aWildcardCannotGoToOneFile() {
        assertThatThrownBy(() -> valid().file("/data/*.csv", "/in/one.csv").build())
                .hasMessageStartingWith("item '/data/*.csv': ").hasMessageContaining("directory");
    }

    @Test
    void priorityOutsideZeroToNineIsRefused() {
        assertThatThrownBy(() -> valid().priority(10).build()).hasMessage("priority 10 is out of range 0-9");
        assertThatThrownBy(() -> valid().priority(-1).build()).hasMessage("priority -1 is out of range 0-9");
    }

    @Test
    void metadataKeysAreUniqueAndNotEmpty() {
        assertThatThrownBy(() -> valid().metadata("k", "1").metadata("k", "2"))
                .hasMessage("metadata key 'k' is given twice");
        assertThatThrownBy(() -> valid().metadata("", "1").build()).hasMessageStartingWith("metadata: ");
    }

    @Test
    void aDocumentThatIsNotATransferRequestIsRefused() {
        assertThatThrownBy(() -> TransferSpec.fromXml("<hello/>"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("not a valid transfer request");
    }
}
