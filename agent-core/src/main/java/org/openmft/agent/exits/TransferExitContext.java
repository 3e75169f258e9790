package org.openmft.agent.exits;

import java.util.List;
import java.util.Map;

/**
 * What an exit is told about a transfer. Read-only: the maps and lists are unmodifiable.
 *
 * @param transferId the transfer's id (48 hex characters)
 * @param sourceAgent the source agent's name
 * @param destinationAgent the destination agent's name
 * @param environment about the agent calling the exit: {@code agentName}, {@code hostName},
 *     {@code operatingSystem}
 * @param metadata the transfer's metadata ({@code <metaDataSet>}, {@code -md}), at the source; empty
 *     at the destination, which is not told it
 * @param files the transfer's files: at the source, its planned items (source to destination path);
 *     at a destination's start, empty (the files arrive one by one); at an end, the items with a result
 */
public record TransferExitContext(String transferId, String sourceAgent, String destinationAgent,
        Map<String, String> environment, Map<String, String> metadata, List<File> files) {

    /** One file of the transfer. */
    public record File(String source, String destination) {
    }

    /** Copies the collections. */
    public TransferExitContext {
        environment = Map.copyOf(environment);
        metadata = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(metadata));
        files = List.copyOf(files);
    }
}
