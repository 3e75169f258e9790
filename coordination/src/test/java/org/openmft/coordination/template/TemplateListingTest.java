package org.openmft.coordination.template;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.openmft.xml.TransferTemplate;

/** How templates are picked from a listing: names exactly, patterns as fteListTemplates takes them. */
class TemplateListingTest {
    private static TransferTemplate template(String id, String name) {
        return new TransferTemplate(id, name, null, null, null, null, List.of(), 0, null, Map.of(), null);
    }

    private final TemplateStore.Listing listing = new TemplateStore.Listing(List.of(template("1", "NIGHTLY"),
            template("2", "nightly"), template("3", "WEEKLY")), List.of());

    @Test
    void namesAreExactCaseIncluded() {
        assertThat(listing.named("NIGHTLY")).extracting(TransferTemplate::id).containsExactly("1");
        assertThat(listing.named("NIGHT")).isEmpty();
    }

    @Test
    void patternsMatchAnyCaseAndNoneMeansAll() {
        assertThat(listing.matching(List.of("night*"))).extracting(TransferTemplate::id).containsExactly("1", "2");
        assertThat(listing.matching(List.of("?EEKLY", "nope"))).extracting(TransferTemplate::id).containsExactly("3");
        assertThat(listing.matching(List.of())).hasSize(3);
    }

    @Test
    void theTopicIsIbms() {
        assertThat(TemplateStore.topic("baf9df73-45c2-4bb0-a085-292232ab66bc"))
                .isEqualTo("SYSTEM.FTE/Templates/baf9df73-45c2-4bb0-a085-292232ab66bc");
    }
}
