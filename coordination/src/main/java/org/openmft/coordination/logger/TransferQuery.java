package org.openmft.coordination.logger;

import java.util.Locale;
import java.util.Optional;

/**
 * Which stored transfers {@link LogStore#transfers} returns: those of an agent (as source or
 * destination), in a state, newest first, at most {@code limit}. Immutable; build it with
 * {@link #latest(int)} and the {@code with...} methods.
 *
 * @param agent the agent that must be the source or the destination, compared without regard to
 *     case; {@code null} for any
 * @param state the state the transfer must be in; {@code null} for any
 * @param limit how many transfers at most, from 1 to {@value #MAX_LIMIT}
 */
public record TransferQuery(String agent, TransferState state, int limit) {

    /** The largest limit. */
    public static final int MAX_LIMIT = 100_000;

    /** Checks the limit; a blank agent means any. */
    public TransferQuery {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be from 1 to " + MAX_LIMIT + ": " + limit);
        }
        if (agent != null && agent.isBlank()) {
            agent = null;
        }
    }

    /**
     * The newest transfers of any agent in any state.
     *
     * @param limit how many at most
     * @return the query
     */
    public static TransferQuery latest(int limit) {
        return new TransferQuery(null, null, limit);
    }

    /**
     * Only the transfers of an agent.
     *
     * @param agentName the source or destination agent, any case
     * @return a copy with the agent filter
     */
    public TransferQuery withAgent(String agentName) {
        return new TransferQuery(agentName, state, limit);
    }

    /**
     * Only the transfers in a state.
     *
     * @param transferState the state
     * @return a copy with the state filter
     */
    public TransferQuery withState(TransferState transferState) {
        return new TransferQuery(agent, transferState, limit);
    }

    /**
     * The agent filter upper-cased, as agent names are compared.
     *
     * @return the agent, if filtered on
     */
    Optional<String> agentUpperCase() {
        return Optional.ofNullable(agent).map(a -> a.toUpperCase(Locale.ROOT));
    }
}
