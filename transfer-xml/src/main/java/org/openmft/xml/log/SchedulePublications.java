package org.openmft.xml.log;

import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;
import org.openmft.xml.AgentRef;
import org.openmft.xml.DocumentCursor;
import org.openmft.xml.DocumentCursor.Frame;
import org.openmft.xml.ScheduleTriggerWriter;

/**
 * Writes the schedule publications ({@link ScheduleLog}, {@link ScheduleList}) and reads the
 * ScheduleList back for {@code fteListScheduledTransfers}, with {@link PublicationReader}'s
 * hardening and limits. The ScheduleList's element names follow IBM's ScheduleList.xsd as far as we
 * know it (root {@code <schedules>}, one {@code <schedule ID>} each); readers skip what they do not
 * know.
 */
public final class SchedulePublications {
    private static final String XSI = "http://www.w3.org/2001/XMLSchema-instance";
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

    private SchedulePublications() {}

    /** The schedule log message's XML. */
    public static String write(ScheduleLog log) {
        return render(w -> {
            w.writeStartElement("schedulelog");
            w.writeAttribute("version", ScheduleLog.VERSION);
            w.writeAttribute("ID", Long.toString(log.id()));
            w.writeNamespace("xsi", XSI);
            w.writeAttribute(XSI, "noNamespaceSchemaLocation", "ScheduleLog.xsd");
            if (log.originator() != null) {
                w.writeStartElement("originator");
                w.writeStartElement(log.action().equals("delete") ? "delete" : "submit");
                text(w, "hostName", log.originator().hostName());
                text(w, "userID", log.originator().userId());
                w.writeEndElement();
                w.writeEndElement();
            }
            w.writeStartElement("action");
            w.writeAttribute("time", TIME.format(log.time()));
            w.writeCharacters(log.action());
            w.writeEndElement();
            ScheduleTriggerWriter.schedule(w, log.schedule());
            agent(w, "sourceAgent", log.sourceAgent());
            agent(w, "destinationAgent", log.destinationAgent());
            w.writeStartElement("status");
            w.writeAttribute("resultCode", Integer.toString(log.resultCode()));
            for (String s : log.supplements()) {
                text(w, "supplement", s);
            }
            w.writeEndElement();
            items(w, log.items(), log.priority());
            job(w, log.jobName());
            w.writeEndElement();
        });
    }

    /** The ScheduleList's XML. */
    public static String write(ScheduleList list) {
        return render(w -> {
            w.writeStartElement("schedules");
            w.writeAttribute("version", "6.00");
            w.writeAttribute("agent", list.agent());
            w.writeAttribute("size", Integer.toString(list.schedules().size()));
            w.writeNamespace("xsi", XSI);
            w.writeAttribute(XSI, "noNamespaceSchemaLocation", "ScheduleList.xsd");
            for (ScheduleList.Entry e : list.schedules()) {
                w.writeStartElement("schedule");
                w.writeAttribute("ID", Long.toString(e.id()));
                w.writeStartElement("submit");
                w.writeAttribute("timebase", e.timebase());
                w.writeCharacters(e.start());
                w.writeEndElement();
                if (e.next() != null) {
                    text(w, "next", e.next());
                }
                if (e.interval() != null) {
                    w.writeStartElement("repeat");
                    w.writeStartElement("frequency");
                    w.writeAttribute("interval", e.interval());
                    w.writeCharacters(Integer.toString(e.frequency()));
                    w.writeEndElement();
                    if (e.expireTime() != null) {
                        text(w, "expireTime", e.expireTime());
                    } else if (e.expireCount() > 0) {
                        text(w, "expireCount", Long.toString(e.expireCount()));
                    }
                    w.writeEndElement();
                }
                agent(w, "sourceAgent", new AgentRef(e.sourceAgent(), null));
                agent(w, "destinationAgent", new AgentRef(e.destinationAgent(), null));
                items(w, e.items(), -1);
                job(w, e.jobName());
                w.writeEndElement();
            }
            w.writeEndElement();
        });
    }

    /**
     * Reads a ScheduleList.
     *
     * @throws MalformedPublicationException when it is not one
     */
    public static ScheduleList readList(byte[] xml) throws MalformedPublicationException {
        return DocumentCursor.read(xml, null, PublicationReader.MAX_DOCUMENT_BYTES, MalformedPublicationException::new,
                reader -> new PublicationCursor(reader, false, PublicationReader.MAX_DEPTH, PublicationReader.MAX_ELEMENTS,
                        PublicationReader.MAX_TEXT_LENGTH), SchedulePublications::list);
    }

    private static ScheduleList list(PublicationCursor c) throws MalformedPublicationException {
        Frame root = c.current();
        if (!c.root().equals("schedules")) {
            throw c.error(root, "unknown root element <" + c.root() + ">; expected <schedules>");
        }
        String agent = c.attribute("agent");
        List<ScheduleList.Entry> entries = new ArrayList<>();
        for (String child = c.nextChild(); child != null; child = c.nextChild()) {
            if (!child.equals("schedule")) {
                c.skip();
                continue;
            }
            Frame f = c.current();
            long id = number(c, f, c.attribute("ID"));
            String timebase = null;
            String start = null;
            String next = null;
            String interval = null;
            int frequency = 1;
            long count = 0;
            String end = null;
            String source = null;
            String destination = null;
            String job = null;
            List<ScheduleList.Item> items = new ArrayList<>();
            for (String part = c.nextChild(); part != null; part = c.nextChild()) {
                switch (part) {
                    case "submit" -> {
                        timebase = c.attribute("timebase");
                        start = c.text().strip();
                    }
                    case "next" -> next = c.text().strip();
                    case "repeat" -> {
                        for (String r = c.nextChild(); r != null; r = c.nextChild()) {
                            Frame rf = c.current();
                            switch (r) {
                                case "frequency" -> {
                                    interval = c.attribute("interval");
                                    frequency = (int) number(c, rf, c.text());
                                }
                                case "expireCount" -> count = number(c, rf, c.text());
                                case "expireTime" -> end = c.text().strip();
                                default -> c.skip();
                            }
                        }
                    }
                    case "sourceAgent" -> {
                        source = c.attribute("agent");
                        c.skip();
                    }
                    case "destinationAgent" -> {
                        destination = c.attribute("agent");
                        c.skip();
                    }
                    case "transferSet" -> readItems(c, items);
                    case "job" -> {
                        for (String j = c.nextChild(); j != null; j = c.nextChild()) {
                            if (j.equals("name")) {
                                job = c.text().strip();
                            } else {
                                c.skip();
                            }
                        }
                    }
                    default -> c.skip();
                }
            }
            if (start == null || source == null || destination == null) {
                throw c.error(f, "schedule " + id + " lacks <submit>, <sourceAgent> or <destinationAgent>");
            }
            entries.add(new ScheduleList.Entry(id, source, destination, job, timebase, start, next, interval, frequency,
                    count, end, items));
        }
        return new ScheduleList(agent, entries);
    }

    /** The {@code <item>}s of a {@code <transferSet>}, added to {@code items}; also for schedule logs. */
    static void readItems(PublicationCursor c, List<ScheduleList.Item> items) throws MalformedPublicationException {
        for (String i = c.nextChild(); i != null; i = c.nextChild()) {
            if (!i.equals("item")) {
                c.skip();
                continue;
            }
            String mode = c.attribute("mode");
            String source = null;
            String destination = null;
            for (String side = c.nextChild(); side != null; side = c.nextChild()) {
                String path = null;
                for (String file = c.nextChild(); file != null; file = c.nextChild()) {
                    if (file.equals("file")) {
                        path = c.text().strip();
                    } else {
                        c.skip();
                    }
                }
                if (side.equals("source")) {
                    source = path;
                } else if (side.equals("destination")) {
                    destination = path;
                }
            }
            items.add(new ScheduleList.Item(source, destination, mode == null ? "binary" : mode));
        }
    }

    private static long number(PublicationCursor c, Frame f, String text) throws MalformedPublicationException {
        try {
            return Long.parseLong(text == null ? "" : text.strip());
        } catch (NumberFormatException e) {
            throw c.error(f, "'" + text + "' is not a whole number");
        }
    }

    private static void items(XMLStreamWriter w, List<ScheduleList.Item> items, int priority) throws XMLStreamException {
        w.writeStartElement("transferSet");
        w.writeAttribute("size", Integer.toString(items.size()));
        if (priority >= 0) {
            w.writeAttribute("priority", Integer.toString(priority));
        }
        for (ScheduleList.Item i : items) {
            w.writeStartElement("item");
            w.writeAttribute("mode", i.mode());
            w.writeStartElement("source");
            text(w, "file", i.source());
            w.writeEndElement();
            w.writeStartElement("destination");
            text(w, "file", i.destination());
            w.writeEndElement();
            w.writeEndElement();
        }
        w.writeEndElement();
    }

    private static void job(XMLStreamWriter w, String job) throws XMLStreamException {
        if (job != null) {
            w.writeStartElement("job");
            text(w, "name", job);
            w.writeEndElement();
        }
    }

    private static void agent(XMLStreamWriter w, String element, AgentRef agent) throws XMLStreamException {
        w.writeEmptyElement(element);
        w.writeAttribute("agent", agent.agent());
        if (agent.qmgr() != null && !agent.qmgr().isEmpty()) {
            w.writeAttribute("QMgr", agent.qmgr());
        }
    }

    private static void text(XMLStreamWriter w, String element, String value) throws XMLStreamException {
        w.writeStartElement(element);
        w.writeCharacters(value == null ? "" : value);
        w.writeEndElement();
    }

    @FunctionalInterface
    private interface Body {
        void write(XMLStreamWriter w) throws XMLStreamException;
    }

    private static String render(Body body) {
        StringWriter out = new StringWriter();
        try {
            XMLStreamWriter w = XMLOutputFactory.newFactory().createXMLStreamWriter(out);
            w.writeStartDocument(StandardCharsets.UTF_8.name(), "1.0");
            body.write(w);
            w.writeEndDocument();
            w.close();
        } catch (XMLStreamException e) {
            throw new IllegalStateException("writing XML to memory failed", e);
        }
        return out.toString();
    }
}
