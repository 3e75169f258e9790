package org.openmft.xml;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.openmft.xml.DocumentCursor.Frame;

/**
 * The {@code <queue>} elements of items (queues as sources and destinations), kept out of
 * {@link RequestParser} so that the parser grows by a call only.
 */
final class QueueElements {
    private static final Set<String> DESTINATION_ATTRIBUTES = withEncoding(QueueDestination.ATTRIBUTES);
    private static final Set<String> SOURCE_ATTRIBUTES = withEncoding(QueueSource.ATTRIBUTES);

    private QueueElements() {
    }

    private static Set<String> withEncoding(Set<String> attributes) {
        Set<String> s = new HashSet<>(attributes);
        s.add("encoding");
        return Set.copyOf(s);
    }

    /**
     * {@code <queue useGroups=".." ...>QUEUE@QMGR</queue>} in a {@code <source type="queue">}.
     *
     * @param disposition the {@code <source>}'s
     */
    static ItemSource source(XmlCursor c, Disposition disposition) throws MalformedRequestException {
        Frame f = c.current();
        Map<String, String> attributes = new java.util.LinkedHashMap<>(c.attributes(SOURCE_ATTRIBUTES));
        String encoding = attributes.remove("encoding");
        String spec = RequestParser.requiredText(c);
        return RequestParser.build(c, f, () -> new ItemSource(QueueSource.of(spec, attributes), disposition,
                encoding == null ? null : encoding.strip()));
    }

    /** {@code <queue persistent=".." ...>QUEUE@QMGR</queue>} in a {@code <destination>}. */
    static ItemDestination destination(XmlCursor c) throws MalformedRequestException {
        Frame f = c.current();
        Map<String, String> attributes = new java.util.LinkedHashMap<>(c.attributes(DESTINATION_ATTRIBUTES));
        String encoding = attributes.remove("encoding");
        String spec = RequestParser.requiredText(c);
        return RequestParser.build(c, f, () -> new ItemDestination(QueueDestination.of(spec, attributes),
                encoding == null ? null : encoding.strip()));
    }
}
