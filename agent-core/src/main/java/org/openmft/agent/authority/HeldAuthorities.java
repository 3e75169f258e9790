package org.openmft.agent.authority;

import java.util.Set;

/**
 * What the sender of one message holds on one agent's authority queues, as its queue manager
 * decides. Asked only for the authority an action needs: on IBM MQ each answer costs an open of an
 * authority queue.
 */
@FunctionalInterface
public interface HeldAuthorities {
    /** Holds nothing: a message no queue manager vouched for. */
    HeldAuthorities NONE = authority -> false;

    /**
     * @param authority an authority
     * @return whether the sender holds it
     */
    boolean holds(Authority authority);

    /**
     * @param authorities what the sender holds
     * @return a view of them
     */
    static HeldAuthorities of(Set<Authority> authorities) {
        Set<Authority> copy = Set.copyOf(authorities);
        return copy::contains;
    }
}
