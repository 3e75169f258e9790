package org.openmft.agent.lifecycle;

import java.util.List;

import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;

/** The events one class logs while a test runs, kept off the console: open it before, close it after. */
public final class CapturedLog implements AutoCloseable {
    private final Logger logger;
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>() {
        @Override
        protected void append(ILoggingEvent event) {
            // The MDC is read lazily: capture it on the logging thread.
            event.prepareForDeferredProcessing();
            super.append(event);
        }
    };
    private final boolean additive;

    public CapturedLog(Class<?> source) {
        logger = (Logger) LoggerFactory.getLogger(source);
        additive = logger.isAdditive();
        appender.start();
        logger.addAppender(appender);
        // Expected errors stay out of the console.
        logger.setAdditive(false);
    }

    /** What was logged so far, in order. */
    public List<ILoggingEvent> events() {
        synchronized (appender) { // AppenderBase.doAppend holds the same lock
            return List.copyOf(appender.list);
        }
    }

    @Override
    public void close() {
        logger.detachAppender(appender);
        logger.setAdditive(additive);
        appender.stop();
    }
}
