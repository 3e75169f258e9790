package org.openmft.xml;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import javax.xml.XMLConstants;
import javax.xml.stream.XMLStreamReader;

/**
 * The request parser's cursor: the strict walk of {@link DocumentCursor}, plus the schema's
 * namespace rule for every element below the root and checked attribute names. Not thread-safe:
 * one per document.
 */
final class XmlCursor extends DocumentCursor<MalformedRequestException> {

    private static final String XSI = XMLConstants.W3C_XML_SCHEMA_INSTANCE_NS_URI;

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

    /**
     * The current element's attributes by local name. Attributes in the XML Schema instance and
     * XML namespaces ({@code xsi:noNamespaceSchemaLocation}, {@code xml:lang}) are dropped; any
     * other namespaced attribute, and any name not in {@code allowed}, is refused.
     */
    Map<String, String> attributes(Set<String> allowed) throws MalformedRequestException {
        XMLStreamReader reader = reader();
        Map<String, String> result = new LinkedHashMap<>();
        for (int i = 0; i < reader.getAttributeCount(); i++) {
            String uri = reader.getAttributeNamespace(i);
            String name = reader.getAttributeLocalName(i);
            if (XSI.equals(uri) || XMLConstants.XML_NS_URI.equals(uri)) {
                continue;
            }
            if (uri != null && !uri.isEmpty()) {
                throw error(current(), "attribute {" + uri + "}" + name + " is not allowed");
            }
            if (!allowed.contains(name)) {
                throw error(current(), "attribute " + name + " is not allowed"
                        + (allowed.isEmpty() ? "; <" + current().name() + "> takes none"
                                : "; expected " + String.join(", ", allowed.stream().sorted().toList())));
            }
            result.put(name, reader.getAttributeValue(i));
        }
        return result;
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
