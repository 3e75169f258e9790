package org.openmft.xml.log;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;
import java.util.regex.Pattern;
import javax.xml.stream.Location;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * A walk over a StAX reader for publications. Like the request parser's cursor, every event goes
 * through here, so the limits, the DOCTYPE rule and the entity ban cannot be bypassed by the code
 * reading any one element. Unlike it, it lets the reader skip elements it does not model, whole,
 * since IBM's publications carry many. Not thread-safe: one per document.
 */
final class PublicationCursor {

    /** An open element and where its start tag ended. */
    record Frame(String name, int line, int column) {}

    /**
     * The one DOCTYPE a {@code Properties} XML document carries. Never fetched: the factory does
     * not read DTDs at all.
     */
    private static final Pattern PROPERTIES_DOCTYPE = Pattern.compile(
            "<!DOCTYPE\\s+properties\\s+SYSTEM\\s+(\"|')" + Pattern.quote(PublicationWriter.PROPERTIES_DTD) + "\\1\\s*>");

    private final XMLStreamReader reader;
    private final boolean propertiesDoctype;
    private final int maxDepth;
    private final int maxElements;
    private final int maxTextLength;
    private final Deque<Frame> open = new ArrayDeque<>();
    private int elements;

    /**
     * @param propertiesDoctype whether the {@code Properties} DOCTYPE (and only that, without an
     *     internal subset) is allowed before the root
     */
    PublicationCursor(XMLStreamReader reader, boolean propertiesDoctype, int maxDepth, int maxElements,
            int maxTextLength) {
        this.reader = reader;
        this.propertiesDoctype = propertiesDoctype;
        this.maxDepth = maxDepth;
        this.maxElements = maxElements;
        this.maxTextLength = maxTextLength;
    }

    /** Moves to the root element and returns its local name. */
    String root() throws MalformedPublicationException {
        while (true) {
            int event = next();
            switch (event) {
                case XMLStreamConstants.START_ELEMENT:
                    return enter();
                case XMLStreamConstants.END_DOCUMENT:
                    throw error(null, "the document has no root element");
                case XMLStreamConstants.DTD:
                    checkDoctype(reader.getText());
                    break;
                default:
                    skipOutsideContent(event);
            }
        }
    }

    /** Namespace URI of the element just entered, "" for none. */
    String namespace() {
        String uri = reader.getNamespaceURI();
        return uri == null ? "" : uri;
    }

    /**
     * Moves to the next child of the current element and returns its local name, or consumes the
     * current element's end tag and returns {@code null}. A child in a namespace is returned as
     * {@code {uri}name}, which no reader asks for, so it is skipped as unknown. Text other than
     * whitespace is refused.
     */
    String nextChild() throws MalformedPublicationException {
        while (true) {
            int event = next();
            switch (event) {
                case XMLStreamConstants.START_ELEMENT:
                    String name = enter();
                    return namespace().isEmpty() ? name : "{" + namespace() + "}" + name;
                case XMLStreamConstants.END_ELEMENT:
                    open.pop();
                    return null;
                case XMLStreamConstants.CHARACTERS:
                case XMLStreamConstants.CDATA:
                case XMLStreamConstants.SPACE:
                    if (!reader.isWhiteSpace()) {
                        throw error(current(), "text " + quote(reader.getText().strip())
                                + " is not allowed here; <" + current().name() + "> holds elements only");
                    }
                    break;
                default:
                    skipOutsideContent(event);
            }
        }
    }

    /** Reads the current element's text, which may not contain elements, and consumes its end tag. */
    String text() throws MalformedPublicationException {
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
                    String child = enter();
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

    /** Skips the current element, whatever it holds, and consumes its end tag. Limits still apply. */
    void skip() throws MalformedPublicationException {
        int depth = open.size();
        while (open.size() >= depth) {
            int event = next();
            switch (event) {
                case XMLStreamConstants.START_ELEMENT:
                    enter();
                    break;
                case XMLStreamConstants.END_ELEMENT:
                    open.pop();
                    break;
                case XMLStreamConstants.CHARACTERS:
                case XMLStreamConstants.CDATA:
                case XMLStreamConstants.SPACE:
                    break;
                default:
                    skipOutsideContent(event);
            }
        }
    }

    /** After the root's end tag: reads to the end so that trailing garbage is noticed. */
    void finish() throws MalformedPublicationException {
        while (hasNext()) {
            int event = next();
            if (event == XMLStreamConstants.START_ELEMENT) {
                throw error(null, "there is more than one root element");
            }
            skipOutsideContent(event);
        }
    }

    /**
     * An attribute of the current element in no namespace, or {@code null}. Attributes IBM adds
     * and we do not model are simply never asked for.
     */
    String attribute(String name) {
        return reader.getAttributeValue("", name);
    }

    /** An attribute in the given namespace, or {@code null}. */
    String attribute(String namespace, String name) {
        return reader.getAttributeValue(namespace, name);
    }

    /** The innermost open element, or {@code null} before the root and after its end. */
    Frame current() {
        return open.peek();
    }

    MalformedPublicationException error(Frame at, String reason) {
        return at == null
                ? new MalformedPublicationException(reason, -1, -1, null)
                : new MalformedPublicationException(reason, at.line(), at.column(), at.name());
    }

    /** Converts a parser failure, keeping its position and dropping the implementation's prefix. */
    static MalformedPublicationException fromStreamException(XMLStreamException e, Frame within) {
        Location location = e.getLocation();
        String message = e.getMessage() == null ? e.toString() : e.getMessage();
        int marker = message.indexOf("Message: ");
        if (marker >= 0) {
            message = message.substring(marker + "Message: ".length());
        }
        // The parser's text can quote names from the document, which may be huge or hold control characters.
        message = "not well-formed XML: " + printable(message.strip(), 300);
        int line = location == null ? -1 : location.getLineNumber();
        int column = location == null ? -1 : location.getColumnNumber();
        return new MalformedPublicationException(message, line, column, within == null ? null : within.name(), e);
    }

    /**
     * Quotes a value for an error message. Values come from untrusted documents and end up in logs,
     * so they are shortened and their control characters made visible.
     */
    static String quote(String value) {
        return value == null ? "null" : '"' + printable(value, 80) + '"';
    }

    /** {@code value} shortened to about {@code max} characters, control characters made visible. */
    static String printable(String value, int max) {
        StringBuilder out = new StringBuilder();
        int limit = Math.min(value.length(), max);
        for (int i = 0; i < limit; i++) {
            char ch = value.charAt(i);
            if (Character.isISOControl(ch)) {
                out.append(String.format(Locale.ROOT, "\\u%04x", (int) ch));
            } else {
                out.append(ch);
            }
        }
        if (limit < value.length()) {
            out.append("...(").append(value.length()).append(" characters)");
        }
        return out.toString();
    }

    private void checkDoctype(String doctype) throws MalformedPublicationException {
        String text = doctype == null ? "" : doctype.strip();
        if (!propertiesDoctype) {
            throw error(null, "DOCTYPE is not allowed");
        }
        // The JDK's reader may garble the text of a DOCTYPE with an internal subset (when its buffer
        // moves on while scanning it), but always ends it with "]>". The pattern below can never match
        // such text either; this check is for the message.
        if (text.indexOf('[') >= 0 || text.endsWith("]>")) {
            throw error(null, "DOCTYPE with an internal subset is not allowed");
        }
        if (!PROPERTIES_DOCTYPE.matcher(text).matches()) {
            throw error(null, "DOCTYPE " + quote(text) + " is not allowed; only <!DOCTYPE properties SYSTEM \""
                    + PublicationWriter.PROPERTIES_DTD + "\"> is");
        }
    }

    private boolean hasNext() throws MalformedPublicationException {
        try {
            return reader.hasNext();
        } catch (XMLStreamException e) {
            throw fromStreamException(e, current());
        }
    }

    private int next() throws MalformedPublicationException {
        try {
            return reader.next();
        } catch (XMLStreamException e) {
            throw fromStreamException(e, current());
        }
    }

    /** Comments and processing instructions are harmless; anything that can define entities is not. */
    private void skipOutsideContent(int event) throws MalformedPublicationException {
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
                throw error(current(), "DOCTYPE is not allowed here");
            case XMLStreamConstants.ENTITY_REFERENCE:
                throw error(current(), "entity reference &" + reader.getLocalName() + "; is not allowed");
            default:
                throw error(current(), "unexpected XML event " + event);
        }
    }

    private String enter() throws MalformedPublicationException {
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
        return name;
    }
}
