package org.openmft.xml;

/**
 * A document that cannot be read, and where the problem is: what {@link MalformedRequestException}
 * (command documents and replies) and {@link org.openmft.xml.log.MalformedPublicationException}
 * (publications) have in common. Catch those two separately where they mean different things, or
 * this type where any refused document is handled alike.
 *
 * <p>The message reads {@code line 12, column 5, element <transferSet>: attribute priority="12" is
 * out of range 0-9}; the location part is left out when there is none (a document over the size
 * limit is refused before it is read). The position is the parser's after reading the start tag
 * of {@link #element()}, so for a start tag spread over several lines it is its last line. Values
 * from the document are quoted, shortened and stripped of control characters, so the message is
 * safe to log and to send back; the element's name is shortened to 80 characters and the reason to
 * 1,500 here, so the message stays under 2,000 whatever a reader put in them.
 */
public abstract class XmlDocumentException extends Exception {
    private static final long serialVersionUID = 1L;
    /** The most characters of an element name the message keeps. */
    private static final int MAX_ELEMENT_CHARS = 80;
    /** The most characters of the reason the message keeps: with the location, under 2,000 in all. */
    private static final int MAX_REASON_CHARS = 1500;

    private final int line;
    private final int column;
    private final String element;
    private final String reason;

    /**
     * Creates an exception.
     *
     * @param reason what is wrong, without the location
     * @param line 1-based line, or -1 when unknown
     * @param column 1-based column, or -1 when unknown
     * @param element local name of the element at fault, or {@code null}
     * @param cause the underlying failure, or {@code null}
     */
    protected XmlDocumentException(String reason, int line, int column, String element, Throwable cause) {
        super(format(reason, line, column, element), cause);
        this.reason = reason;
        this.line = line;
        this.column = column;
        this.element = element;
    }

    private static String format(String reason, int line, int column, String element) {
        // Element names come from the document too, and a reason may repeat one (an unknown root
        // element): both are bounded here, whatever the reader put in them.
        reason = reason == null ? null : Checks.printable(reason, MAX_REASON_CHARS);
        StringBuilder out = new StringBuilder();
        if (line > 0) {
            out.append("line ").append(line);
            if (column > 0) {
                out.append(", column ").append(column);
            }
        }
        if (element != null) {
            out.append(out.length() == 0 ? "" : ", ").append("element <")
                    .append(Checks.printable(element, MAX_ELEMENT_CHARS)).append('>');
        }
        return out.length() == 0 ? reason : out.append(": ").append(reason).toString();
    }

    /**
     * Line of the problem.
     *
     * @return 1-based line number, or -1 when unknown
     */
    public int line() {
        return line;
    }

    /**
     * Column of the problem.
     *
     * @return 1-based column number, or -1 when unknown
     */
    public int column() {
        return column;
    }

    /**
     * The element at fault.
     *
     * @return its local name without brackets, or {@code null} when the problem is the document as a whole
     */
    public String element() {
        return element;
    }

    /**
     * What is wrong, without the location prefix of {@link #getMessage()}.
     *
     * @return the reason
     */
    public String reason() {
        return reason;
    }
}
