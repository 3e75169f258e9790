package org.openmft.xml;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import javax.xml.stream.XMLStreamReader;

/**
 * The request parser's cursor: the strict walk of {@link DocumentCursor}, plus the schema's
 * namespace rule for every element below the root and checked attribute names. Not thread-safe:
 * one per document.
 */
final class XmlCursor extends DocumentCursor<MalformedRequestException> {

    private Set<String> namespaces = Set.of("");

    XmlCursor(XMLStreamReader reader, int maxDepth, int maxElements, int maxTextLength) {
        super(reader, maxDepth, maxElements, maxTextLength, MalformedRequestException::new);
    }

    /** Namespaces element names may be in from now on; the root decides. */
    void allowNamespaces(Set<String> allowed) {
        this.namespaces = Set.copyOf(allowed);
    }

    /** Consumes the current element, which must have no child elements (whitespace is fine). */
    void empty() throws MalformedRequestException {
        Frame element = current();
        String child = nextChild();
        if (child != null) {
            throw error(current(), "element <" + child + "> is not allowed here; <" + element.name() + "> must be empty");
        }
    }

    /** Attributes without checking their names, for reply parts where IBM writes many we do not use. */
    Map<String, String> anyAttributes() {
        XMLStreamReader reader = reader();
        Map<String, String> result = new LinkedHashMap<>();
        for (int i = 0; i < reader.getAttributeCount(); i++) {
            String uri = reader.getAttributeNamespace(i);
            if (uri == null || uri.isEmpty()) {
                result.put(reader.getAttributeLocalName(i), reader.getAttributeValue(i));
            }
        }
        return result;
    }

    UnsupportedRequestException unsupported(Frame at, String reason) {
        return new UnsupportedRequestException(reason, at.line(), at.column(), at.name());
    }

    /** Elements below the root must be in one of the namespaces the root allowed. */
    @Override
    protected void checkChild() throws MalformedRequestException {
        if (!namespaces.contains(namespace())) {
            throw error(current(), "element <" + current().name() + "> is in namespace " + Checks.quote(namespace())
                    + "; expected " + String.join(" or ", namespaces.stream()
                            .map(ns -> ns.isEmpty() ? "no namespace" : Checks.quote(ns)).sorted().toList()));
        }
    }
}
