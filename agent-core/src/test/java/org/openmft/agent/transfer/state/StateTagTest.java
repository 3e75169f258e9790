package org.openmft.agent.transfer.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.transfer.protocol.TransferIds;

/**
 * The state key: made at first use owner-only, the same at every later open, refused when others
 * may read it; tags that tell one content, kind and key from another.
 */
class StateTagTest {
    @TempDir
    Path dir;

    @Test
    void theKeyIsMadeOnceOwnerOnlyAndTheSameKeyIsReadBack() throws Exception {
        Path state = dir.resolve("agent/state");
        StateTag first = StateTag.open(state);

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(state))).isEqualTo("rwx------");
        Path key = state.resolve(StateTag.KEY_FILE);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(key))).isEqualTo("rw-------");
        assertThat(Files.size(key)).isEqualTo(StateTag.KEY_BYTES);
        assertThat(first.adopting()).as("state older than the key is to be adopted").isTrue();

        first.adopted();
        StateTag again = StateTag.open(state);
        assertThat(again.tag("record", "a", "b")).isEqualTo(first.tag("record", "a", "b"));
        assertThat(again.adopting()).as("adopted once, never again").isFalse();
        assertThat(StateTag.open(dir.resolve("other")).tag("record", "a", "b")).as("another agent's key")
                .isNotEqualTo(first.tag("record", "a", "b"));
    }

    @Test
    void aKeyOthersMayReadIsRefusedNamingTheRemedy() throws Exception {
        StateTag.open(dir);
        Path key = dir.resolve(StateTag.KEY_FILE);
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-r--r--"));

        assertThatThrownBy(() -> StateTag.open(dir)).isInstanceOf(StateException.class)
                .hasMessageContaining(key.toString()).hasMessageContaining("other users")
                .hasMessageContaining("rw-r--r--").hasMessageContaining("chmod 600");
    }

    @Test
    void aDamagedKeyIsRefused() throws Exception {
        StateTag.open(dir);
        Files.write(dir.resolve(StateTag.KEY_FILE), new byte[5]);

        assertThatThrownBy(() -> StateTag.open(dir)).isInstanceOf(StateException.class)
                .hasMessageContaining("damaged");
    }

    @Test
    void aTagFitsOnlyItsOwnFieldsKindAndKey() {
        StateTag tag = StateTag.of(new byte[StateTag.KEY_BYTES]);
        String right = tag.tag("record", "SYSTEM.FTE.STATE.A", "mftFinalPath", "String:/out/f");

        assertThat(StateTag.matches(right, tag.tag("record", "SYSTEM.FTE.STATE.A", "mftFinalPath",
                "String:/out/f"))).isTrue();
        assertThat(StateTag.matches(right, tag.tag("record", "SYSTEM.FTE.STATE.A", "mftFinalPath",
                "String:/out/g"))).as("one byte changed").isFalse();
        assertThat(StateTag.matches(right, tag.tag("line", "SYSTEM.FTE.STATE.A", "mftFinalPath",
                "String:/out/f"))).as("another kind").isFalse();
        assertThat(StateTag.matches(right, tag.tag("record", "SYSTEM.FTE.STATE.A", "mftFinalPathString:",
                "/out/f"))).as("fields framed: moving a boundary changes the tag").isFalse();
        byte[] other = new byte[StateTag.KEY_BYTES];
        other[31] = 1;
        assertThat(StateTag.matches(right, StateTag.of(other).tag("record", "SYSTEM.FTE.STATE.A", "mftFinalPath",
                "String:/out/f"))).as("another key").isFalse();
        assertThat(StateTag.matches(right, null)).isFalse();
        assertThat(StateTag.matches(right, "")).isFalse();
    }

    @Test
    void idsAreShownEscaped() {
        assertThat(TransferIds.printable("a\"b\\c\nd\u001b[31m")).isEqualTo("\"a\\\"b\\\\c\\u000ad\\u001b[31m\"");
        assertThat(TransferIds.printable("x".repeat(300))).endsWith("... (300 characters)").hasSizeLessThan(130);
        assertThatThrownBy(() -> StateIds.require("' OR mftRole='S", "read a record"))
                .isInstanceOf(StateException.class).hasMessageContaining("\"' OR mftRole='S\"");
    }
}
