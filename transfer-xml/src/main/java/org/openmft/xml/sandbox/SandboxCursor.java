package org.openmft.xml.sandbox;

import javax.xml.stream.XMLStreamReader;

import org.openmft.xml.Checks;
import org.openmft.xml.DocumentCursor;

/**
 * The user sandboxes parser's cursor: the strict walk of {@link DocumentCursor} that the request
 * parser and the publication reader share (so the limits, the DOCTYPE rule and the entity ban hold
 * here too), with every element in IBM's namespace and checked attribute names. Not thread-safe:
 * one per document.
 */
final class SandboxCursor extends DocumentCursor<MalformedSandboxesException> {

    SandboxCursor(XMLStreamReader reader, int maxDepth, int maxElements, int maxTextLength) {
        super(reader, maxDepth, maxElements, maxTextLength, MalformedSandboxesException::new);
    }

    /** Every element below the root is in IBM's namespace, as in IBM's samples and schema. */
    @Override
    protected void checkChild() throws MalformedSandboxesException {
        if (!UserSandboxesDocument.NAMESPACE.equals(namespace())) {
            throw error(current(), "element <" + current().name() + "> is in "
                    + (namespace().isEmpty() ? "no namespace" : "namespace " + Checks.quote(namespace()))
                    + "; expected " + Checks.quote(UserSandboxesDocument.NAMESPACE));
        }
    }
}
