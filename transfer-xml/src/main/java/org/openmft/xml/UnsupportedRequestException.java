package org.openmft.xml;

/**
 * A well-formed document that uses a part of IBM's schemas OpenMFT does not implement yet, such
 * as {@code <schedule>}, {@code <trigger>}, program calls or queue sources and destinations. Such
 * parts change what a transfer does, so they are refused rather than ignored. Reported to the
 * requester with result code 43 like any malformed request; the message says "not supported yet".
 */
public class UnsupportedRequestException extends MalformedRequestException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates an exception.
     *
     * @param reason what is not supported, without the location
     * @param line 1-based line, or -1 when unknown
     * @param column 1-based column, or -1 when unknown
     * @param element local name of the element at fault, or {@code null}
     */
    public UnsupportedRequestException(String reason, int line, int column, String element) {
        super(reason, line, column, element);
    }
}
