package org.openmft.xml;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * A transfer template (IBM's {@code <transferTemplate>}, retained on the coordination queue
 * manager at {@code SYSTEM.FTE/Templates/<id>}): the parts of a transfer request kept under a
 * name for later use. Unlike a request, every part but the id and the name may be missing (IBM
 * lets a template leave out the agents and the files); whoever submits it supplies them.
 * Immutable; the collections are unmodifiable copies.
 *
 * @param id the template's id, the last level of its topic string: IBM uses a UUID; letters,
 *     digits, {@code .}, {@code _} and {@code -} only, so that it is one topic level
 * @param name the name users give and see ({@code -tn}); no {@code *} or {@code ?}, which select
 *     templates in fteListTemplates
 * @param sourceAgent the source agent, or {@code null}
 * @param sourceQMgr the source agent's queue manager, or {@code null}
 * @param destinationAgent the destination agent, or {@code null}
 * @param destinationQMgr the destination agent's queue manager, or {@code null}
 * @param items the files ({@code <fileSpecs>}), possibly none
 * @param priority 0 (the default) to 9
 * @param recoveryTimeoutSeconds as {@link TransferSet#recoveryTimeoutSeconds()}; {@code null}
 *     when not given (OpenMFT's element: IBM publishes no template schema)
 * @param metadata user metadata, possibly empty (OpenMFT's element)
 * @param jobName the job name, or {@code null} (OpenMFT's element)
 */
public record TransferTemplate(String id, String name, String sourceAgent, String sourceQMgr, String destinationAgent,
        String destinationQMgr, List<TransferItem> items, int priority, Long recoveryTimeoutSeconds,
        Map<String, String> metadata, String jobName) {

    /** The version IBM's template documents carry. */
    public static final String VERSION = "4.00";

    private static final Pattern ID = Pattern.compile("[A-Za-z0-9._-]{1,128}");

    /** Validates and copies the collections. */
    public TransferTemplate {
        Objects.requireNonNull(id, "id");
        if (!ID.matcher(id).matches()) {
            throw new IllegalArgumentException("template id " + Checks.quote(id) + " is not valid; expected letters,"
                    + " digits, '.', '_' and '-' (IBM uses a UUID)");
        }
        name = Checks.name(name, "template name");
        if (name.indexOf('*') >= 0 || name.indexOf('?') >= 0) {
            throw new IllegalArgumentException("template name " + Checks.quote(name)
                    + " must not contain * or ?, which select templates by pattern");
        }
        sourceAgent = Checks.optionalName(sourceAgent, "sourceAgentName");
        sourceQMgr = Checks.optionalName(sourceQMgr, "sourceAgentQMgr");
        destinationAgent = Checks.optionalName(destinationAgent, "destinationAgentName");
        destinationQMgr = Checks.optionalName(destinationQMgr, "destinationAgentQMgr");
        items = List.copyOf(items);
        if (priority < 0 || priority > TransferSet.MAX_PRIORITY) {
            throw new IllegalArgumentException("priority " + priority + " is out of range 0-" + TransferSet.MAX_PRIORITY);
        }
        if (recoveryTimeoutSeconds != null && recoveryTimeoutSeconds < -1) {
            throw new IllegalArgumentException("recoveryTimeout " + recoveryTimeoutSeconds
                    + " is out of range; expected -1, 0 or a positive number of seconds");
        }
        Map<String, String> copy = new LinkedHashMap<>();
        metadata.forEach((key, value) -> copy.put(Checks.name(key, "metadata key"),
                Checks.xmlText(value, "value of metadata key " + Checks.quote(key))));
        metadata = Collections.unmodifiableMap(copy);
        jobName = Checks.optionalName(jobName, "job name");
    }

    /** @return a new template id: a random UUID, as IBM's */
    public static String newId() {
        return UUID.randomUUID().toString();
    }

    /**
     * The same template under another id and name, for replacing one template with another.
     *
     * @param newId the id
     * @return the copy
     */
    public TransferTemplate withId(String newId) {
        return new TransferTemplate(newId, name, sourceAgent, sourceQMgr, destinationAgent, destinationQMgr, items,
                priority, recoveryTimeoutSeconds, metadata, jobName);
    }
}
