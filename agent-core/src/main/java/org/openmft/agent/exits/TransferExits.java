package org.openmft.agent.exits;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import org.openmft.agent.config.AgentConfig;
import org.openmft.agent.config.ConfigurationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's transfer exits, loaded once at its start: the jars of its {@code exits} directory
 * (beside agent.properties) and {@code exitClassPath} (directories and jars) make one class loader
 * whose parent is the agent's own, and each class named by {@code sourceTransferStartExitClasses}
 * and its siblings is instantiated with its public no-argument constructor. A class that cannot be
 * found, does not implement the key's interface or cannot be made stops the agent at its start
 * (exit 78): an exit asked for and not run would fail open. Immutable once loaded; exits are called
 * from the transfers' threads and the DATA thread, so an exit with state must be thread-safe.
 */
public final class TransferExits {
    private static final Logger log = LoggerFactory.getLogger(TransferExits.class);
    private static final TransferExits NONE = new TransferExits(Map.of(), List.of(), List.of(), List.of(), List.of());

    private final Map<String, String> environment;
    private final List<SourceTransferStartExit> sourceStart;
    private final List<SourceTransferEndExit> sourceEnd;
    private final List<DestinationTransferStartExit> destinationStart;
    private final List<DestinationTransferEndExit> destinationEnd;

    private TransferExits(Map<String, String> environment, List<SourceTransferStartExit> sourceStart, List<SourceTransferEndExit> sourceEnd,
            List<DestinationTransferStartExit> destinationStart, List<DestinationTransferEndExit> destinationEnd) {
        this.environment = Map.copyOf(environment);
        this.sourceStart = List.copyOf(sourceStart);
        this.sourceEnd = List.copyOf(sourceEnd);
        this.destinationStart = List.copyOf(destinationStart);
        this.destinationEnd = List.copyOf(destinationEnd);
    }

    /** No exit. */
    public static TransferExits none() {
        return NONE;
    }

    /**
     * Loads the exits the configuration names.
     *
     * @throws ConfigurationException naming the key and the class that cannot be loaded, and why
     */
    public static TransferExits load(AgentConfig config) throws ConfigurationException {
        Map<String, List<String>> named = config.transferExitClasses();
        if (named.isEmpty()) {
            return NONE;
        }
        Optional<Path> exitsDirectory = config.configDirectory().map(d -> d.resolve("exits"));
        List<URL> urls = new ArrayList<>();
        try {
            if (exitsDirectory.isPresent() && Files.isDirectory(exitsDirectory.get())) {
                try (Stream<Path> jars = Files.list(exitsDirectory.get())) {
                    for (Path jar : jars.filter(p -> p.getFileName().toString().endsWith(".jar")).sorted().toList()) {
                        urls.add(jar.toUri().toURL());
                    }
                }
            }
            for (String entry : config.exitClassPath().orElse("").split(File.pathSeparator)) {
                if (!entry.isBlank()) {
                    urls.add(Path.of(entry.strip()).toAbsolutePath().toUri().toURL());
                }
            }
        } catch (IOException e) {
            throw new ConfigurationException("the exit classes cannot be loaded: " + e.getMessage(), e);
        }
        String where = "the agent's exits directory" + exitsDirectory.map(d -> " (" + d + ")").orElse("")
                + " and exitClassPath=" + config.exitClassPath().orElse("");
        ClassLoader loader = new URLClassLoader("openmft-exits-" + config.agentName(), urls.toArray(URL[]::new),
                TransferExits.class.getClassLoader());
        TransferExits exits = new TransferExits(environment(config.agentName()),
                make(loader, named, "sourceTransferStartExitClasses", SourceTransferStartExit.class, where),
                make(loader, named, "sourceTransferEndExitClasses", SourceTransferEndExit.class, where),
                make(loader, named, "destinationTransferStartExitClasses", DestinationTransferStartExit.class, where),
                make(loader, named, "destinationTransferEndExitClasses", DestinationTransferEndExit.class, where));
        log.info("Agent {}: transfer exits loaded: {}", config.agentName(), named);
        return exits;
    }

    private static <T> List<T> make(ClassLoader loader, Map<String, List<String>> named, String key, Class<T> type,
            String where) throws ConfigurationException {
        List<T> result = new ArrayList<>();
        for (String name : named.getOrDefault(key, List.of())) {
            String why;
            try {
                Class<?> c = Class.forName(name, true, loader);
                if (!type.isAssignableFrom(c)) {
                    why = "it does not implement " + type.getName();
                } else {
                    result.add(type.cast(c.getConstructor().newInstance()));
                    continue;
                }
            } catch (ClassNotFoundException | NoClassDefFoundError e) {
                why = "it is not found in " + where;
            } catch (NoSuchMethodException e) {
                why = "it has no public constructor without arguments";
            } catch (InvocationTargetException e) {
                why = "its constructor failed: " + e.getCause();
            } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
                why = e.toString();
            }
            throw new ConfigurationException(key + ": the exit class '" + name + "' cannot be loaded: " + why
                    + "; the agent does not start without the exits its configuration names", key, name);
        }
        return result;
    }

    /** Whether a start or end exit of either side is configured. */
    public boolean any() {
        return !(sourceStart.isEmpty() && sourceEnd.isEmpty() && destinationStart.isEmpty() && destinationEnd.isEmpty());
    }

    /** Calls the source start exits in order; the first cancel (or exception) wins. */
    public TransferExitResult sourceStart(TransferExitContext transfer) {
        for (SourceTransferStartExit e : sourceStart) {
            TransferExitResult r = decide(e.getClass().getName(), () -> e.onSourceTransferStart(transfer));
            if (!r.proceed()) {
                return r;
            }
        }
        return TransferExitResult.PROCEED;
    }

    /** Calls the destination start exits in order; the first cancel (or exception) wins. */
    public TransferExitResult destinationStart(TransferExitContext transfer) {
        for (DestinationTransferStartExit e : destinationStart) {
            TransferExitResult r = decide(e.getClass().getName(), () -> e.onDestinationTransferStart(transfer));
            if (!r.proceed()) {
                return r;
            }
        }
        return TransferExitResult.PROCEED;
    }

    /** Calls the source end exits; what they throw is logged. */
    public void sourceEnd(TransferExitContext transfer, int resultCode, String supplement) {
        for (SourceTransferEndExit e : sourceEnd) {
            tell(e.getClass().getName(), transfer, () -> e.onSourceTransferEnd(transfer, resultCode, supplement));
        }
    }

    /** Calls the destination end exits; what they throw is logged. */
    public void destinationEnd(TransferExitContext transfer, int resultCode, String supplement) {
        for (DestinationTransferEndExit e : destinationEnd) {
            tell(e.getClass().getName(), transfer, () -> e.onDestinationTransferEnd(transfer, resultCode, supplement));
        }
    }

    private static TransferExitResult decide(String exit, java.util.function.Supplier<TransferExitResult> call) {
        try {
            TransferExitResult r = call.get();
            return r == null ? TransferExitResult.cancel("the user exit " + exit + " returned no result") : r;
        } catch (RuntimeException | LinkageError e) {
            log.warn("The user exit {} failed; the transfer is cancelled", exit, e);
            return TransferExitResult.cancel("the user exit " + exit + " failed: " + e);
        }
    }

    private static void tell(String exit, TransferExitContext transfer, Runnable call) {
        try {
            call.run();
        } catch (RuntimeException | LinkageError e) {
            log.warn("Transfer {}: the user exit {} failed", transfer.transferId(), exit, e);
        }
    }

    /** The environment metadata exits are given: the agent's name, host and operating system. */
    public Map<String, String> environment() {
        return environment;
    }

    private static Map<String, String> environment(String agentName) {
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            host = "localhost";
        }
        return Map.of("agentName", agentName, "hostName", host, "operatingSystem", System.getProperty("os.name"));
    }
}
