package org.openmft.agent.transfer.state;

import org.openmft.agent.transfer.protocol.TransferIds;

/**
 * Transfer ids where they become file names and JMS selectors: only ids of IBM's shape (48
 * lower-case hex characters, {@link TransferIds#isValid}) get there, so that an id from a record
 * or from the wire such as {@code /home/mft/x} or {@code ' OR mftRole='S} names no file outside
 * the state directory and changes no selector. Stateless.
 */
public final class StateIds {
    private StateIds() {
    }

    /**
     * Refuses an id that is not a transfer id.
     *
     * @param id   the id
     * @param what what it was going to be used for, for the message
     * @throws StateException naming the id, escaped
     */
    public static void require(String id, String what) throws StateException {
        if (!TransferIds.isValid(id)) {
            throw new StateException(invalid(id, what), null);
        }
    }

    /** {@link #require} for callers that cannot throw a checked exception: a programming error. */
    static String checked(String id, String what) {
        if (!TransferIds.isValid(id)) {
            throw new IllegalArgumentException(invalid(id, what));
        }
        return id;
    }

    private static String invalid(String id, String what) {
        return "refused to " + what + " for transfer id " + TransferIds.printable(id)
                + ": a transfer id is 48 lower-case hexadecimal characters";
    }
}
