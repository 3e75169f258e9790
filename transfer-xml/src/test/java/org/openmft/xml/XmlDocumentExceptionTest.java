package org.openmft.xml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.openmft.xml.log.MalformedPublicationException;

/** Requests and publications report a refused document the same way. */
class XmlDocumentExceptionTest {

    @Test
    void theMessageSaysWhereThenWhat() {
        for (XmlDocumentException e : List.of(new MalformedRequestException("bad value", 3, 7, "item"),
                new MalformedPublicationException("bad value", 3, 7, "item"))) {
            assertEquals("line 3, column 7, element <item>: bad value", e.getMessage());
            assertEquals("bad value", e.reason());
            assertEquals(3, e.line());
            assertEquals(7, e.column());
            assertEquals("item", e.element());
        }
    }

    @Test
    void unknownPartsOfTheLocationAreLeftOut() {
        assertEquals("too big", new MalformedPublicationException("too big", -1, -1, null).getMessage());
        assertEquals("line 2: x", new MalformedRequestException("x", 2, -1, null).getMessage());
        assertEquals("element <job>: x", new MalformedPublicationException("x", -1, -1, "job").getMessage());
        assertNull(new MalformedRequestException("x", -1, -1, null).element());
    }

    @Test
    void aHugeElementNameIsShortenedWhereverTheMessageRepeatsIt() {
        // A fuzzed document once had a root element of some 1,000 characters: named in the
        // location and again in the reason, the message outgrew what a reply carries.
        String name = "request" + "v".repeat(5000);
        XmlDocumentException e = new MalformedRequestException("unknown root element <" + name + ">", 2, 66511, name);
        assertTrue(e.getMessage().length() < 2000, () -> e.getMessage().length() + " characters");
        assertTrue(e.getMessage().startsWith("line 2, column 66511, element <requestvvv"), e.getMessage());
        assertTrue(e.getMessage().contains("...(5007 characters)>: unknown root element <requestvvv"), e.getMessage());
        assertEquals(name, e.element(), "the accessor keeps the name as it was");
    }

    @Test
    void theCauseIsKept() {
        Throwable cause = new IllegalStateException("parser");
        assertSame(cause, new MalformedRequestException("x", 1, 1, null, cause).getCause());
        assertSame(cause, new MalformedPublicationException("x", 1, 1, null, cause).getCause());
        assertEquals(43, new MalformedRequestException("x", 1, 1, null).resultCode());
    }
}
