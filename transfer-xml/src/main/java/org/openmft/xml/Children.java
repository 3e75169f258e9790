package org.openmft.xml;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads the children of one element as an XML Schema sequence: each expected name in order,
 * with its cardinality, and nothing else. Elements IBM defines but OpenMFT does not implement are
 * refused as unsupported wherever they appear. Not thread-safe: one per element being read.
 */
final class Children {

    /** Reads one child; called with the cursor on the child's start tag, returns after its end tag. */
    @FunctionalInterface
    interface ChildReader<T> {
        T read(XmlCursor cursor) throws MalformedRequestException;
    }

    private final XmlCursor cursor;
    private final XmlCursor.Frame parent;
    private final List<String> order;
    private final Map<String, String> unsupported;
    private String pending;
    private boolean ended;

    /**
     * @param cursor positioned on the parent's start tag
     * @param order every child name the parent may hold, in schema order (for messages)
     * @param unsupported child names IBM allows but we refuse, with the reason to give
     */
    Children(XmlCursor cursor, List<String> order, Map<String, String> unsupported) {
        this.cursor = cursor;
        this.parent = cursor.current();
        this.order = order;
        this.unsupported = unsupported;
    }

    Children(XmlCursor cursor, List<String> order) {
        this(cursor, order, Map.of());
    }

    <T> T required(String name, ChildReader<T> reader) throws MalformedRequestException {
        String next = peek();
        if (!name.equals(next)) {
            throw next == null
                    ? cursor.error(parent, "missing required element <" + name + ">")
                    : cursor.error(cursor.current(), "unexpected element <" + next + "> in <" + parent.name()
                            + ">; expected <" + name + ">");
        }
        pending = null;
        return reader.read(cursor);
    }

    <T> T optional(String name, ChildReader<T> reader) throws MalformedRequestException {
        if (!name.equals(peek())) {
            return null;
        }
        pending = null;
        return reader.read(cursor);
    }

    <T> List<T> repeated(String name, int min, ChildReader<T> reader) throws MalformedRequestException {
        List<T> result = new ArrayList<>();
        while (name.equals(peek())) {
            pending = null;
            result.add(reader.read(cursor));
        }
        if (result.size() < min) {
            String next = peek();
            throw next == null
                    ? cursor.error(parent, "missing required element <" + name + ">")
                    : cursor.error(cursor.current(), "unexpected element <" + next + "> in <" + parent.name()
                            + ">; expected <" + name + ">");
        }
        return result;
    }

    /** Requires that the parent holds nothing more, and consumes its end tag. */
    void end() throws MalformedRequestException {
        String next = peek();
        if (next != null) {
            String expected = order.isEmpty() ? "no child elements"
                    : "only <" + String.join(">, <", order) + ">" + (order.size() > 1 ? " in that order" : "");
            throw cursor.error(cursor.current(), (order.contains(next) ? "element <" + next + "> is repeated or out of order"
                    : "unexpected element <" + next + ">") + " in <" + parent.name() + ">; it may hold " + expected);
        }
    }

    private String peek() throws MalformedRequestException {
        if (pending == null && !ended) {
            pending = cursor.nextChild();
            ended = pending == null;
            if (pending != null && unsupported.containsKey(pending)) {
                throw cursor.unsupported(cursor.current(), unsupported.get(pending));
            }
        }
        return pending;
    }
}
