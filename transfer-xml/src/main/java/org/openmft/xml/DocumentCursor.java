package org.openmft.xml;

import java.io.ByteArrayInputStream;
import java.io.StringReader;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import javax.xml.XMLConstants;
import javax.xml.stream.Location;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * The hardened reading that the request parser and the publication reader share: how an
 * untrusted document is opened ({@link #read}) and a strict walk over its StAX events for documents
 * with element-only or text-only content. Every event goes through here, so the size limits, the
 * DOCTYPE rule and the entity ban cannot be bypassed by any one element's parsing code. Not
 * thread-safe: one per document.
 *
 * <p>Hardening: the JDK's own StAX parser is used (never one found on the class path), with DTDs,
 * external entities and entity replacement switched off and a resolver that refuses everything.
 * A DOCTYPE is refused before anything in it could be resolved (a subclass may accept a specific
 * one, see {@link #doctype()}); entity references other than the predefined ones are refused.
 * Limits: document size in bytes (UTF-8 for text), element nesting depth, number of elements and
 * length of any text or attribute value.
 *
 * <p><b>Internal to transfer-xml</b>: public only so that {@code org.openmft.xml.log} can build on
 * it. It is not part of the API and may change in any release.
 *
 * @param <E> the exception a document's problems are reported with
 */
public abstract class DocumentCursor<E extends XmlDocumentException> {

    /**
     * An open element and where its start tag ended.
     *
     * @param name local name
     * @param line 1-based line
     * @param column 1-based column
     */
    public record Frame(String name, int line, int column) {}

    /**
     * Makes the exception problems are reported with; the exceptions' five-argument constructors fit.
     *
     * @param <E> the exception
     */
    @FunctionalInterface
    public interface Errors<E extends XmlDocumentException> {
        /**
         * @param reason what is wrong, without the location
         * @param line 1-based line, or -1 when unknown
         * @param column 1-based column, or -1 when unknown
         * @param element local name of the element at fault, or {@code null}
         * @param cause the underlying failure, or {@code null}
         * @return the exception
         */
        E create(String reason, int line, int column, String element, Throwable cause);
    }

    /**
     * Reads one document, or one part of it, from a cursor.
     *
     * @param <C> the cursor
     * @param <T> what is read
     * @param <E> the exception a problem is reported with
     */
    @FunctionalInterface
    public interface DocumentReader<C, T, E extends Exception> {
        /**
         * @param cursor the cursor, on the element to read (or before the root, for a whole document)
         * @return what was read
         * @throws E if the document is not what it should be
         */
        T read(C cursor) throws E;
    }

    private final XMLStreamReader reader;
    private final int maxDepth;
    private final int maxElements;
    private final int maxTextLength;
    private final Errors<E> errors;
    private final Deque<Frame> open = new ArrayDeque<>();
    private int elements;

    /**
     * @param reader the document, before its first event
     * @param maxDepth deepest element nesting accepted, the root being 1
     * @param maxElements most elements accepted
     * @param maxTextLength longest text or attribute value accepted, in characters
     * @param errors makes the exceptions
     */
    protected DocumentCursor(XMLStreamReader reader, int maxDepth, int maxElements, int maxTextLength,
            Errors<E> errors) {
        this.reader = reader;
        this.maxDepth = maxDepth;
        this.maxElements = maxElements;
        this.maxTextLength = maxTextLength;
        this.errors = errors;
    }

    /**
     * Reads a whole document from bytes or text: refuses {@code null} and documents over the size
     * limit before parsing, opens it with the hardened parser, runs {@code body} on a new cursor and
     * then reads to the end so that trailing garbage is noticed. Nothing but {@code E} leaves here:
     * a parser failure becomes one with its position, anything unchecked one that says so.
     *
     * @param <C> the cursor
     * @param <T> what is read
     * @param <E> the exception problems are reported with
     * @param bytes the document as bytes, its encoding from its declaration or byte-order mark; or {@code null}
     * @param text the document as text, any encoding in its declaration ignored; or {@code null} when
     *     {@code bytes} are given (both {@code null}: there is no document)
     * @param maxDocumentBytes largest document accepted, in bytes (UTF-8 for text)
     * @param errors makes the exceptions
     * @param cursor makes the cursor over the opened reader
     * @param body reads the document, starting before the root
     * @return what {@code body} read
     * @throws E if the document is missing, too large, not well-formed or refused by {@code body}
     */
    public static <C extends DocumentCursor<E>, T, E extends XmlDocumentException> T read(byte[] bytes, String text,
            int maxDocumentBytes, Errors<E> errors, Function<XMLStreamReader, C> cursor,
            DocumentReader<? super C, T, E> body) throws E {
        if (bytes == null && text == null) {
            throw errors.create("there is no document (null)", -1, -1, null, null);
        }
        long size = bytes != null ? bytes.length : utf8Length(text, maxDocumentBytes);
        if (size > maxDocumentBytes) {
            throw errors.create("the document is " + size + " bytes long; the limit is " + maxDocumentBytes + " bytes",
                    -1, -1, null, null);
        }
        XMLStreamReader reader = null;
        try {
            XMLInputFactory factory = newFactory();
            if (bytes != null) {
                reader = factory.createXMLStreamReader(new ByteArrayInputStream(bytes));
            } else {
                // A reader never sees a byte-order mark, but text decoded by hand sometimes keeps one.
                String content = text.startsWith("\uFEFF") ? text.substring(1) : text;
                reader = factory.createXMLStreamReader(new StringReader(content));
            }
            C walk = cursor.apply(reader);
            T result = body.read(walk);
            walk.finish();
            return result;
        } catch (XMLStreamException e) {
            throw fromStreamException(e, null, errors);
        } catch (java.util.MissingResourceException e) {
            // The JDK's parser cannot word some of its own errors (an invalid character in a DOCTYPE's
            // internal subset: its message key InvalidCharInDTD is missing from its resources), and
            // throws this instead; the key says what is wrong.
            javax.xml.stream.Location at = reader == null ? null : reader.getLocation();
            String key = e.getKey() == null || e.getKey().isEmpty() ? e.getMessage() : e.getKey();
            throw errors.create("the document is not well-formed XML: the XML parser stopped at " + key,
                    at == null ? -1 : at.getLineNumber(), at == null ? -1 : at.getColumnNumber(), null, null);
        } catch (RuntimeException e) {
            // The promise is that callers only ever handle E: a parser implementation throwing
            // something unchecked on odd input must not escape as a crash.
            throw errors.create("cannot read the document: " + e, -1, -1, null, e);
        } finally {
            if (reader != null) {
                try {
                    reader.close();
                } catch (XMLStreamException ignored) {
                    // Closing an in-memory source cannot lose anything.
                }
            }
        }
    }

    /**
     * Moves to the root element and returns its local name. Its namespace is the caller's to judge.
     *
     * @return the root's local name
     * @throws E if there is none, or anything before it is refused
     */
    public String root() throws E {
        while (true) {
            int event = next();
            switch (event) {
                case XMLStreamConstants.START_ELEMENT:
                    return enter(false);
                case XMLStreamConstants.END_DOCUMENT:
                    throw error(null, "the document has no root element");
                case XMLStreamConstants.DTD:
                    doctype();
                    break;
                default:
                    skipOutsideContent(event);
            }
        }
    }

    /**
     * Namespace URI of the element just entered.
     *
     * @return the URI, "" for none
     */
    public String namespace() {
        String uri = reader.getNamespaceURI();
        return uri == null ? "" : uri;
    }

    /**
     * Moves to the next child of the current element and returns its local name, or consumes the
     * current element's end tag and returns {@code null}. Text other than whitespace is refused.
     *
     * @return the child's local name, or {@code null} after the current element's end
     * @throws E if the document breaks a rule or a limit
     */
    public String nextChild() throws E {
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

    /**
     * Reads the current element's text, which may not contain elements, and consumes its end tag.
     *
     * @return the text as written, not stripped
     * @throws E if the element holds an element, or the text is over the limit
     */
    public String text() throws E {
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

    /**
     * Skips the current element, whatever it holds, and consumes its end tag. Limits still apply.
     *
     * @throws E if the document breaks a rule or a limit
     */
    public void skip() throws E {
        int depth = open.size();
        while (open.size() >= depth) {
            int event = next();
            switch (event) {
                case XMLStreamConstants.START_ELEMENT:
                    enter(false);
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

    /**
     * Copies the current element, whatever it holds, to {@code out} as a standalone fragment
     * (namespaces it uses are declared on it when {@code out} repairs namespaces) and consumes its
     * end tag. The limits apply as in {@link #skip()}; comments and processing instructions are
     * dropped.
     *
     * @param out where the element goes
     * @throws E if the document breaks a rule or a limit
     * @throws XMLStreamException if {@code out} fails
     */
    public void copy(javax.xml.stream.XMLStreamWriter out) throws E, XMLStreamException {
        int depth = open.size();
        writeStart(out);
        while (open.size() >= depth) {
            int event = next();
            switch (event) {
                case XMLStreamConstants.START_ELEMENT:
                    enter(false);
                    writeStart(out);
                    break;
                case XMLStreamConstants.END_ELEMENT:
                    open.pop();
                    out.writeEndElement();
                    break;
                case XMLStreamConstants.CHARACTERS:
                case XMLStreamConstants.CDATA:
                case XMLStreamConstants.SPACE:
                    out.writeCharacters(reader.getTextCharacters(), reader.getTextStart(), reader.getTextLength());
                    break;
                default:
                    skipOutsideContent(event);
            }
        }
    }

    private void writeStart(javax.xml.stream.XMLStreamWriter out) throws XMLStreamException {
        String prefix = reader.getPrefix() == null ? "" : reader.getPrefix();
        out.writeStartElement(prefix, reader.getLocalName(), namespace());
        for (int i = 0; i < reader.getAttributeCount(); i++) {
            String uri = reader.getAttributeNamespace(i);
            String attributePrefix = reader.getAttributePrefix(i);
            out.writeAttribute(attributePrefix == null ? "" : attributePrefix, uri == null ? "" : uri,
                    reader.getAttributeLocalName(i), reader.getAttributeValue(i));
        }
    }

    /**
     * After the root's end tag: reads to the end so that trailing garbage is noticed.
     *
     * @throws E if anything but comments, processing instructions and whitespace follows
     */
    public void finish() throws E {
        while (hasNext()) {
            int event = next();
            if (event == XMLStreamConstants.START_ELEMENT) {
                throw error(null, "there is more than one root element");
            }
            skipOutsideContent(event);
        }
    }

    /**
     * The innermost open element.
     *
     * @return it, or {@code null} before the root and after its end
     */
    public Frame current() {
        return open.peek();
    }

    /**
     * An exception to throw for a problem at an element.
     *
     * @param at the element at fault, or {@code null} for the document as a whole
     * @param reason what is wrong
     * @return the exception, located at {@code at}
     */
    public E error(Frame at, String reason) {
        return at == null
                ? errors.create(reason, -1, -1, null, null)
                : errors.create(reason, at.line(), at.column(), at.name(), null);
    }

    /**
     * The current element's attributes by local name. Attributes in the XML Schema instance and
     * XML namespaces ({@code xsi:schemaLocation}, {@code xml:lang}) are dropped; any other
     * namespaced attribute, and any name not in {@code allowed}, is refused: an attribute we do not
     * understand could be a setting or a restriction we would silently not apply.
     *
     * @param allowed the local names this element may have
     * @return the attributes, in document order
     * @throws E naming the first attribute refused
     */
    public Map<String, String> attributes(Set<String> allowed) throws E {
        Map<String, String> result = new LinkedHashMap<>();
        for (int i = 0; i < reader.getAttributeCount(); i++) {
            String uri = reader.getAttributeNamespace(i);
            String name = reader.getAttributeLocalName(i);
            if (XMLConstants.W3C_XML_SCHEMA_INSTANCE_NS_URI.equals(uri) || XMLConstants.XML_NS_URI.equals(uri)) {
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

    /**
     * The StAX reader, for a subclass to read the current element's attributes. Moving it on
     * directly would bypass the limits.
     *
     * @return the reader
     */
    protected XMLStreamReader reader() {
        return reader;
    }

    /**
     * Called for a DOCTYPE before the root. Refuses it; a subclass may accept one it knows to be
     * harmless (DTDs are never read, whatever this does).
     *
     * @throws E always, unless overridden
     */
    protected void doctype() throws E {
        throw error(null, "DOCTYPE is not allowed");
    }

    /**
     * Called for every element met by {@link #nextChild()} or {@link #text()}, once it is
     * {@link #current()} and within the limits; a subclass may refuse it, say for its namespace.
     * Does nothing unless overridden.
     *
     * @throws E if the element is refused
     */
    protected void checkChild() throws E {}

    /**
     * A fresh factory per document: XMLInputFactory is not specified as thread-safe, and making
     * one is cheap next to parsing. {@code newDefaultFactory} pins the JDK implementation, whose
     * behaviour the hardening below has been tested against.
     */
    private static XMLInputFactory newFactory() {
        XMLInputFactory factory = XMLInputFactory.newDefaultFactory();
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, Boolean.FALSE);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, Boolean.FALSE);
        factory.setProperty(XMLInputFactory.IS_REPLACING_ENTITY_REFERENCES, Boolean.FALSE);
        factory.setProperty(XMLInputFactory.IS_COALESCING, Boolean.TRUE);
        factory.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        factory.setXMLResolver((publicId, systemId, baseUri, namespace) -> {
            throw new XMLStreamException("external resources are not allowed: " + Checks.quote(systemId));
        });
        return factory;
    }

    /** UTF-8 length of a string, stopping once it is clearly over the limit. */
    private static long utf8Length(String text, int limit) {
        long bytes = 0;
        for (int i = 0; i < text.length() && bytes <= limit; i++) {
            char ch = text.charAt(i);
            if (ch < 0x80) {
                bytes += 1;
            } else if (ch < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(ch)) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    /** Converts a parser failure, keeping its position and dropping the implementation's prefix. */
    private static <E extends XmlDocumentException> E fromStreamException(XMLStreamException e, Frame within,
            Errors<E> errors) {
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
        return errors.create(message, line, column, within == null ? null : within.name(), e);
    }

    private boolean hasNext() throws E {
        try {
            return reader.hasNext();
        } catch (XMLStreamException e) {
            throw fromStreamException(e, current(), errors);
        }
    }

    private int next() throws E {
        try {
            return reader.next();
        } catch (XMLStreamException e) {
            throw fromStreamException(e, current(), errors);
        }
    }

    /** Comments and processing instructions are harmless; anything that can define entities is not. */
    private void skipOutsideContent(int event) throws E {
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

    /**
     * Opens the element at a start tag: checks the limits, then, for a child met by
     * {@link #nextChild()} or {@link #text()}, {@link #checkChild()}.
     */
    private String enter(boolean child) throws E {
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
        if (child) {
            checkChild();
        }
        return name;
    }
}
