package org.openmft.xml;

import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * Writes what {@link ScheduleTriggerParser} reads: for {@link DocumentWriter}, and the
 * {@code <schedule>} of the schedule log publications too, which IBM writes in the same shape.
 */
public final class ScheduleTriggerWriter {
    private ScheduleTriggerWriter() {}

    /**
     * Writes IBM's {@code <schedule>} element.
     *
     * @param w the writer, inside the element that holds the schedule
     * @param s the schedule
     * @throws XMLStreamException when the writer fails
     */
    public static void schedule(XMLStreamWriter w, TransferSchedule s) throws XMLStreamException {
        w.writeStartElement("schedule");
        w.writeStartElement("submit");
        w.writeAttribute("timebase", s.timebase());
        if (s.timezone() != null) {
            w.writeAttribute("timezone", s.timezone());
        }
        w.writeCharacters(TransferSchedule.FORMAT.format(s.submit()));
        w.writeEndElement();
        if (s.repeats()) {
            w.writeStartElement("repeat");
            w.writeStartElement("frequency");
            w.writeAttribute("interval", s.interval());
            w.writeCharacters(Integer.toString(s.frequency()));
            w.writeEndElement();
            if (s.expireTime() != null) {
                DocumentWriter.textElement(w, "expireTime", TransferSchedule.FORMAT.format(s.expireTime()));
            } else if (s.expireCount() > 0) {
                DocumentWriter.textElement(w, "expireCount", Long.toString(s.expireCount()));
            }
            w.writeEndElement();
        }
        w.writeEndElement();
    }

    static void trigger(XMLStreamWriter w, TransferTrigger t) throws XMLStreamException {
        w.writeStartElement("trigger");
        w.writeAttribute("log", t.log() ? "yes" : "no");
        for (TransferTrigger.Condition c : t.conditions()) {
            if (c instanceof TransferTrigger.FileExist e) {
                w.writeStartElement("fileExist");
                w.writeAttribute("comparison", e.comparison());
                w.writeAttribute("value", e.value());
            } else {
                TransferTrigger.FileSize size = (TransferTrigger.FileSize) c;
                w.writeStartElement("fileSize");
                w.writeAttribute("comparison", ">=");
                w.writeAttribute("value", Long.toString(size.value()));
                w.writeAttribute("units", size.units());
            }
            w.writeCharacters(c.path());
            w.writeEndElement();
        }
        w.writeEndElement();
    }

    /** The {@code <deleteScheduledTransfer>} element, inside the caller's {@code <request>}. */
    static void deleteScheduledTransfer(XMLStreamWriter w, DeleteScheduledTransferRequest d) throws XMLStreamException {
        w.writeStartElement("deleteScheduledTransfer");
        w.writeStartElement("originator");
        w.writeStartElement("delete");
        DocumentWriter.textElement(w, "hostName", d.originator().hostName());
        DocumentWriter.textElement(w, "userID", d.originator().userId());
        w.writeEndElement();
        w.writeEndElement();
        DocumentWriter.textElement(w, "ID", Long.toString(d.id()));
        DocumentWriter.replyTo(w, d.reply());
        w.writeEndElement();
    }
}
