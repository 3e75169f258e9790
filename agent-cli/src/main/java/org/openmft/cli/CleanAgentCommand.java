package org.openmft.cli;

import java.io.Console;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;

import org.openmft.agent.config.AgentConfig;
import org.openmft.agent.config.DataDirectory;
import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.messaging.ArtemisQueueAdmin;
import org.openmft.agent.messaging.ProviderErrors;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.DirectoryLock;
import org.openmft.agent.qmgr.QueueManagerException;
import org.openmft.agent.scheduler.EventQueueSchedules;
import org.openmft.agent.transfer.state.StateTag;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code mft agent clean} ({@code fteCleanAgent}): with the agent stopped, removes what it would
 * otherwise pick up again when it starts: in-flight transfer state ({@code -trs}: the STATE, DATA
 * and REPLY queues and the state directory {@code logs/<coordQM>/agents/<AGENT>/state}), command
 * messages it could not parse ({@code -ims}: CMD.RJCT), resource monitors ({@code -ms}: their
 * records on EVENT, and their listings, see {@link MonitorCleaning}), scheduled transfers
 * ({@code -ss}: their records on EVENT), or all of it and the requests waiting on its COMMAND queue ({@code -all}).
 * The publication outbox (PUBLISH) is never touched: it holds log records loggers still expect.
 *
 * <p>The agent's directory lock is held while cleaning, so the agent cannot start meanwhile; a
 * running agent is refused. As IBM's command does since MQ 9.0.3, it refuses to guess what to
 * clean when no flag says so.
 */
@Command(name = "clean", aliases = "fteCleanAgent", mixinStandardHelpOptions = true,
        description = {"Clean a stopped agent's queues (fteCleanAgent): transfers that were in flight when it"
                + " stopped are thrown away and do not resume when it starts again. Use it when an agent cannot"
                + " start because of a broken transfer, or when told to.",
                "Asks for confirmation on a terminal unless -f is given; never asks in scripts."},
        footer = {"", "Examples:",
                "  fteCleanAgent -trs AGENT1          remove in-flight transfers",
                "  fteCleanAgent -ims -f AGENT1       remove rejected command messages, without asking",
                "  mft agent clean -all -f AGENT1     everything, including requests not yet read",
                "", "Exit codes: 0 cleaned, 1 refused (agent running, nothing selected, not confirmed), 75 queue"
                        + " manager unavailable, 78 agent not configured."})
final class CleanAgentCommand implements Callable<Integer> {
    @Mixin GlobalOptions global;
    @Parameters(index = "0", paramLabel = "AGENT", description = "The agent to clean; it must be stopped.")
    String agent;
    @Option(names = "-trs", description = "Transfers: in-flight and queued transfer state (STATE, DATA and REPLY"
            + " queues, and the agent's state directory).")
    boolean transfers;
    @Option(names = "-ims", description = "Invalid messages: command messages the agent rejected (CMD.RJCT queue).")
    boolean invalidMessages;
    @Option(names = "-ms", description = "Resource monitors: their definitions and history (their records on the"
            + " EVENT queue), and their listings on the coordination queue manager.") boolean monitors;
    @Option(names = "-ss", description = "Scheduled transfers (their records on the EVENT queue).") boolean schedules;
    @Option(names = "-all", description = "Everything -trs, -ims, -ms and -ss clean, and the requests waiting on"
            + " the COMMAND queue.")
    boolean all;
    @Option(names = "-f", description = "Do not ask for confirmation.") boolean force;
    @Option(names = "-p", description = "Configuration options set.") String configurationOptions;

    @Override
    public Integer call() throws Exception {
        Mft.prepare(global);
        String name = AgentCommands.validName(agent);
        if (!(transfers || invalidMessages || monitors || schedules || all)) {
            throw new CommandFailure(ExitCodes.FAILED, "BFGCL0410E: say what to clean from agent " + name
                    + ": -trs (transfers), -ims (invalid messages), -ms (monitors), -ss (scheduled transfers) or"
                    + " -all");
        }
        DataDirectory dd = global.dataDirectory();
        String coordination = global.configurationOptions(configurationOptions);
        AgentConfig config = AgentCommands.loadConfig(dd, coordination, name);
        Set<String> queues = queues(name);
        Path agentLogParent = dd.agentLogDir(coordination, name).getParent();
        Path stateDir = agentLogParent.resolve("state");
        Optional<DirectoryLock> lock = DirectoryLock.tryAcquire(agentLogParent, AgentCommands.LOCK);
        if (lock.isEmpty()) {
            throw new CommandFailure(ExitCodes.FAILED, "BFGCL0411E: agent " + name + " is running"
                    + DirectoryLock.holderPid(agentLogParent, AgentCommands.LOCK).stream()
                            .mapToObj(pid -> " (process " + pid + ")").findFirst().orElse("")
                    + ": stop it with 'fteStopAgent " + name + "' before cleaning it");
        }
        try (DirectoryLock held = lock.get()) {
            org.slf4j.LoggerFactory.getLogger(CleanAgentCommand.class).debug("Holding {}", held);
            confirm(name, queues, stateDir);
            Map<String, Long> removed;
            try {
                QueueManagerConnector connector = QueueManagerConnector.forAdministration(config.endpoint(),
                        dd.qmgrsDir());
                if (monitors || all) {
                    MonitorCleaning.clean(dd, coordination, connector, name);
                }
                if (schedules && !all) {
                    List<String> ids = EventQueueSchedules.removeAll(connector, name);
                    System.out.println("  scheduled transfers: " + (ids.isEmpty() ? "nothing to clean"
                            : "removed " + String.join(", ", ids)));
                }
                removed = config.provider() == MessagingProvider.ARTEMIS
                        ? new ArtemisQueueAdmin(connector).purge(queues) : purgeJms(connector, queues);
            } catch (QueueManagerException e) {
                throw new CommandFailure(e.exitCode(), e.getMessage() + "; agent " + name + " was not cleaned"
                        + " (is queue manager " + config.agentQMgr() + " running?)", e);
            }
            for (String queue : queues) {
                Long n = removed.get(queue);
                if (n == null) {
                    System.out.println("  " + queue + ": does not exist on queue manager " + config.agentQMgr()
                            + ", nothing to clean");
                } else {
                    System.out.println("  " + queue + ": " + (n == 0 ? "nothing to clean" : "removed " + n
                            + " message(s)"));
                }
            }
            if (transfers || all) {
                int files = deleteContents(stateDir);
                System.out.println("  " + stateDir + ": " + (files == 0 ? "nothing to clean"
                        : "removed " + files + " file(s) of transfer state"));
            }
            System.out.println("BFGCL0412I: Agent " + name + " has been cleaned.");
            return ExitCodes.OK;
        }
    }

    /** The queues the flags select, in a fixed order. */
    private Set<String> queues(String name) {
        Set<String> q = new LinkedHashSet<>();
        if (all) {
            q.add(QueueNames.command(name));
        }
        if (transfers || all) {
            q.add(QueueNames.state(name));
            q.add(QueueNames.data(name));
            q.add(QueueNames.reply(name));
        }
        // -ms and -ss alone take only their own records off EVENT (MonitorCleaning,
        // EventQueueSchedules): monitors and schedules share the queue.
        if (all) {
            q.add(QueueNames.event(name));
        }
        if (invalidMessages || all) {
            q.add(QueueNames.rejected(name));
        }
        return q;
    }

    /**
     * Asks on a terminal unless -f. Without a terminal it does not ask: IBM's fteCleanAgent never
     * asks, and scripts written for it must run unchanged.
     */
    private void confirm(String name, Set<String> queues, Path stateDir) throws CommandFailure {
        Console console = System.console();
        if (force || console == null) {
            return;
        }
        List<String> what = new ArrayList<>(queues);
        if (transfers || all) {
            what.add(stateDir.toString());
        }
        console.printf("This deletes every message of these queues of agent %s, and the files in its state"
                + " directory:%n", name);
        what.forEach(w -> console.printf("  %s%n", w));
        String answer = console.readLine("Continue? (y/N) ");
        if (answer == null || !List.of("y", "yes").contains(answer.strip().toLowerCase(Locale.ROOT))) {
            throw new CommandFailure(ExitCodes.FAILED, "BFGCL0414I: Nothing was cleaned.");
        }
    }

    /**
     * IBM MQ: consumes every message of each queue that exists, as a CLEAR QLOCAL would (which
     * needs administrative authority a command user may not have).
     */
    private static Map<String, Long> purgeJms(QueueManagerConnector connector, Set<String> queues)
            throws QueueManagerException {
        Map<String, Long> removed = new LinkedHashMap<>();
        try (Connection connection = connector.connect()) {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            connection.start();
            for (String queue : queues) {
                if (!connector.queueExists(session, queue)) {
                    continue;
                }
                long n = 0;
                try (MessageConsumer consumer = session.createConsumer(session.createQueue(queue))) {
                    while (consumer.receiveNoWait() != null) {
                        n++;
                    }
                }
                removed.put(queue, n);
            }
            return removed;
        } catch (JMSException e) {
            throw new QueueManagerException("cannot clean the queues on " + connector.description() + ": "
                    + ProviderErrors.describe(e), QueueManagerException.UNAVAILABLE, e);
        }
    }

    /**
     * Deletes the transfer state under {@code dir}, keeping the directory and the agent's state key
     * (its secret, not a transfer's: state it writes later is tagged with it); returns how many files
     * went.
     */
    static int deleteContents(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        Path key = dir.resolve(StateTag.KEY_FILE);
        List<Path> paths;
        try (Stream<Path> walk = Files.walk(dir)) {
            paths = walk.filter(p -> !p.equals(dir) && !p.equals(key)).sorted(java.util.Comparator.reverseOrder())
                    .toList();
        }
        int files = 0;
        for (Path p : paths) {
            if (!Files.isDirectory(p)) {
                files++;
            }
            Files.deleteIfExists(p);
        }
        return files;
    }
}
