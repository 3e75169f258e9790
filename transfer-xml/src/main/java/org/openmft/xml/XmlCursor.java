package org.openmft.xml;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import javax.xml.XMLConstants;
import javax.xml.stream.Location;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * A strict walk over a StAX reader for documents with element-only or text-only content. Every
 * event goes through here, so the size limits, the DOCTYPE ban and the namespace rule cannot be
 * bypassed by any one element's parsing code. Not thread-safe: one per document.
 */
final class XmlCursor {

    /** An open element and where its start tag ended. */
    record Frame(String name, int line, int column) {}

    private static final String XSI = XMLConstants.W3C_XML_SCHEMA_INSTANCE_NS_URI;

    private final XMLStreamReader reader;
    private final int maxDepth;
    private final int maxElements;
    private final int maxTextLength;
    private final Deque<Frame> open = new ArrayDeque<>();
    private Set<String> namespaces = Set.of("");
    private int elements;

    XmlCursor(XMLStreamReader reader, int maxDepth, int maxElements, int maxTextLength) {
        this.reader = reader;
        this.maxDepth = maxDepth;
        this.maxElements = maxElements;
        this.maxTextLength = maxTextLength;
    }

    /** Namespaces element names may be in from now on; the root decides. */
    void allowNamespaces(Set<String> allowed) {
        this.namespaces = Set.copyOf(allowed);
    }

    /** Moves to the root element and returns its local name. Its namespace is the caller's to judge. */
    String root() throws MalformedRequestException {
        while (true) {
            int event = next();
            if (event == XMLStreamConstants.START_ELEMENT) {
                return enter(false);
            }
            if (event == XMLStreamConstants.END_DOCUMENT) {
                throw error(null, "the document has no root element");
            }
            skipOutsideContent(event);
        }
    }

    /** Namespace URI of the element just entered, "" for none. */
    String namespace() {
        String uri = reader.getNamespaceURI();
        return uri == null ? "" : uri;
    }

    /**
     * Moves to the next child of the current element and returns its local name, or consumes the
     * current element's end tag and returns {@code null}. Text other than whitespace is refused.
     */
    String nextChild() throws MalformedRequestException {
        while (true) {
            int event = next();
            switch (event) {
                case XMLStreamConstants.START_ELEMENT:
                    return enter(true);
                case XMLStreamConstants.END_ELEMENT:
                    open.pop();
                    return null;
                case XMLStreamConstants.CHARACTERS:
                case XMLStreamConstants.CDATA:
                case XMLStreamConstants.SPACE:
                    if (!reader.isWhiteSpace()) {
                        throw error(current(), "text " + Checks.quote(reader.getText().strip())
                                + " is not allowed here; <" + current().name() + "> holds elements only");
                    }
                    break;
                default:
                    skipOutsideContent(event);
            }
        }
    }

    /** Reads the current element's text, which may not contain elements, and consumes its end tag. */
    String text() throws MalformedRequestException {
        StringBuilder text = new StringBuilder();
        Frame element = current();
        while (true) {
            int event = next();
            switch (event) {
                case XMLStreamConstants.CHARACTERS:
                case XMLStreamConstants.CDATA:
                case XMLStreamConstants.SPACE:
                    if (text.length() + reader.getTextLength() > maxTextLength) {
                        throw error(element, "text is longer than the limit of " + maxTextLength + " characters");
                    }
                    text.append(reader.getTextCharacters(), reader.getTextStart(), reader.getTextLength());
                    break;
                case XMLStreamConstants.START_ELEMENT:
                    String child = enter(true);
                    throw error(current(), "element <" + child + "> is not allowed here; <"
                            + element.name() + "> holds text only");
                case XMLStreamConstants.END_ELEMENT:
                    open.pop();
                    return text.toString();
                default:
                    skipOutsideContent(event);
            }
        }
    }

    /** Consumes the current element, which must have no child elements (whitespace is fine). */
    void empty() throws MalformedRequestException {
        Frame element = current();
        String child = nextChild();
        if (child != null) {
            throw error(current(), "element <" + child + "> is not allowed here; <" + element.name() + "> must be empty");
        }
    }

    /** After the root's end tag: reads to the end so that trailing garbage is noticed. */
    void finish() throws MalformedRequestException {
        while (hasNext()) {
            skipOutsideContent(next());
        }
    }

    /**
     * The current element's attributes by local name. Attributes in the XML Schema instance and
     * XML namespaces ({@code xsi:noNamespaceSchemaLocation}, {@code xml:lang}) are dropped; any
     * other namespaced attribute, and any name not in {@code allowed}, is refused.
     */
    Map<String, String> attributes(Set<String> allowed) throws MalformedRequestException {
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
        Map<String, String> result = new LinkedHashMap<>();
        for (int i = 0; i < reader.getAttributeCount(); i++) {
            String uri = reader.getAttributeNamespace(i);
            if (uri == null || uri.isEmpty()) {
                result.put(reader.getAttributeLocalName(i), reader.getAttributeValue(i));
            }
        }
        return result;
    }

    /** The innermost open element, or {@code null} before the root and after its end. */
    Frame current() {
        return open.peek();
    }

    MalformedRequestException error(Frame at, String reason) {
        return at == null
                ? new MalformedRequestException(reason, -1, -1, null)
                : new MalformedRequestException(reason, at.line(), at.column(), at.name());
    }

    UnsupportedRequestException unsupported(Frame at, String reason) {
        return new UnsupportedRequestException(reason, at.line(), at.column(), at.name());
    }

    /** Converts a parser failure, keeping its position and dropping the implementation's prefix. */
    static MalformedRequestException fromStreamException(XMLStreamException e, Frame within) {
        Location location = e.getLocation();
        String message = e.getMessage() == null ? e.toString() : e.getMessage();
        int marker = message.indexOf("Message: ");
        if (marker >= 0) {
            message = message.substring(marker + "Message: ".length());
        }
        // The parser's text can quote names from the document, which may be huge or hold control characters.
        message = "not well-formed XML: " + Checks.printable(message.strip(), 300);
        int line = location == null ? -1 : location.getLineNumber();
        int column = location == null ? -1 : location.getColumnNumber();
        return new MalformedRequestException(message, line, column, within == null ? null : within.name(), e);
    }

    private boolean hasNext() throws MalformedRequestException {
        try {
            return reader.hasNext();
        } catch (XMLStreamException e) {
            throw fromStreamException(e, current());
        }
    }

    private int next() throws MalformedRequestException {
        try {
            return reader.next();
        } catch (XMLStreamException e) {
            throw fromStreamException(e, current());
        }
    }

    /** Comments and processing instructions are harmless; anything that can define entities is not. */
    private void skipOutsideContent(int event) throws MalformedRequestException {
        switch (event) {
            case XMLStreamConstants.COMMENT:
            case XMLStreamConstants.PROCESSING_INSTRUCTION:
            case XMLStreamConstants.START_DOCUMENT:
            case XMLStreamConstants.END_DOCUMENT:
                return;
            case XMLStreamConstants.CHARACTERS:
            case XMLStreamConstants.SPACE:
                if (reader.isWhiteSpace()) {
                    return;
                }
                throw error(current(), "unexpected text outside the root element");
            case XMLStreamConstants.DTD:
                throw error(current(), "DOCTYPE is not allowed");
            case XMLStreamConstants.ENTITY_REFERENCE:
                throw error(current(), "entity reference &" + reader.getLocalName() + "; is not allowed");
            default:
                throw error(current(), "unexpected XML event " + event);
        }
    }

    private String enter(boolean checkNamespace) throws MalformedRequestException {
        Location location = reader.getLocation();
        String name = reader.getLocalName();
        open.push(new Frame(name, location.getLineNumber(), location.getColumnNumber()));
        if (++elements > maxElements) {
            throw error(current(), "the document has more than the limit of " + maxElements + " elements");
        }
        if (open.size() > maxDepth) {
            throw error(current(), "elements are nested deeper than the limit of " + maxDepth);
        }
        for (int i = 0; i < reader.getAttributeCount(); i++) {
            if (reader.getAttributeValue(i).length() > maxTextLength) {
                throw error(current(), "attribute " + reader.getAttributeLocalName(i)
                        + " is longer than the limit of " + maxTextLength + " characters");
            }
        }
        if (checkNamespace && !namespaces.contains(namespace())) {
            throw error(current(), "element <" + name + "> is in namespace " + Checks.quote(namespace())
                    + "; expected " + String.join(" or ", namespaces.stream()
                            .map(ns -> ns.isEmpty() ? "no namespace" : Checks.quote(ns)).sorted().toList()));
        }
        return name;
    }
}
