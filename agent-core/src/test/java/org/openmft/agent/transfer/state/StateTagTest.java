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
    void aTagIsTheSameWhateverTheThreadAndWhateverCameBefore() throws Exception {
        byte[] key = new byte[StateTag.KEY_BYTES];
        key[0] = 7;
        StateTag tag = StateTag.of(key);
        // HMAC-SHA256 of each field framed by its length, made here from scratch.
        javax.crypto.Mac fresh = javax.crypto.Mac.getInstance("HmacSHA256");
        fresh.init(new javax.crypto.spec.SecretKeySpec(key, "HmacSHA256"));
        for (String field : new String[] {"line", "t.dst-results", "R\t1"}) {
            byte[] bytes = field.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            fresh.update(java.nio.ByteBuffer.allocate(4).putInt(bytes.length).array());
            fresh.update(bytes);
        }
        String expected = java.util.HexFormat.of().formatHex(fresh.doFinal());

        assertThat(tag.tag("line", "t.dst-results", "R\t1")).isEqualTo(expected);
        // Each thread reuses its own MAC: what it tagged or sealed before leaves nothing behind.
        tag.seal("secret");
        tag.tag("record", "other", null);
        assertThat(tag.tag("line", "t.dst-results", "R\t1")).isEqualTo(expected);
        String[] elsewhere = new String[1];
        Thread t = new Thread(() -> elsewhere[0] = tag.tag("line", "t.dst-results", "R\t1"));
        t.start();
        t.join(10_000);
        assertThat(elsewhere[0]).isEqualTo(expected);
    }

    @Test
    void idsAreShownEscaped() {
        assertThat(TransferIds.printable("a\"b\\c\nd\u001b[31m")).isEqualTo("\"a\\\"b\\\\c\\u000ad\\u001b[31m\"");
        assertThat(TransferIds.printable("x".repeat(300))).endsWith("... (300 characters)").hasSizeLessThan(130);
        assertThatThrownBy(() -> StateIds.require("' OR mftRole='S", "read a record"))
                .isInstanceOf(StateException.class).hasMessageContaining("\"' OR mftRole='S\"");
    }
}
