package org.openmft.xml.log;

import java.util.regex.Pattern;
import javax.xml.stream.XMLStreamReader;

import org.openmft.xml.Checks;
import org.openmft.xml.DocumentCursor;

/**
 * The publication reader's cursor: the strict walk of {@link DocumentCursor}, which the request
 * parser's cursor shares, so the limits, the DOCTYPE rule and the entity ban cannot be bypassed by
 * the code reading any one element. Unlike the request parser, the publication reader skips
 * elements it does not model, whole ({@link #skip()}), since IBM's publications carry many, and an
 * agent status document may carry the {@code Properties} DOCTYPE. Not thread-safe: one per document.
 */
final class PublicationCursor extends DocumentCursor<MalformedPublicationException> {

    /**
     * The one DOCTYPE a {@code Properties} XML document carries. Never fetched: the factory does
     * not read DTDs at all.
     */
    private static final Pattern PROPERTIES_DOCTYPE = Pattern.compile(
            "<!DOCTYPE\\s+properties\\s+SYSTEM\\s+(\"|')" + Pattern.quote(PublicationWriter.PROPERTIES_DTD) + "\\1\\s*>");

    private final boolean propertiesDoctype;

    /**
     * @param propertiesDoctype whether the {@code Properties} DOCTYPE (and only that, without an
     *     internal subset) is allowed before the root
     */
    PublicationCursor(XMLStreamReader reader, boolean propertiesDoctype, int maxDepth, int maxElements,
            int maxTextLength) {
        super(reader, maxDepth, maxElements, maxTextLength, MalformedPublicationException::new);
        this.propertiesDoctype = propertiesDoctype;
    }

    /**
     * {@inheritDoc} A child in a namespace is returned as {@code {uri}name}, which no reader asks
     * for, so it is skipped as unknown.
     */
    @Override
    public String nextChild() throws MalformedPublicationException {
        String name = super.nextChild();
        return name == null || namespace().isEmpty() ? name : "{" + namespace() + "}" + name;
    }

    /**
     * An attribute of the current element in no namespace, or {@code null}. Attributes IBM adds
     * and we do not model are simply never asked for.
     */
    String attribute(String name) {
        return reader().getAttributeValue("", name);
    }

    /** An attribute in the given namespace, or {@code null}. */
    String attribute(String namespace, String name) {
        return reader().getAttributeValue(namespace, name);
    }

    /** Accepts the {@code Properties} DOCTYPE where allowed; any other is refused. */
    @Override
    protected void doctype() throws MalformedPublicationException {
        String doctype = reader().getText();
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
            throw error(null, "DOCTYPE " + Checks.quote(text) + " is not allowed; only <!DOCTYPE properties SYSTEM \""
                    + PublicationWriter.PROPERTIES_DTD + "\"> is");
        }
    }
}
