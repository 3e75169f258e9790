package org.openmft.xml;

import java.nio.charset.StandardCharsets;

/**
 * Writes a {@link TransferTemplate} as IBM publishes templates (IBM Docs, "MFT example template
 * XML message"): {@code <transferTemplate version="4.00" id="…">} in no namespace, then
 * {@code name}, the four agent elements (empty when the template leaves them out), the items in
 * {@code <fileSpecs>} exactly as a request's {@code <item>}s, and {@code priority}. OpenMFT adds,
 * only when set, {@code <recoveryTimeout>}, {@code <metaDataSet>} and {@code <job>} after
 * {@code priority}, shaped as in a request: IBM publishes no template schema to place them by.
 * {@link TemplateParser} reads back everything written here. Stateless and thread-safe.
 */
public final class TemplateWriter {

    /** Creates a writer; it holds no state. */
    public TemplateWriter() {}

    /**
     * Writes a template.
     *
     * @param template the template
     * @return the document, with a declaration naming UTF-8
     */
    public String write(TransferTemplate template) {
        return DocumentWriter.render(w -> {
            w.writeStartElement("transferTemplate");
            w.writeAttribute("version", TransferTemplate.VERSION);
            w.writeAttribute("id", template.id());
            DocumentWriter.textElement(w, "name", template.name());
            DocumentWriter.textElement(w, "sourceAgentName", orEmpty(template.sourceAgent()));
            DocumentWriter.textElement(w, "sourceAgentQMgr", orEmpty(template.sourceQMgr()));
            DocumentWriter.textElement(w, "destinationAgentName", orEmpty(template.destinationAgent()));
            DocumentWriter.textElement(w, "destinationAgentQMgr", orEmpty(template.destinationQMgr()));
            w.writeStartElement("fileSpecs");
            for (TransferItem item : template.items()) {
                DocumentWriter.item(w, item);
            }
            w.writeEndElement();
            DocumentWriter.textElement(w, "priority", Integer.toString(template.priority()));
            if (template.recoveryTimeoutSeconds() != null) {
                DocumentWriter.textElement(w, "recoveryTimeout", Long.toString(template.recoveryTimeoutSeconds()));
            }
            DocumentWriter.metaDataSet(w, template.metadata());
            if (template.jobName() != null) {
                w.writeStartElement("job");
                DocumentWriter.textElement(w, "name", template.jobName());
                w.writeEndElement();
            }
            w.writeEndElement();
        });
    }

    /**
     * Writes a template as the body of a publication.
     *
     * @param template the template
     * @return the document encoded in UTF-8
     */
    public byte[] writeBytes(TransferTemplate template) {
        return write(template).getBytes(StandardCharsets.UTF_8);
    }

    private static String orEmpty(String value) {
        return value == null ? "" : value;
    }
}
