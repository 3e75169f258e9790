package org.openmft.xml.sandbox;

import org.openmft.xml.XmlDocumentException;

/**
 * A {@code UserSandboxes.xml} that cannot be used: not well-formed XML, hostile markup (a DOCTYPE,
 * entities), over a limit, not IBM's {@code userSandboxes} document, or holding an element,
 * attribute or value that is not allowed (an unknown {@code userPattern}, a regular expression
 * that does not compile, an empty path pattern).
 *
 * <p>The message reads {@code line 7, column 52, element <sandbox>: userPattern="regexp" is not
 * allowed; expected "wildcard" or "regex"}, as described for {@link XmlDocumentException}, and is
 * safe to log.
 */
public class MalformedSandboxesException extends XmlDocumentException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates an exception.
     *
     * @param reason what is wrong, without the location
     * @param line 1-based line, or -1 when unknown
     * @param column 1-based column, or -1 when unknown
     * @param element local name of the element at fault, or {@code null}
     * @param cause the underlying failure, or {@code null}
     */
    public MalformedSandboxesException(String reason, int line, int column, String element, Throwable cause) {
        super(reason, line, column, element, cause);
    }
}
