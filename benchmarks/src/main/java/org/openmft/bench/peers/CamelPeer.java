package org.openmft.bench.peers;

import org.openmft.bench.measure.CpuClock;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.component.file.GenericFileFilter;
import org.apache.camel.component.jms.JmsComponent;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.spi.CamelEvent;
import org.apache.camel.spi.StreamCachingStrategy;
import org.apache.camel.support.EventNotifierSupport;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.springframework.jms.connection.CachingConnectionFactory;

/**
 * An Apache Camel route file → JMS → file on the queue manager the agents use, as a Java team
 * would write it: {@code from("file:<in>?noop=true")} → {@code to("jms:queue:BENCH.CAMEL")}, and
 * {@code from("jms:queue:BENCH.CAMEL")} → {@code to("file:<out>")}, with camel-jms (Spring JMS)
 * over the project's Artemis connection factory behind a Spring {@code CachingConnectionFactory}.
 *
 * <p>What such a route does, and so what this measures: each file is one JMS message, persistent
 * (JMS's default), with no chunking, no checksum, no resume. With Camel's Artemis streaming
 * option a file larger than the client's minLargeMessageSize is streamed into the broker as an
 * Artemis large message (written to the broker's large-message directory) and, on the consuming
 * side, streamed into Camel's stream cache, which spools to disk beyond 128 KiB, before the file
 * producer copies it to its destination; smaller files travel as one in-memory BytesMessage.
 *
 * <p>Each {@link #copy} adds two routes for that call (the file consumer filtered to the given
 * names, and the JMS consumer writing into the destination directory), waits until Camel reports
 * every exchange of the JMS route complete (an event notifier counts them), and removes both.
 * Messages of an earlier call that failed are consumed and dropped. CPU is this JVM's, broker
 * included, as for the agents in bindings mode.
 */
final class CamelPeer implements Peer {
    static final String QUEUE = "BENCH.CAMEL";
    private static final String COPY_HEADER = "benchCopy";
    private static final String NAME_HEADER = "benchFileName";
    private static final String WRITTEN = "benchWritten";

    private final CamelContext camel;
    private final CachingConnectionFactory factory;
    private final AtomicReference<Completion> current = new AtomicReference<>();
    private int calls;

    /**
     * @param connector the agents' queue manager (its in-VM connector for bindings mode)
     * @param work      where Camel spools large message bodies
     */
    CamelPeer(QueueManagerConnector connector, Path work) throws Exception {
        factory = new CachingConnectionFactory(connector.factory());
        camel = new DefaultCamelContext();
        camel.setStreamCaching(true);
        StreamCachingStrategy caching = camel.getStreamCachingStrategy();
        caching.setSpoolEnabled(true);
        caching.setSpoolDirectory(Files.createDirectories(work.resolve("camel-spool")).toFile());
        JmsComponent jms = JmsComponent.jmsComponent(factory);
        jms.setArtemisStreamingEnabled(true);
        camel.addComponent("jms", jms);
        camel.getManagementStrategy().addEventNotifier(new EventNotifierSupport() {
            @Override
            public void notify(CamelEvent event) {
                Completion c = current.get();
                if (c != null && event instanceof CamelEvent.ExchangeEvent e) {
                    c.on(event, e.getExchange());
                }
            }

            @Override
            public boolean isEnabled(CamelEvent event) {
                return event instanceof CamelEvent.ExchangeCompletedEvent
                        || event instanceof CamelEvent.ExchangeFailedEvent;
            }
        });
        camel.start();
    }

    @Override
    public String id() {
        return "camel-jms";
    }

    @Override
    public String label() {
        return "Apache Camel " + camel.getVersion() + " route file → camel-jms (Spring JMS) → file, one persistent"
                + " message per file, same broker";
    }

    @Override
    public String unavailable() {
        return null;
    }

    @Override
    public Run copy(List<Path> sources, Path destinationDir, long timeoutMillis) throws Exception {
        long t0 = System.nanoTime();
        Path sourceDir = sources.isEmpty() ? null : sources.get(0).getParent();
        Set<String> names = new HashSet<>();
        for (Path p : sources) {
            if (!Files.isRegularFile(p)) {
                return new Run(System.nanoTime() - t0, -1, "camel-jms: no such file " + p);
            }
            if (!p.getParent().equals(sourceDir)) {
                return new Run(System.nanoTime() - t0, -1, "camel-jms: the route reads one directory, and "
                        + p + " is not in " + sourceDir);
            }
            names.add(p.getFileName().toString());
        }
        if (names.isEmpty()) {
            return new Run(0, 0, null);
        }
        String id = "copy-" + ++calls;
        Completion completion = new Completion(id, names.size());
        current.set(completion);
        String filter = id + "-filter";
        camel.getRegistry().bind(filter, GenericFileFilter.class,
                (GenericFileFilter<Object>) f -> f.isDirectory() || names.contains(f.getFileNameOnly()));
        RouteBuilder routes = new RouteBuilder() {
            @Override
            public void configure() {
                from("jms:queue:" + QUEUE).routeId(id + "-out")
                        .filter(header(COPY_HEADER).isEqualTo(id))
                            .setHeader(Exchange.FILE_NAME, header(NAME_HEADER))
                            .to(fileUri(destinationDir))
                            .setProperty(WRITTEN, constant(true))
                        .end();
                from(fileUri(sourceDir) + "?noop=true&initialDelay=0&delay=200&maxMessagesPerPoll=0&recursive=false"
                        + "&filter=#" + filter).routeId(id + "-in")
                        .setHeader(COPY_HEADER, constant(id))
                        .setHeader(NAME_HEADER, header(Exchange.FILE_NAME_ONLY))
                        .to("jms:queue:" + QUEUE);
            }
        };
        long cpu0 = CpuClock.processCpuNanos();
        try {
            camel.addRoutes(routes);
            String failure = completion.await(timeoutMillis);
            long wall = System.nanoTime() - t0;
            long cpu1 = CpuClock.processCpuNanos();
            return new Run(wall, failure != null || cpu0 < 0 ? -1 : cpu1 - cpu0, failure);
        } catch (Exception e) {
            return new Run(System.nanoTime() - t0, -1, "camel-jms: " + e);
        } finally {
            current.set(null);
            for (String route : List.of(id + "-in", id + "-out")) {
                camel.getRouteController().stopRoute(route, 10, TimeUnit.SECONDS);
                camel.removeRoute(route);
            }
            camel.getRegistry().unbind(filter);
        }
    }

    private static String fileUri(Path dir) {
        return "file:" + dir.toAbsolutePath();
    }

    /** The exchanges of one call: counts the files written, keeps the first failure. */
    private static final class Completion {
        private final String id;
        private final CountDownLatch written;
        private final AtomicReference<String> failure = new AtomicReference<>();

        Completion(String id, int files) {
            this.id = id;
            this.written = new CountDownLatch(files);
        }

        void on(CamelEvent event, Exchange exchange) {
            String route = exchange.getFromRouteId();
            if (route == null || !route.startsWith(id + "-")) {
                return;
            }
            if (event instanceof CamelEvent.ExchangeFailedEvent || exchange.isFailed()) {
                Exception e = exchange.getException();
                failure.compareAndSet(null, "camel-jms: route " + route + " failed on "
                        + exchange.getIn().getHeader(Exchange.FILE_NAME, String.class) + ": "
                        + (e == null ? "unknown" : e.toString()));
                while (written.getCount() > 0) {
                    written.countDown();
                }
            } else if (Boolean.TRUE.equals(exchange.getProperty(WRITTEN, Boolean.class))) {
                written.countDown();
            }
        }

        /** Null when every file was written, else why not. */
        String await(long timeoutMillis) throws InterruptedException {
            if (!written.await(timeoutMillis, TimeUnit.MILLISECONDS)) {
                return "camel-jms: " + written.getCount() + " files not written within " + timeoutMillis / 1000
                        + " s";
            }
            return failure.get();
        }
    }

    @Override
    public void close() {
        try {
            camel.close();
        } catch (Exception e) {
            // Closing at the end of the run: nothing to do about it.
        } finally {
            factory.destroy();
        }
    }
}
