package org.openmft.xml;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The {@code <transferSet>} of a request: settings shared by all items, user metadata and the
 * items themselves. Immutable; the collections are unmodifiable copies.
 *
 * @param priority transfer priority 0 (lowest, the default) to 9
 * @param recoveryTimeoutSeconds how long a stalled transfer keeps trying to recover: {@code -1}
 *     for ever, {@code 0} not at all, or a positive number of seconds; {@code null} when the
 *     request does not say, so that the agent's {@code transferRecoveryTimeout} applies
 * @param metadata {@code <metaData key="...">value</metaData>} entries in document order; keys
 *     not empty, values may be empty
 * @param calls the program calls ({@code <preSourceCall>} and its siblings), {@link ProgramCalls#NONE} when none
 * @param items the files to move, at least one
 */
public record TransferSet(int priority, Long recoveryTimeoutSeconds, Map<String, String> metadata, ProgramCalls calls,
        List<TransferItem> items) {

    /** Highest priority IBM allows. */
    public static final int MAX_PRIORITY = 9;

    /** Validates and copies the collections. */
    public TransferSet {
        if (priority < 0 || priority > MAX_PRIORITY) {
            throw new IllegalArgumentException("priority " + priority + " is out of range 0-" + MAX_PRIORITY);
        }
        if (recoveryTimeoutSeconds != null && recoveryTimeoutSeconds < -1) {
            throw new IllegalArgumentException("recoveryTimeout " + recoveryTimeoutSeconds
                    + " is out of range; expected -1, 0 or a positive number of seconds");
        }
        Objects.requireNonNull(metadata, "metadata");
        Map<String, String> copy = new LinkedHashMap<>();
        metadata.forEach((key, value) -> copy.put(Checks.name(key, "metadata key"),
                Checks.xmlText(value, "value of metadata key " + Checks.quote(key))));
        metadata = Collections.unmodifiableMap(copy);
        calls = calls == null ? ProgramCalls.NONE : calls;
        items = List.copyOf(items);
        if (items.isEmpty()) {
            throw new IllegalArgumentException("a transfer set needs at least one item");
        }
    }

    /**
     * A transfer set without program calls.
     *
     * @param priority 0 to 9
     * @param recoveryTimeoutSeconds -1, 0, a positive number of seconds, or {@code null}
     * @param metadata the user metadata
     * @param items the files to move, at least one
     */
    public TransferSet(int priority, Long recoveryTimeoutSeconds, Map<String, String> metadata, List<TransferItem> items) {
        this(priority, recoveryTimeoutSeconds, metadata, ProgramCalls.NONE, items);
    }

    /**
     * A transfer set with the defaults: priority 0, no recovery timeout, no metadata.
     *
     * @param items the files to move, at least one
     */
    public TransferSet(List<TransferItem> items) {
        this(0, null, Map.of(), ProgramCalls.NONE, items);
    }
}
