package org.openmft.agent.transfer.source;

/**
 * The source transfer's control flow as exceptions (cheap: no stack traces), thrown from deep in
 * the sending loop when an answer changes what to send next.
 */
final class SourceSignals {
    private SourceSignals() {
    }

    /** A jump back: resend from {@link #seq}. */
    static final class Rewind extends Exception {
        private static final long serialVersionUID = 1L;
        final long seq;

        Rewind(long seq) {
            super(null, null, false, false);
            this.seq = seq;
        }
    }

    /** The destination already failed the item being sent: move on to the next one. */
    static final class SkipItem extends Exception {
        private static final long serialVersionUID = 1L;

        SkipItem() {
            super(null, null, false, false);
        }
    }
}
