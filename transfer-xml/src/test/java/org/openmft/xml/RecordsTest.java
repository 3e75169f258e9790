package org.openmft.xml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the compact constructors guarantee to code that builds records by hand. */
class RecordsTest {
    private static final ItemDestination DIRECTORY = new ItemDestination(DestinationType.DIRECTORY, "/out");
    private static final ItemDestination FILE = new ItemDestination(DestinationType.FILE, "/out/a");
    private static final TransferItem ITEM = new TransferItem(new ItemSource("/in/a"), FILE);

    @Test
    void collectionsAreCopiedAndUnmodifiable() {
        Map<String, String> metadata = new LinkedHashMap<>();
        metadata.put("b", "1");
        metadata.put("a", "2");
        List<TransferItem> items = new ArrayList<>(List.of(ITEM));
        TransferSet set = new TransferSet(0, null, metadata, items);

        metadata.put("c", "3");
        items.add(ITEM);

        assertEquals(List.of("b", "a"), List.copyOf(set.metadata().keySet()), "insertion order kept, later changes not seen");
        assertEquals(1, set.items().size());
        assertThrows(UnsupportedOperationException.class, () -> set.metadata().put("x", "y"));
        assertThrows(UnsupportedOperationException.class, () -> set.items().add(ITEM));

        List<String> supplements = new ArrayList<>(List.of("one"));
        Reply reply = new Reply("6.00", "id", 0, supplements, List.of());
        supplements.add("two");
        assertEquals(List.of("one"), reply.supplements());
        assertThrows(UnsupportedOperationException.class, () -> reply.items().add(new ItemResult("/a", null, 0, null)));
    }

    @Test
    void transferSetLimits() {
        assertThrows(IllegalArgumentException.class, () -> new TransferSet(10, null, Map.of(), List.of(ITEM)));
        assertThrows(IllegalArgumentException.class, () -> new TransferSet(-1, null, Map.of(), List.of(ITEM)));
        assertThrows(IllegalArgumentException.class, () -> new TransferSet(0, -2L, Map.of(), List.of(ITEM)));
        assertThrows(IllegalArgumentException.class, () -> new TransferSet(List.of()));
        assertThrows(IllegalArgumentException.class, () -> new TransferSet(0, null, Map.of(" ", "v"), List.of(ITEM)));
        assertThrows(NullPointerException.class, () -> new TransferSet(null));
        assertEquals(9, new TransferSet(9, -1L, Map.of("k", ""), List.of(ITEM)).priority());
    }

    @Test
    void wildcardsOnlyInTheLastComponent() {
        assertTrue(new ItemSource("/data/*.csv").hasWildcard());
        assertTrue(new ItemSource("C:\\data\\file?.txt").hasWildcard());
        assertFalse(new ItemSource("/data/file.csv").hasWildcard());
        assertThrows(IllegalArgumentException.class, () -> new ItemSource("/da*ta/file.csv"));
        assertThrows(IllegalArgumentException.class, () -> new ItemSource("C:\\d?ta\\file.csv"));
        assertThrows(IllegalArgumentException.class, () -> new ItemSource("/data/*/"));
    }

    @Test
    void wildcardOrRecursiveSourceNeedsADirectoryDestination() {
        ItemSource wildcard = new ItemSource("/data/*.csv");
        ItemSource recursive = new ItemSource(true, Disposition.LEAVE, "/data", null);

        assertThrows(IllegalArgumentException.class, () -> new TransferItem(wildcard, FILE));
        assertThrows(IllegalArgumentException.class, () -> new TransferItem(recursive, FILE));
        assertEquals(DIRECTORY, new TransferItem(wildcard, DIRECTORY).destination());
        assertEquals(DIRECTORY, new TransferItem(recursive, DIRECTORY).destination());
    }

    @Test
    void pathsAreBoundedAndClean() {
        assertEquals(4096, new ItemSource("/" + "p".repeat(4095)).path().length());
        assertThrows(IllegalArgumentException.class, () -> new ItemSource("/" + "p".repeat(4096)));
        assertThrows(IllegalArgumentException.class, () -> new ItemSource(""));
        assertThrows(IllegalArgumentException.class, () -> new ItemSource(" /a"));
        assertThrows(IllegalArgumentException.class, () -> new ItemSource("/a\nb"));
        assertThrows(IllegalArgumentException.class, () -> new ItemDestination(DestinationType.FILE, "/a\u0000"));
        assertThrows(NullPointerException.class, () -> new ItemDestination(DestinationType.FILE, null));
    }

    @Test
    void namesRefuseWhatXmlAttributesWouldMangle() {
        assertThrows(IllegalArgumentException.class, () -> new AgentRef("A\tB", null));
        assertThrows(IllegalArgumentException.class, () -> new AgentRef("", null));
        assertThrows(IllegalArgumentException.class, () -> new AgentRef("A ", null));
        assertThrows(IllegalArgumentException.class, () -> new Originator("h", "u\uD800"), "lone surrogate");
        assertThrows(IllegalArgumentException.class, () -> new TransferSet(0, null, Map.of("k", "\u0001"), List.of(ITEM)));
    }

    @Test
    void emptyOptionalNamesBecomeNull() {
        assertNull(new AgentRef("A", "").qmgr());
        assertNull(new ReplyTo("Q", "", false).qmgr());
        assertNull(new Originator("h", "u", "").mqmdUserId());
        assertNull(new ItemSource(false, Disposition.LEAVE, "/a", "").encoding());
        assertNull(new PingAgentRequest("6.00", Documents.originator(), "A", "", null).agentQMgr());
    }

    @Test
    void transferIdsAreCheckedAndLowerCased() {
        String upper = Documents.TRANSFER_ID.toUpperCase();

        assertEquals(Documents.TRANSFER_ID, new CancelRequest("6.00", Documents.originator(), upper).transferId());
        assertThrows(IllegalArgumentException.class,
                () -> new CancelRequest("6.00", Documents.originator(), Documents.TRANSFER_ID.substring(1)));
        assertThrows(IllegalArgumentException.class,
                () -> new CancelRequest("6.00", Documents.originator(), Documents.TRANSFER_ID.substring(1) + "g"));
        assertThrows(IllegalArgumentException.class,
                () -> new CancelRequest("6.00", Documents.originator(), Documents.TRANSFER_ID.substring(1) + "\u0661"),
                "non-ASCII digits are not hex");
    }

    @Test
    void resultCodesAreNotNegative() {
        assertThrows(IllegalArgumentException.class, () -> new Reply("6.00", "id", -1, List.of(), List.of()));
        assertThrows(IllegalArgumentException.class, () -> new ItemResult("/a", null, -1, null));
        assertThrows(IllegalArgumentException.class, () -> new Reply("6.00", " ", 0, List.of(), List.of()));
    }

    @Test
    void enumsReadTheirXmlSpellingsAndExplainFailures() {
        assertEquals(ChecksumMethod.MD5, ChecksumMethod.fromXml("md5"));
        assertEquals("none", ChecksumMethod.NONE.xmlValue());
        assertEquals("SHA-256", ChecksumMethod.fromXml("sha256").xmlValue());
        assertEquals("\"SHA-1\" is not valid; expected MD5, SHA-256 or none",
                assertThrows(IllegalArgumentException.class, () -> ChecksumMethod.fromXml("SHA-1")).getMessage());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Mode.fromXml("ascii"));
        assertEquals("\"ascii\" is not valid; expected binary or text", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> LineEnding.fromXml(null));
    }
}
