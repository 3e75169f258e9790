package org.openmft.agent.transfer.files;

/**
 * A source item expanded to more files than {@code maxFilesForTransfer} allows (IBM BFGSS0033E;
 * the transfer ends with result code {@value #RESULT_CODE}).
 */
public final class TooManyFilesException extends SourceSelectionException {
    private static final long serialVersionUID = 1L;

    /** IBM message id for too many files in one transfer. */
    public static final String MESSAGE_ID = "BFGSS0033E";
    /** IBM transfer result code: source agent max-files limit exceeded. */
    public static final int RESULT_CODE = 46;

    private final long count;
    private final int limit;

    /**
     * Creates the exception.
     *
     * @param count the number of entries found
     * @param limit the {@code maxFilesForTransfer} value
     */
    public TooManyFilesException(long count, int limit) {
        super(MESSAGE_ID + ": The transfer would contain " + count
                + " files, more than the maxFilesForTransfer limit of " + limit + ".");
        this.count = count;
        this.limit = limit;
    }

    /** @return the number of entries found */
    public long count() {
        return count;
    }

    /** @return the {@code maxFilesForTransfer} value exceeded */
    public int limit() {
        return limit;
    }
}
