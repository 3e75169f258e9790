package org.openmft.agent.metrics;

/**
 * What an agent's publisher (coordination's {@code CoordinationPublisher}) tells the metrics: how
 * many status and log publications wait to be sent. A seam so that this module need not know the
 * coordination module that depends on it.
 */
@FunctionalInterface
public interface PublicationBacklog {
    /** Publications waiting to be sent (held in memory); called on a scrape, must be cheap. */
    int publicationsWaiting();
}
