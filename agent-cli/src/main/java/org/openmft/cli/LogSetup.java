package org.openmft.cli;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.function.Supplier;

import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.rolling.FixedWindowRollingPolicy;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeBasedTriggeringPolicy;
import ch.qos.logback.core.spi.FilterReply;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.util.FileSize;

/**
 * Logging for the {@code mft} process. Commands log warnings to the console only; daemons write
 * IBM MFT's agent log layout: {@code output0.log} is the current file, rolled to
 * {@code output1.log} … {@code output<N-1>.log} when it reaches its size ({@code outputLogFiles},
 * {@code outputLogSize}).
 *
 * <p>How events are written is chosen by two system properties, given like every JVM option
 * through {@code BFG_JVM_PROPERTIES} and so inherited by the daemons a command spawns:
 * {@value #FORMAT_PROPERTY} ({@code text}, the default, or {@code json}: one JSON object a line,
 * by logback's own {@link JsonEncoder}) and {@value #PATTERN_PROPERTY} (a logback pattern for
 * text); or by the environment variables {@value #FORMAT_ENV} and {@value #PATTERN_ENV}, which a
 * spawned daemon inherits too and which, unlike the launcher's word-split
 * {@code BFG_JVM_PROPERTIES}, can hold a pattern with spaces. A property wins over its variable.
 * {@link #applyFormat} runs once, before any command, and refuses what it cannot honour.
 */
final class LogSetup {
    /** The system property that chooses the log format: {@code text} or {@code json}. */
    static final String FORMAT_PROPERTY = "openmft.log.format";
    /** The system property that sets the logback pattern of text logs, console and files alike. */
    static final String PATTERN_PROPERTY = "openmft.log.pattern";
    /** The environment variable for the format, when {@value #FORMAT_PROPERTY} is not given. */
    static final String FORMAT_ENV = "OPENMFT_LOG_FORMAT";
    /** The environment variable for the pattern, when {@value #PATTERN_PROPERTY} is not given. */
    static final String PATTERN_ENV = "OPENMFT_LOG_PATTERN";
    private static final String FILE_PATTERN =
            "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} [%thread] %-5level %logger{30} - %msg%n";
    private static final String CONSOLE_PATTERN = "%d{HH:mm:ss.SSS} %-5level %logger{0} - %msg%n";

    /** Makes the encoder of each daemon log file; set by {@link #applyFormat}. */
    private static volatile Supplier<Encoder<ILoggingEvent>> fileEncoders = () -> textEncoder(FILE_PATTERN);

    private LogSetup() {
    }

    /**
     * Applies {@value #FORMAT_PROPERTY} and {@value #PATTERN_PROPERTY} from {@code properties}, or
     * else {@value #FORMAT_ENV} and {@value #PATTERN_ENV} from {@code env}, to the console and to
     * every daemon log file added from now on.
     *
     * @throws IllegalArgumentException naming the setting and what it accepts, when a value cannot
     *         be honoured: an unknown format, a pattern logback cannot parse, or a pattern with
     *         the JSON format (which has no pattern); the process must not start then
     */
    static void applyFormat(Properties properties, Map<String, String> env) {
        String formatName = properties.containsKey(FORMAT_PROPERTY) ? FORMAT_PROPERTY : FORMAT_ENV;
        String given = properties.getProperty(FORMAT_PROPERTY, env.get(FORMAT_ENV));
        String format = given == null ? "text" : given.trim().toLowerCase(Locale.ROOT);
        String pattern = properties.getProperty(PATTERN_PROPERTY, env.get(PATTERN_ENV));
        switch (format) {
            case "text" -> {
                if (pattern != null) {
                    checkPattern(pattern);
                }
                fileEncoders = () -> textEncoder(pattern == null ? FILE_PATTERN : pattern);
                setConsoleEncoder(textEncoder(pattern == null ? CONSOLE_PATTERN : pattern));
            }
            case "json" -> {
                if (pattern != null) {
                    throw new IllegalArgumentException(PATTERN_PROPERTY + " (" + PATTERN_ENV + ") applies to text"
                            + " logs only, and " + formatName + "=json writes logback's JSON fields: leave one of"
                            + " them out");
                }
                fileEncoders = LogSetup::jsonEncoder;
                setConsoleEncoder(jsonEncoder());
            }
            default -> throw new IllegalArgumentException(formatName + "=" + given
                    + " is not a log format: use text (the default) or json");
        }
    }

    /** Refuses a pattern that logback reports errors for (it would print %PARSER_ERROR instead). */
    private static void checkPattern(String pattern) {
        LoggerContext ctx = context();
        int before = ctx.getStatusManager().getCopyOfStatusList().size();
        PatternLayoutEncoder probe = textEncoder(pattern);
        probe.stop();
        var problems = ctx.getStatusManager().getCopyOfStatusList().stream().skip(before)
                .filter(s -> s.getEffectiveLevel() >= Status.ERROR).map(Status::getMessage).toList();
        if (!problems.isEmpty() || pattern.isBlank()) {
            throw new IllegalArgumentException(PATTERN_PROPERTY + " (" + PATTERN_ENV + ") " + pattern
                    + " is not a logback pattern"
                    + (problems.isEmpty() ? "" : ": " + String.join("; ", problems)));
        }
    }

    private static PatternLayoutEncoder textEncoder(String pattern) {
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context());
        encoder.setPattern(pattern);
        encoder.start();
        return encoder;
    }

    /** Logback's JSON lines, with the message also formatted (its arguments in place) for people. */
    private static JsonEncoder jsonEncoder() {
        JsonEncoder encoder = new JsonEncoder();
        encoder.setContext(context());
        encoder.setWithFormattedMessage(true);
        encoder.start();
        return encoder;
    }

    private static void setConsoleEncoder(Encoder<ILoggingEvent> encoder) {
        if (root().getAppender("CONSOLE") instanceof OutputStreamAppender<ILoggingEvent> console) {
            console.stop();
            console.setEncoder(encoder);
            console.start();
        }
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

        Encoder<ILoggingEvent> encoder = fileEncoders.get();

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
