package org.openmft.cli;

import java.nio.file.Path;

import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.rolling.FixedWindowRollingPolicy;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeBasedTriggeringPolicy;
import ch.qos.logback.core.spi.FilterReply;
import ch.qos.logback.core.util.FileSize;

/**
 * Logging for the {@code mft} process. Commands log warnings to the console only; daemons write
 * IBM MFT's agent log layout: {@code output0.log} is the current file, rolled to
 * {@code output1.log} … {@code output<N-1>.log} when it reaches its size ({@code outputLogFiles},
 * {@code outputLogSize}).
 */
final class LogSetup {
    private static final String PATTERN =
            "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} [%thread] %-5level %logger{30} - %msg%n";

    private LogSetup() {
    }

    /**
     * Sets what the console shows: WARN for commands, INFO for daemons in the foreground, DEBUG
     * with {@code -v}. File appenders are not affected.
     */
    static void consoleLevel(Level level) {
        Appender<ILoggingEvent> console = root().getAppender("CONSOLE");
        if (console == null) {
            return;
        }
        console.clearAllFilters();
        ch.qos.logback.classic.filter.ThresholdFilter threshold = new ch.qos.logback.classic.filter.ThresholdFilter();
        threshold.setLevel(level.toString());
        threshold.start();
        console.addFilter(threshold);
        if (level.toInt() <= Level.DEBUG_INT) {
            context().getLogger("org.openmft").setLevel(Level.DEBUG);
        }
    }

    /**
     * Adds a rolling file appender for a daemon's log directory.
     *
     * @param agent      the agent whose events go to this file (by the MDC key the agent's threads
     *                   set), or null for a file that takes every event that names no agent
     * @param files      how many files to keep, the current one included (at least 2 are kept)
     * @param sizeMb     the size at which the current file rolls, in MB
     */
    static Appender<ILoggingEvent> addDaemonLog(Path directory, String agent, int files, int sizeMb) {
        LoggerContext ctx = context();
        RollingFileAppender<ILoggingEvent> appender = new RollingFileAppender<>();
        appender.setContext(ctx);
        appender.setName("file-" + (agent == null ? "host" : agent));
        appender.setFile(directory.resolve("output0.log").toString());

        FixedWindowRollingPolicy rolling = new FixedWindowRollingPolicy();
        rolling.setContext(ctx);
        rolling.setParent(appender);
        rolling.setFileNamePattern(directory.resolve("output%i.log").toString());
        rolling.setMinIndex(1);
        rolling.setMaxIndex(Math.max(1, files - 1));
        rolling.start();

        SizeBasedTriggeringPolicy<ILoggingEvent> trigger = new SizeBasedTriggeringPolicy<>();
        trigger.setContext(ctx);
        trigger.setMaxFileSize(FileSize.valueOf(Math.max(1, sizeMb) + "MB"));
        trigger.start();

        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(ctx);
        encoder.setPattern(PATTERN);
        encoder.start();

        appender.setRollingPolicy(rolling);
        appender.setTriggeringPolicy(trigger);
        appender.setEncoder(encoder);
        appender.addFilter(new Filter<>() {
            @Override
            public FilterReply decide(ILoggingEvent event) {
                String tagged = event.getMDCPropertyMap().get(org.openmft.agent.Agent.MDC_AGENT);
                boolean mine = agent == null ? tagged == null : agent.equals(tagged);
                return mine ? FilterReply.NEUTRAL : FilterReply.DENY;
            }
        });
        appender.start();
        root().addAppender(appender);
        return appender;
    }

    /** Removes and stops an appender added by {@link #addDaemonLog}. */
    static void remove(Appender<ILoggingEvent> appender) {
        root().detachAppender(appender);
        appender.stop();
    }

    private static Logger root() {
        return context().getLogger(Logger.ROOT_LOGGER_NAME);
    }

    private static LoggerContext context() {
        return (LoggerContext) LoggerFactory.getILoggerFactory();
    }
}
