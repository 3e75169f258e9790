package org.openmft.cli;

import org.slf4j.Marker;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;

/**
 * Drops Artemis's AMQ222166 ("No Expiry Address configured for queue ...") warning, which the
 * broker logs for every queue it creates (seven per agent, one per temporary reply queue). OpenMFT
 * configures no expiry address on purpose: expired chunks and requests are meant to be dropped
 * (see {@code docs/architecture.md}). Every other message passes.
 */
public final class ArtemisNoiseFilter extends TurboFilter {
    /** The message id dropped. */
    static final String NO_EXPIRY_ADDRESS = "AMQ222166";

    @Override
    public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params,
            Throwable t) {
        if (format != null && format.startsWith(NO_EXPIRY_ADDRESS) && logger != null
                && logger.getName().startsWith("org.apache.activemq.artemis")) {
            return FilterReply.DENY;
        }
        return FilterReply.NEUTRAL;
    }
}
