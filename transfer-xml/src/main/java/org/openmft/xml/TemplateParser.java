package org.openmft.xml;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.openmft.xml.DocumentCursor.Frame;

/**
 * Reads transfer templates ({@code <transferTemplate>}, as {@link TemplateWriter} writes them and
 * IBM publishes them on {@code SYSTEM.FTE/Templates/<id>}) from untrusted input: a retained
 * publication anyone with publish authority on the coordination queue manager could have made.
 * The hardening and limits are {@link RequestParser}'s (same cursor: no DOCTYPE, no entities,
 * size, depth, element and text limits, strict element order, unknown elements and attributes
 * refused), and each {@code <item>} is read by the request parser's own item rules, so a template
 * holds nothing a request could not. Immutable and thread-safe.
 */
public final class TemplateParser {

    private final RequestParser parser;

    /** A parser with {@link RequestParser}'s default limits. */
    public TemplateParser() {
        this(new RequestParser());
    }

    /**
     * A parser with the limits of a request parser.
     *
     * @param limits the request parser whose limits apply
     */
    public TemplateParser(RequestParser limits) {
        this.parser = limits;
    }

    /**
     * Reads a template from the bytes of a publication or file.
     *
     * @param xml the document; its encoding from its declaration or byte-order mark
     * @return the template
     * @throws MalformedRequestException if it is not a valid template, including null
     */
    public TransferTemplate parse(byte[] xml) throws MalformedRequestException {
        return DocumentCursor.read(xml, null, parser.maxDocumentBytes(), MalformedRequestException::new,
                this::cursor, this::template);
    }

    /**
     * Reads a template from text.
     *
     * @param xml the document
     * @return the template
     * @throws MalformedRequestException if it is not a valid template, including null
     */
    public TransferTemplate parse(String xml) throws MalformedRequestException {
        return DocumentCursor.read(null, xml, parser.maxDocumentBytes(), MalformedRequestException::new,
                this::cursor, this::template);
    }

    private XmlCursor cursor(javax.xml.stream.XMLStreamReader reader) {
        return new XmlCursor(reader, parser.maxDepth(), parser.maxElements(), parser.maxTextLength());
    }

    private TransferTemplate template(XmlCursor c) throws MalformedRequestException {
        String root = c.root();
        Frame f = c.current();
        if (!root.equals("transferTemplate")) {
            throw c.error(f, "unknown root element <" + root + ">; expected <transferTemplate>");
        }
        if (!c.namespace().isEmpty()) {
            throw c.error(f, "element <transferTemplate> is in namespace " + Checks.quote(c.namespace())
                    + "; expected no namespace");
        }
        Map<String, String> attributes = c.attributes(Set.of("version", "id"));
        RequestParser.version(c, attributes);
        String id = RequestParser.requiredAttribute(c, f, attributes, "id").strip();
        Children children = new Children(c, List.of("name", "sourceAgentName", "sourceAgentQMgr",
                "destinationAgentName", "destinationAgentQMgr", "fileSpecs", "priority", "recoveryTimeout",
                "metaDataSet", "job"));
        String name = children.required("name", RequestParser::plainText);
        String sourceAgent = children.optional("sourceAgentName", RequestParser::optionalText);
        String sourceQMgr = children.optional("sourceAgentQMgr", RequestParser::optionalText);
        String destinationAgent = children.optional("destinationAgentName", RequestParser::optionalText);
        String destinationQMgr = children.optional("destinationAgentQMgr", RequestParser::optionalText);
        List<TransferItem> items = children.optional("fileSpecs", x -> {
            x.attributes(Set.of());
            Children specs = new Children(x, List.of("item"));
            List<TransferItem> list = specs.repeated("item", 0, parser::item);
            specs.end();
            return list;
        });
        Long priority = children.optional("priority", x -> number(x, 0, TransferSet.MAX_PRIORITY));
        Long recoveryTimeout = children.optional("recoveryTimeout", x -> number(x, -1, Integer.MAX_VALUE));
        Map<String, String> metadata = children.optional("metaDataSet", parser::metaDataSet);
        String job = children.optional("job", parser::job);
        children.end();
        return RequestParser.build(c, f, () -> new TransferTemplate(id, name, sourceAgent, sourceQMgr,
                destinationAgent, destinationQMgr, items == null ? List.of() : items,
                priority == null ? 0 : priority.intValue(), recoveryTimeout, metadata == null ? Map.of() : metadata,
                job));
    }

    private static long number(XmlCursor c, long min, long max) throws MalformedRequestException {
        Frame f = c.current();
        String text = RequestParser.plainText(c);
        long value;
        try {
            value = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw c.error(f, "<" + f.name() + "> " + Checks.quote(text) + " is not a whole number");
        }
        if (value < min || value > max) {
            throw c.error(f, "<" + f.name() + "> " + value + " is out of range " + min + "-" + max);
        }
        return value;
    }
}
