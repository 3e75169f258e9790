package org.openmft.cli;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import javax.xml.stream.XMLEventReader;
import javax.xml.stream.XMLEventWriter;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.events.StartElement;
import javax.xml.stream.events.XMLEvent;

import org.openmft.xml.CommandDocument;
import org.openmft.xml.DocumentWriter;
import org.openmft.xml.MalformedRequestException;
import org.openmft.xml.RequestParser;
import org.openmft.xml.TransferItem;
import org.openmft.xml.TransferRequest;
import org.openmft.xml.UnsupportedRequestException;

/**
 * IBM's transfer definition file ({@code fteCreateTransfer -td}): a FileTransfer.xsd document
 * whose root {@code <transferSpecifications>} holds the {@code <item>}s of a transfer, with agents,
 * priority, job name and metadata given on the command line.
 *
 * <p>transfer-xml's {@link RequestParser} reads items only inside a request, so the items are
 * lifted out of the file (by a StAX reader with DTDs and external entities off, refusing any
 * DOCTYPE) and parsed inside a stand-in request: they meet exactly the rules of items sent with
 * {@code mft transfer submit}. Blank lines stand in for the lines before the root element so that
 * the line numbers in error messages are the file's.
 */
final class TransferDefinitionFile {
    private static final String ROOT = "transferSpecifications";

    private TransferDefinitionFile() {
    }

    /**
     * Reads the items of a transfer definition file.
     *
     * @throws CommandFailure (exit code 1) when the file is missing, too large, not a
     *     {@code <transferSpecifications>} document, or has an item that is not valid or uses a
     *     part of IBM's schema not supported yet; the message names the file
     */
    static List<TransferItem> read(Path file) throws CommandFailure {
        byte[] bytes;
        try {
            if (!Files.isRegularFile(file)) {
                throw failure(file, "does not exist");
            }
            if (Files.size(file) > RequestParser.DEFAULT_MAX_DOCUMENT_BYTES) {
                throw failure(file, "is larger than " + RequestParser.DEFAULT_MAX_DOCUMENT_BYTES + " bytes");
            }
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw failure(file, "cannot be read: " + e);
        }
        String standIn;
        try {
            standIn = standIn(file, bytes);
        } catch (XMLStreamException e) {
            String where = e.getLocation() == null ? "" : "line " + e.getLocation().getLineNumber() + ": ";
            throw failure(file, "is not well-formed XML: " + where + firstLine(e.getMessage()));
        }
        CommandDocument document;
        try {
            document = new RequestParser().parse(standIn);
        } catch (UnsupportedRequestException e) {
            throw failure(file, "uses what is not supported yet: " + e.getMessage());
        } catch (MalformedRequestException e) {
            throw failure(file, "is not valid: " + e.getMessage());
        }
        return ((TransferRequest) document).transferSet().items();
    }

    /** The file's items inside a request with placeholder agents; validated by the caller's parse. */
    private static String standIn(Path file, byte[] bytes) throws XMLStreamException, CommandFailure {
        XMLInputFactory in = XMLInputFactory.newDefaultFactory();
        in.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        in.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        in.setProperty(XMLInputFactory.IS_REPLACING_ENTITY_REFERENCES, false);
        XMLOutputFactory outFactory = XMLOutputFactory.newDefaultFactory();
        outFactory.setProperty(XMLOutputFactory.IS_REPAIRING_NAMESPACES, true);
        StringWriter items = new StringWriter();
        XMLEventReader reader = in.createXMLEventReader(new ByteArrayInputStream(bytes));
        XMLEventWriter writer = outFactory.createXMLEventWriter(items);
        int depth = 0;
        int rootLine = 1;
        boolean rootSeen = false;
        try {
            while (reader.hasNext()) {
                XMLEvent e = reader.nextEvent();
                switch (e.getEventType()) {
                    case XMLEvent.DTD, XMLEvent.ENTITY_REFERENCE ->
                            throw new XMLStreamException("DOCTYPE and entities are not allowed", e.getLocation());
                    case XMLEvent.START_ELEMENT -> {
                        StartElement s = e.asStartElement();
                        if (depth == 0) {
                            String name = s.getName().getLocalPart();
                            if (!name.equals(ROOT) || !s.getName().getNamespaceURI().isEmpty()) {
                                throw failure(file, "has the root element <" + name + ">, not <" + ROOT + ">"
                                        + (name.equals("request") ? " (a whole request: send it with 'mft transfer"
                                        + " submit FILE')" : ""));
                            }
                            rootSeen = true;
                            rootLine = Math.max(1, e.getLocation().getLineNumber());
                        } else {
                            writer.add(e);
                        }
                        depth++;
                    }
                    case XMLEvent.END_ELEMENT -> {
                        depth--;
                        if (depth > 0) {
                            writer.add(e);
                        }
                    }
                    case XMLEvent.START_DOCUMENT, XMLEvent.END_DOCUMENT -> {
                        // The stand-in has its own.
                    }
                    default -> {
                        if (depth > 0) {
                            writer.add(e);
                        }
                    }
                }
            }
            writer.flush();
        } finally {
            reader.close();
            writer.close();
        }
        if (!rootSeen) {
            throw new XMLStreamException("the file has no root element");
        }
        return "\n".repeat(rootLine - 1) + "<request version=\"" + DocumentWriter.VERSION + "\"><managedTransfer>"
                + "<originator><hostName>h</hostName><userID>u</userID></originator>"
                + "<sourceAgent agent=\"S\"/><destinationAgent agent=\"D\"/><transferSet>" + items
                + "</transferSet></managedTransfer></request>";
    }

    private static CommandFailure failure(Path file, String what) {
        return new CommandFailure(ExitCodes.FAILED, "BFGCL0003E: the transfer definition file " + file + " " + what
                + "; nothing was sent");
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "";
        }
        String s = message.strip();
        int nl = s.lastIndexOf('\n');
        // The JDK's StAX messages start with "ParseError at [row,col]:..." on a line of their own.
        return nl >= 0 ? s.substring(nl + 1).strip() : s;
    }
}
