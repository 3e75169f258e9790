package org.openmft.xml.log;

import org.openmft.xml.XmlDocumentException;

/**
 * A publication that cannot be read: not well-formed XML, not the document asked for, a required
 * part missing, a value that is not what it should be, hostile markup (a DOCTYPE, entities) or over
 * a size limit.
 *
 * <p>The message reads {@code line 4, column 31, element <action>: unknown transfer log action
 * "begun"}, as described for {@link XmlDocumentException}, and is safe to log.
 */
public class MalformedPublicationException extends XmlDocumentException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates an exception.
     *
     * @param reason what is wrong, without the location
     * @param line 1-based line, or -1 when unknown
     * @param column 1-based column, or -1 when unknown
     * @param element local name of the element at fault, or {@code null}
     */
    public MalformedPublicationException(String reason, int line, int column, String element) {
        this(reason, line, column, element, null);
    }

    /**
     * Creates an exception with the low-level failure behind it.
     *
     * @param reason what is wrong, without the location
     * @param line 1-based line, or -1 when unknown
     * @param column 1-based column, or -1 when unknown
     * @param element local name of the element at fault, or {@code null}
     * @param cause the underlying failure, or {@code null}
     */
    public MalformedPublicationException(String reason, int line, int column, String element, Throwable cause) {
        super(reason, line, column, element, cause);
    }
}
