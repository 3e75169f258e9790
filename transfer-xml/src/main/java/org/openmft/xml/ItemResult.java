package org.openmft.xml;

/**
 * The outcome of one item in a detailed {@link Reply}. Immutable.
 *
 * @param source the source file path
 * @param destination the destination file path, or {@code null} when the item failed before one was known
 * @param resultCode the item's result: 0 success, 1 failure, 2 warning (reference §5.2); not negative
 * @param supplement the explanation, or {@code null}
 */
public record ItemResult(String source, String destination, int resultCode, String supplement) {

    /** Validates. */
    public ItemResult {
        source = Checks.path(source, "item source");
        destination = destination == null ? null : Checks.path(destination, "item destination");
        if (resultCode < 0) {
            throw new IllegalArgumentException("item resultCode " + resultCode + " must not be negative");
        }
        supplement = supplement == null ? null : Checks.xmlText(supplement, "item supplement");
    }
}
