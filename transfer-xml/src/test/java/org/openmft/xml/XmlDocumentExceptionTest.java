package org.openmft.xml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

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
    void theCauseIsKept() {
        Throwable cause = new IllegalStateException("parser");
        assertSame(cause, new MalformedRequestException("x", 1, 1, null, cause).getCause());
        assertSame(cause, new MalformedPublicationException("x", 1, 1, null, cause).getCause());
        assertEquals(43, new MalformedRequestException("x", 1, 1, null).resultCode());
    }
}
