package org.openmft.xml;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.openmft.xml.DocumentCursor.Frame;

/**
 * Reads {@code <managedCall>} (FileTransfer.xsd's {@code managedCallType}): originator, the agent
 * that runs the call, an optional reply, a transfer set holding optional metadata and one
 * {@code <call>}, and an optional job name (see {@link ManagedCallRequest}). The call itself is
 * read as a transfer's calls are ({@link CallParser}), so the same refusals hold (Ant scripts, JCL).
 * Stateless apart from the parser whose shared readers it uses.
 */
final class ManagedCallParser {

    private final RequestParser parser;

    ManagedCallParser(RequestParser parser) {
        this.parser = parser;
    }

    /** Reads the {@code <managedCall>} the cursor is on, including its end tag. */
    ManagedCallRequest managedCall(XmlCursor c, String version) throws MalformedRequestException {
        Frame f = c.current();
        c.attributes(Set.of());
        Children children = new Children(c, List.of("originator", "agent", "reply", "transferSet", "job"));
        Originator originator = children.required("originator", parser::originator);
        AgentRef agent = children.required("agent", parser::agentRef);
        ReplyTo reply = children.optional("reply", parser::replyTo);
        CallSet set = children.required("transferSet", this::transferSet);
        String jobName = children.optional("job", parser::job);
        children.end();
        return RequestParser.build(c, f, () -> new ManagedCallRequest(version, originator, agent, reply,
                set.priority(), set.metadata(), set.call(), jobName));
    }

    private record CallSet(int priority, Map<String, String> metadata, ProgramCall call) {
    }

    private CallSet transferSet(XmlCursor c) throws MalformedRequestException {
        Frame f = c.current();
        Map<String, String> attributes = c.attributes(Set.of("priority"));
        int priority = 0;
        if (attributes.containsKey("priority")) {
            long value = RequestParser.longAttribute(c, f, attributes, "priority");
            if (value < 0 || value > TransferSet.MAX_PRIORITY) {
                throw c.error(f, "attribute priority=" + Checks.quote(attributes.get("priority"))
                        + " is out of range 0-" + TransferSet.MAX_PRIORITY);
            }
            priority = (int) value;
        }
        // A managed call moves no files: an <item> here is refused as any element out of place.
        Children children = new Children(c, List.of("metaDataSet", "call"));
        Map<String, String> metadata = children.optional("metaDataSet", parser::metaDataSet);
        ProgramCall call = children.required("call", CallParser::call);
        children.end();
        return new CallSet(priority, metadata == null ? Map.of() : metadata, call);
    }
}
