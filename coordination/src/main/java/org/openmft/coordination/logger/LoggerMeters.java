package org.openmft.coordination.logger;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * A logger's meters, all tagged {@code logger} by the registry: a {@link LogStore} in front of the
 * real one times and counts what it stores, and the {@link LogSubscriber}'s own counters are read
 * on each scrape.
 * <ul>
 * <li>{@code openmft_logger_publications_total{type,status}}: records the store took, by
 * {@code type} ({@code transfer}, {@code schedule}, {@code monitor}, {@code not_authorized}) and
 * {@code status} ({@code stored}, or {@code duplicate}: stored before, nothing changed);</li>
 * <li>{@code openmft_logger_rejected_total}: records put on the reject queue (unreadable, or
 * refused by the store); {@code openmft_logger_reject_limit_reached_total}: transactions rolled
 * back because too many were refused in a row;</li>
 * <li>{@code openmft_logger_store_failures_total}: batches the store could not take (the database
 * was unavailable; the batch is rolled back and retried);</li>
 * <li>{@code openmft_logger_store_seconds} (count, sum, max): how long each batch took to be
 * written and made durable;</li>
 * <li>{@code openmft_logger_publication_lag_seconds} (count, sum, max): from a record's time (the
 * time its agent wrote in it) to its storage, for each record stored; clocks of other hosts make
 * it approximate, and a negative difference counts as 0;</li>
 * <li>{@code openmft_logger_connected}: 1 while the logger's subscription is open.</li>
 * </ul>
 *
 * <p>Thread-safe; no state beyond the meters.
 */
public final class LoggerMeters extends ForwardingLogStore {
    private final MeterRegistry registry;
    private final Clock clock;
    private final Timer storeTime;
    private final Timer lag;
    private final Counter failures;

    /**
     * @param store    the logger's store, which this one passes everything to (and closes)
     * @param registry where the meters go; its common tags name the logger
     * @param clock    for the lag and the write time
     */
    public LoggerMeters(LogStore store, MeterRegistry registry, Clock clock) {
        super(store);
        this.registry = registry;
        this.clock = clock;
        storeTime = Timer.builder("openmft.logger.store")
                .description("Time to write a batch of records and make it durable").register(registry);
        lag = Timer.builder("openmft.logger.publication.lag")
                .description("Time from a record's own time to its storage").register(registry);
        failures = Counter.builder("openmft.logger.store.failures")
                .description("Batches the store could not take (rolled back and retried)").register(registry);
        for (String type : List.of("transfer", "schedule", "monitor", "not_authorized")) {
            for (StoreOutcome.Status status : List.of(StoreOutcome.Status.STORED, StoreOutcome.Status.DUPLICATE)) {
                publications(type, status);
            }
        }
    }

    /** Reads the subscriber's counters and state on each scrape. */
    public void watch(LogSubscriber subscriber) {
        FunctionCounter.builder("openmft.logger.rejected", subscriber, LogSubscriber::rejected)
                .description("Records put on the reject queue").register(registry);
        FunctionCounter.builder("openmft.logger.reject.limit.reached", subscriber, LogSubscriber::rejectLimitReached)
                .description("Transactions rolled back because too many records in a row were refused")
                .register(registry);
        Gauge.builder("openmft.logger.connected", subscriber, s -> s.connected() ? 1 : 0)
                .description("1 while the logger's subscription is open, else 0").register(registry);
    }

    @Override
    public List<StoreOutcome> storeAll(List<LogRecord> records) throws LogStoreException {
        long start = System.nanoTime();
        List<StoreOutcome> outcomes;
        try {
            outcomes = delegate.storeAll(records);
        } catch (LogStoreException | RuntimeException e) {
            failures.increment();
            throw e;
        }
        storeTime.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        Instant now = clock.instant();
        for (int i = 0; i < outcomes.size() && i < records.size(); i++) {
            LogRecord r = records.get(i);
            StoreOutcome.Status status = outcomes.get(i).status();
            if (status == StoreOutcome.Status.REJECTED) {
                continue; // counted by the subscriber, with the records it could not read
            }
            publications(type(r), status).increment();
            Instant time = time(r);
            if (status == StoreOutcome.Status.STORED && time != null) {
                lag.record(Duration.between(time, now).isNegative() ? Duration.ZERO : Duration.between(time, now));
            }
        }
        return outcomes;
    }

    private Counter publications(String type, StoreOutcome.Status status) {
        return Counter.builder("openmft.logger.publications").tag("type", type)
                .tag("status", status.name().toLowerCase(java.util.Locale.ROOT))
                .description("Records the store took, by type and status").register(registry);
    }

    /** The kind of record, as the {@code type} tag says it. */
    static String type(LogRecord r) {
        if (r.log() != null) {
            return "transfer";
        }
        if (r.schedule() != null) {
            return "schedule";
        }
        return r.monitor() != null ? "monitor" : "not_authorized";
    }

    /** The time the record's agent wrote in it, or null. */
    private static Instant time(LogRecord r) {
        if (r.log() != null) {
            return r.log().time();
        }
        if (r.schedule() != null) {
            return r.schedule().time();
        }
        return r.monitor() != null ? r.monitor().time() : r.refusal().time();
    }
}
