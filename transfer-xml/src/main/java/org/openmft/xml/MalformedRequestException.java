package org.openmft.xml;

/**
 * A document that cannot be accepted: not well-formed XML, not one of the documents we know,
 * missing or extra elements or attributes, values out of range, or over a size limit. Maps to
 * MFT result code {@value #RESULT_CODE} ("malformed XML"), which is what the requester should be
 * told in the reply.
 *
 * <p>The message reads {@code line 12, column 5, element <transferSet>: attribute priority="12" is
 * out of range 0-9}, as described for {@link XmlDocumentException}, and is safe to log and to send
 * back.
 */
public class MalformedRequestException extends XmlDocumentException {
    private static final long serialVersionUID = 1L;

    /** MFT result code for a malformed request. */
    public static final int RESULT_CODE = 43;

    /**
     * Creates an exception.
     *
     * @param reason what is wrong, without the location
     * @param line 1-based line, or -1 when unknown
     * @param column 1-based column, or -1 when unknown
     * @param element local name of the element at fault, or {@code null}
     */
    public MalformedRequestException(String reason, int line, int column, String element) {
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
    public MalformedRequestException(String reason, int line, int column, String element, Throwable cause) {
        super(reason, line, column, element, cause);
    }

    /**
     * The MFT result code to report to the requester.
     *
     * @return {@value #RESULT_CODE}
     */
    public int resultCode() {
        return RESULT_CODE;
    }
}
