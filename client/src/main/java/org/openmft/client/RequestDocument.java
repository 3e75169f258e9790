package org.openmft.client;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Objects;

import org.openmft.xml.AgentRef;
import org.openmft.xml.CommandDocument;
import org.openmft.xml.DocumentWriter;
import org.openmft.xml.MalformedRequestException;
import org.openmft.xml.ManagedCallRequest;
import org.openmft.xml.Originator;
import org.openmft.xml.ReplyTo;
import org.openmft.xml.RequestParser;
import org.openmft.xml.TransferRequest;

/**
 * An IBM MFT request document (FileTransfer.xsd) kept whole, as {@code mft transfer submit} sends
 * it: a managed transfer ({@code <request><managedTransfer>}, with everything the document carries:
 * its schedule, trigger, metadata, program calls, job name, priority and recovery timeout) or a
 * managed call ({@code <request><managedCall>}, a program an agent runs without moving data).
 * {@link MftClient#send(RequestDocument)} sends it as it is; {@link MftClient#submit(RequestDocument,
 * ProgressListener)} replaces only its {@code <reply>} queue, keeping the document's
 * {@code detailed} choice (item results in the outcome or not). Immutable and thread-safe.
 */
public final class RequestDocument {
    private final CommandDocument document;

    private RequestDocument(CommandDocument document) {
        this.document = document;
    }

    /**
     * Reads a request document.
     *
     * @param xml the document, UTF-8 unless its XML declaration says otherwise
     * @return the request
     * @throws IllegalArgumentException when the document is not valid ("not a valid request: ..."),
     *     or is valid but neither a managed transfer nor a managed call (a monitor or a cancel
     *     request, for instance); nothing is sent
     */
    public static RequestDocument fromXml(byte[] xml) {
        Objects.requireNonNull(xml, "xml");
        CommandDocument document;
        try {
            document = new RequestParser().parse(xml);
        } catch (MalformedRequestException e) {
            throw new IllegalArgumentException("not a valid request: " + e.getMessage(), e);
        }
        if (!(document instanceof TransferRequest) && !(document instanceof ManagedCallRequest)) {
            throw new IllegalArgumentException("not a transfer request (<request><managedTransfer>) nor a managed"
                    + " call (<request><managedCall>)");
        }
        return new RequestDocument(document);
    }

    /**
     * Reads a request document.
     *
     * @param xml the document
     * @return the request
     * @throws IllegalArgumentException as {@link #fromXml(byte[])}
     */
    public static RequestDocument fromXml(String xml) {
        return fromXml(Objects.requireNonNull(xml, "xml").getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Whether the document is a managed call rather than a managed transfer.
     *
     * @return true for {@code <managedCall>}
     */
    public boolean managedCall() {
        return document instanceof ManagedCallRequest;
    }

    /**
     * Whether the document is a managed transfer with a {@code <schedule>}: the source agent keeps
     * it and answers with the schedule's id; it has no outcome to await now.
     *
     * @return true for a scheduled transfer
     */
    public boolean scheduled() {
        return document instanceof TransferRequest t && t.schedule() != null;
    }

    /**
     * The agent the request goes to: a transfer's source agent, or the agent that runs a call.
     *
     * @return the agent's name, upper case
     */
    public String agent() {
        return agentRef().agent().toUpperCase(Locale.ROOT);
    }

    /**
     * The document as XML, as it is sent by {@link MftClient#send(RequestDocument)}.
     *
     * @return the document
     */
    public String toXml() {
        return new DocumentWriter().write(document);
    }

    AgentRef agentRef() {
        return document instanceof TransferRequest t ? t.sourceAgent() : ((ManagedCallRequest) document).agent();
    }

    /** The document with {@code originator} instead of its own, or as it is for null. */
    CommandDocument document(Originator originator) {
        if (originator == null) {
            return document;
        }
        if (document instanceof TransferRequest t) {
            return t.withOriginator(originator);
        }
        ManagedCallRequest c = (ManagedCallRequest) document;
        return new ManagedCallRequest(c.version(), originator, c.agent(), c.reply(), c.priority(), c.metadata(),
                c.call(), c.jobName());
    }

    /** {@code sent} (this document, maybe with another originator) answering on {@code queue}. */
    CommandDocument answeredAt(CommandDocument sent, String queue, String qmgr) {
        ReplyTo own = sent instanceof TransferRequest t ? t.reply() : ((ManagedCallRequest) sent).reply();
        ReplyTo reply = new ReplyTo(queue, qmgr, own != null && own.detailed());
        if (sent instanceof TransferRequest t) {
            return t.withReply(reply);
        }
        ManagedCallRequest c = (ManagedCallRequest) sent;
        return new ManagedCallRequest(c.version(), c.originator(), c.agent(), reply, c.priority(), c.metadata(),
                c.call(), c.jobName());
    }

    @Override
    public String toString() {
        return "RequestDocument[" + (managedCall() ? "managed call on " : "transfer from ") + agent() + "]";
    }
}
