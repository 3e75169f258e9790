package org.openmft.agent.transfer.text;

/**
 * Text that cannot be converted: malformed in the source encoding, or a character the destination
 * encoding cannot represent, while no {@code textReplacementCharacterSequence} is set. IBM fails
 * the item in that case (reference §7.9). The message is complete for the user, for example
 * {@code unmappable character U+20AC at source byte offset 1234 for IBM1047}.
 */
public final class TextConversionException extends Exception {
    private static final long serialVersionUID = 1L;

    /** What was wrong with the text. */
    public enum Kind {
        /** Bytes that are not valid in the source encoding, including a truncated last character. */
        MALFORMED,
        /** Valid input that has no mapping: bytes undefined in the source code page, or a
         *  character the destination code page cannot represent. */
        UNMAPPABLE
    }

    private final Kind kind;
    private final long sourceByteOffset;
    private final int codePoint;
    private final byte[] bytes;
    private final String charsetName;

    /**
     * Creates the exception.
     *
     * @param message the complete user-facing message
     * @param kind what was wrong
     * @param sourceByteOffset offset of the offending input from the start of the source file
     * @param codePoint the offending character, or -1 when the problem is in the source bytes
     * @param bytes the offending source bytes, empty when the problem is a character
     * @param charsetName the encoding that rejected the input
     */
    public TextConversionException(String message, Kind kind, long sourceByteOffset, int codePoint,
            byte[] bytes, String charsetName) {
        super(message);
        this.kind = kind;
        this.sourceByteOffset = sourceByteOffset;
        this.codePoint = codePoint;
        this.bytes = bytes.clone();
        this.charsetName = charsetName;
    }

    /** @return whether the input was malformed or unmappable */
    public Kind kind() {
        return kind;
    }

    /** @return offset of the offending input, counted in bytes from the start of the source */
    public long sourceByteOffset() {
        return sourceByteOffset;
    }

    /** @return the character that could not be encoded, or -1 when the source bytes were at fault */
    public int codePoint() {
        return codePoint;
    }

    /** @return a copy of the source bytes that could not be decoded; empty for a character error */
    public byte[] bytes() {
        return bytes.clone();
    }

    /** @return the name of the charset that rejected the input (source or destination) */
    public String charsetName() {
        return charsetName;
    }
}
