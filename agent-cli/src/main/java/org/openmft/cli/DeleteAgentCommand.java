package org.openmft.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;

import org.openmft.agent.config.AgentConfig;
import org.openmft.agent.config.ConfigurationException;
import org.openmft.agent.config.CoordinationConfig;
import org.openmft.agent.config.DataDirectory;
import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.config.MqscScripts;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.messaging.ArtemisQueueAdmin;
import org.openmft.agent.messaging.ProviderErrors;
import org.openmft.agent.messaging.Publications;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.DirectoryLock;
import org.openmft.agent.qmgr.QueueManagerException;
import org.openmft.coordination.publish.CoordinationPublisher;
import org.openmft.coordination.publish.Publication;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code mft agent delete} ({@code fteDeleteAgent}): deletes a stopped agent's configuration and
 * log directories, its queues on an Artemis queue manager (on IBM MQ it prints the MQSC that an
 * administrator runs, as IBM's command does), and deregisters it from the coordination queue
 * manager by replacing its retained status on {@code SYSTEM.FTE/Agents/<AGENT>} with an empty
 * publication, which fteListAgents reads as "deleted".
 *
 * <p>{@code -f} is IBM's: the agent is deregistered even when its configuration is missing or
 * unreadable, and an agent queue manager that cannot be reached does not stop the deletion. It
 * never deletes a running agent. An unreachable coordination queue manager is a warning: the
 * agent is deleted here, and {@code fteDeleteAgent -f} deregisters it later.
 */
@Command(name = "delete", aliases = "fteDeleteAgent", mixinStandardHelpOptions = true,
        description = "Delete a stopped agent (fteDeleteAgent): its configuration and logs, its queues on an"
                + " Artemis queue manager (for IBM MQ the MQSC to run is printed), and its registration on the"
                + " coordination queue manager, so that fteListAgents no longer shows it.",
        footer = {"", "Examples:",
                "  fteStopAgent AGENT1 && fteDeleteAgent AGENT1",
                "  fteDeleteAgent -f OLDAGENT      deregister an agent whose configuration is gone",
                "", "Exit codes: 0 deleted, 1 refused (agent running), 75 the agent's queue manager is unavailable"
                        + " (without -f), 78 agent not configured (without -f)."})
final class DeleteAgentCommand implements Callable<Integer> {
    /** IBM MQ classes for JMS: the property asking the queue manager to retain a publication, and its value. */

    @Mixin GlobalOptions global;
    @Parameters(index = "0", paramLabel = "AGENT", description = "The agent to delete; it must be stopped.")
    String agent;
    @Option(names = "-f", description = "Deregister the agent even when its configuration cannot be found or read,"
            + " and delete it even when its queue manager cannot be reached.")
    boolean force;
    @Option(names = "-p", description = "Configuration options set.") String configurationOptions;

    @Override
    public Integer call() throws Exception {
        Mft.prepare(global);
        String name = AgentCommands.validName(agent);
        DataDirectory dd = global.dataDirectory();
        String coordination = global.configurationOptions(configurationOptions);
        Optional<AgentConfig> config = config(dd, coordination, name);
        Path agentDir = dd.agentDir(coordination, name);
        Path logParent = dd.agentLogDir(coordination, name).getParent();
        Optional<DirectoryLock> lock = Files.isDirectory(logParent)
                ? DirectoryLock.tryAcquire(logParent, AgentCommands.LOCK) : Optional.empty();
        if (Files.isDirectory(logParent) && lock.isEmpty()) {
            throw new CommandFailure(ExitCodes.FAILED, "BFGCL0420E: agent " + name + " is running: stop it with"
                    + " 'fteStopAgent " + name + "' before deleting it");
        }
        try {
            if (config.isPresent()) {
                deleteQueues(config.get(), dd);
                removeUser(config.get(), dd);
            }
            int removed = deleteTree(agentDir) + deleteTree(logParent);
            if (removed > 0) {
                System.out.println("Removed the configuration and logs of agent " + name + " (" + agentDir + ", "
                        + logParent + ").");
            }
        } finally {
            if (lock.isPresent()) {
                lock.get().close();
            }
        }
        deregister(dd, coordination, name);
        System.out.println("BFGCL0421I: Agent " + name + " has been deleted.");
        return ExitCodes.OK;
    }

    /** The agent's configuration; empty (with -f) when it is missing or unreadable. */
    private Optional<AgentConfig> config(DataDirectory dd, String coordination, String name) throws CommandFailure {
        Path file = dd.agentProperties(coordination, name);
        if (!Files.exists(file)) {
            if (!force) {
                throw new CommandFailure(ExitCodes.CONFIGURATION, "BFGCL0014E: agent " + name + " is not configured:"
                        + " " + file + " does not exist (use -f to remove its registration from the coordination"
                        + " queue manager all the same)");
            }
            System.out.println("Agent " + name + " has no configuration here (" + file + "): only its registration"
                    + " is removed.");
            return Optional.empty();
        }
        try {
            return Optional.of(AgentConfig.load(file, System.getenv()));
        } catch (ConfigurationException e) {
            if (!force) {
                throw new CommandFailure(ExitCodes.CONFIGURATION, e.getMessage() + " (use -f to delete the agent"
                        + " all the same; its queues are then left for an administrator)", e);
            }
            System.out.println("BFGCL0422W: " + e.getMessage() + ": the agent's queues are left in place.");
            return Optional.empty();
        }
    }

    /** Removes the agent's own user from its queue manager, when that is in this data directory. */
    private static void removeUser(AgentConfig config, DataDirectory dd) throws IOException {
        String name = config.agentName();
        Path qmgrDir = dd.qmgrDir(config.agentQMgr());
        if (config.provider() != org.openmft.agent.config.MessagingProvider.ARTEMIS
                || !Files.isRegularFile(qmgrDir.resolve(org.openmft.agent.qmgr.QueueManagerSettings.FILE_NAME))) {
            return;
        }
        var users = org.openmft.agent.qmgr.security.QueueManagerUsers.of(config.agentQMgr(), qmgrDir);
        if (users.users().getOrDefault(name, java.util.Set.of())
                .contains(org.openmft.agent.qmgr.security.Permissions.agentRole(name)) && users.remove(name)) {
            System.out.println("Removed user " + name + " of agent " + name + " from queue manager "
                    + config.agentQMgr() + ".");
        }
    }

    private void deleteQueues(AgentConfig config, DataDirectory dd) throws CommandFailure, IOException {
        String name = config.agentName();
        List<String> queues = new ArrayList<>(QueueNames.agentQueues(name));
        queues.add(QueueNames.ha(name));
        queues.addAll(QueueNames.authQueues(name));
        if (config.provider() != MessagingProvider.ARTEMIS) {
            System.out.println("BFGCM0238I: An IBM MQ administrator deletes the queues of agent " + name + " on queue"
                    + " manager " + config.agentQMgr() + " with these MQSC commands (runmqsc " + config.agentQMgr()
                    + "); the agent's <AGENT>_delete.mqsc goes with its configuration:");
            System.out.println(MqscScripts.deleteScript(name));
            return;
        }
        try {
            ArtemisQueueAdmin admin = new ArtemisQueueAdmin(QueueManagerConnector.forAdministration(
                    config.endpoint(), dd.qmgrsDir()));
            Map<String, Long> depths = admin.depths(queues);
            depths.forEach((queue, depth) -> {
                if (depth > 0) {
                    System.out.println("  " + queue + " still holds " + depth + " message(s); they are deleted"
                            + " with it.");
                }
            });
            int deleted = admin.deleteQueues(queues);
            System.out.println("Deleted " + deleted + " queue(s) of agent " + name + " on queue manager "
                    + config.agentQMgr() + ".");
        } catch (QueueManagerException e) {
            if (!force) {
                throw new CommandFailure(e.exitCode(), e.getMessage() + "; agent " + name + " was not deleted: start"
                        + " queue manager " + config.agentQMgr() + " and try again, or use -f to delete the agent"
                        + " and leave its queues", e);
            }
            System.out.println("BFGCL0423W: " + e.getMessage() + ": the queues of agent " + name + " are left on"
                    + " queue manager " + config.agentQMgr() + ".");
        }
    }

    /**
     * Replaces the agent's retained status with an empty publication. Failing to is a warning: the
     * agent is gone here whatever the coordination queue manager says.
     */
    private void deregister(DataDirectory dd, String coordination, String name) {
        String topic = Publications.agentStatus(name);
        String where = "coordination queue manager " + coordination;
        try {
            CoordinationConfig config = SetupCommands.loadCoordination(dd, coordination);
            QueueManagerConnector connector = QueueManagerConnector.forCommand(config.endpoint(), dd.qmgrsDir(),
                    null);
            where = connector.description();
            try (Connection connection = connector.connect()) {
                String id = "fteDeleteAgent:" + name + ":" + System.currentTimeMillis();
                CoordinationPublisher.publish(connection, config.provider(),
                        new Publication(Publication.Kind.STATUS, topic, "", id));
            }
            System.out.println("Removed the registration of agent " + name + " (" + topic + ") from " + where + ".");
        } catch (CommandFailure | QueueManagerException | JMSException | RuntimeException e) {
            String reason = ProviderErrors.describe(e);
            System.out.println("BFGCL0424W: The registration of agent " + name + " could not be removed from " + where
                    + " (" + reason + "); fteListAgents may still show it. Run 'fteDeleteAgent -f " + name
                    + "' again when the coordination queue manager is available.");
        }
    }

    /** Deletes a directory tree; returns how many entries went (0 when it did not exist). */
    private static int deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return 0;
        }
        List<Path> paths;
        try (Stream<Path> walk = Files.walk(dir)) {
            paths = walk.sorted(Comparator.reverseOrder()).toList();
        }
        for (Path p : paths) {
            Files.deleteIfExists(p);
        }
        return paths.size();
    }
}
