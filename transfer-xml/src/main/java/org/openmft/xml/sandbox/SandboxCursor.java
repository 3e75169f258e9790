package org.openmft.xml.sandbox;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import javax.xml.XMLConstants;
import javax.xml.stream.XMLStreamReader;

import org.openmft.xml.Checks;
import org.openmft.xml.DocumentCursor;

/**
 * The user sandboxes parser's cursor: the strict walk of {@link DocumentCursor} that the request
 * parser and the publication reader share (so the limits, the DOCTYPE rule and the entity ban hold
 * here too), with every element in IBM's namespace and checked attribute names. Not thread-safe:
 * one per document.
 */
final class SandboxCursor extends DocumentCursor<MalformedSandboxesException> {

    private static final String XSI = XMLConstants.W3C_XML_SCHEMA_INSTANCE_NS_URI;

    SandboxCursor(XMLStreamReader reader, int maxDepth, int maxElements, int maxTextLength) {
        super(reader, maxDepth, maxElements, maxTextLength, MalformedSandboxesException::new);
    }

    /**
     * The current element's attributes by local name. Attributes in the XML Schema instance and XML
     * namespaces ({@code xsi:schemaLocation}) are dropped; any other namespaced attribute, and any
     * name not in {@code allowed}, is refused: an attribute we do not understand could be a
     * restriction we would silently not apply.
     */
    Map<String, String> attributes(Set<String> allowed) throws MalformedSandboxesException {
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

    /** Every element below the root is in IBM's namespace, as in IBM's samples and schema. */
    @Override
    protected void checkChild() throws MalformedSandboxesException {
        if (!UserSandboxesDocument.NAMESPACE.equals(namespace())) {
            throw error(current(), "element <" + current().name() + "> is in "
                    + (namespace().isEmpty() ? "no namespace" : "namespace " + Checks.quote(namespace()))
                    + "; expected " + Checks.quote(UserSandboxesDocument.NAMESPACE));
        }
    }
}
