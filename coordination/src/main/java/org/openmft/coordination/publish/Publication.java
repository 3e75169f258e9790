package org.openmft.coordination.publish;

import java.util.Objects;

/**
 * One message for the {@code SYSTEM.FTE} topic of the coordination queue manager. Immutable.
 *
 * @param kind what it is, which decides how it is kept when publications cannot flow
 * @param topic the topic string, e.g. {@code SYSTEM.FTE/Log/AGENT1/414d...}
 * @param body the XML document
 * @param id a unique id (agent, agent start, sequence), used to drop duplicates
 */
public record Publication(Kind kind, String topic, String body, String id) {

    /** The kinds of publication and how each travels. */
    public enum Kind {
        /** Agent status: retained, persistent; only the newest one matters. */
        STATUS(true, true),
        /** Live progress: neither retained nor persistent; dropped rather than held. */
        PROGRESS(false, false),
        /** Transfer log: persistent, never dropped silently, kept in order. */
        LOG(false, true),
        /**
         * A retained document per topic that is not a status: a resource monitor's listing
         * ({@code SYSTEM.FTE/monitors/<agent>/<monitor>}) or an agent's ScheduleList
         * ({@code SYSTEM.FTE/Scheduler/<agent>}): retained, persistent, kept in order with the log
         * publications (a listing must not overtake the log of the change that made it) and never
         * coalesced, since each topic keeps its own newest one.
         */
        LISTING(true, true);

        private final boolean retained;
        private final boolean persistent;

        Kind(boolean retained, boolean persistent) {
            this.retained = retained;
            this.persistent = persistent;
        }

        /** Whether the queue manager keeps the newest publication of the topic for later subscribers. */
        public boolean retained() {
            return retained;
        }

        /** Whether the publication is a persistent message. */
        public boolean persistent() {
            return persistent;
        }
    }

    /** Checks for nulls. */
    public Publication {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(id, "id");
    }
}
