package org.openmft.cli;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

import org.openmft.agent.credentials.Credentials;
import org.openmft.agent.qmgr.QueueManagerSettings;
import org.openmft.agent.qmgr.security.Permissions;
import org.openmft.agent.qmgr.security.QueueManagerUsers;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code mft qmgr user}: the users and roles of an embedded queue manager. They are files in the
 * queue manager's directory, so these commands work whether or not it runs; a running queue manager
 * applies a change within a second, and the command waits for that before it returns.
 */
@Command(name = "user", mixinStandardHelpOptions = true,
        description = {"Add, remove and list the users of an embedded queue manager and grant them roles.",
                "Roles: admin (everything), requester (put requests on agents' COMMAND queues, read replies and"
                        + " status), logger (read the transfer log), channel (another queue manager's channel into"
                        + " this one), agent.<AGENT> (the agent's own queues; fteCreateAgent gives each agent of this"
                        + " data directory such a user)."},
        subcommands = {QmgrUserCommands.Add.class, QmgrUserCommands.Remove.class, QmgrUserCommands.ListUsers.class,
                QmgrUserCommands.Grant.class, QmgrUserCommands.Revoke.class})
final class QmgrUserCommands {
    /** How long a command waits for a running queue manager to apply its change. */
    static final Duration APPLY_TIMEOUT = Duration.ofSeconds(10);

    private QmgrUserCommands() {
    }

    static QueueManagerUsers users(QueueManagerSettings settings) {
        return QueueManagerUsers.of(settings.name(), settings.directory());
    }

    /** Waits for a running queue manager to apply the change just made; says so when it does not. */
    static void awaitApplied(QueueManagerSettings settings) throws IOException {
        if (!QmgrCommands.running(settings)) {
            return;
        }
        try {
            if (!users(settings).awaitApplied(APPLY_TIMEOUT)) {
                System.out.println("WARNING: queue manager " + settings.name() + " has not applied the change within "
                        + APPLY_TIMEOUT.toSeconds() + " s; see its log " + "(logs/qmgrs/" + settings.name()
                        + "/output0.log).");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static CommandFailure refused(IllegalArgumentException e) {
        return new CommandFailure(ExitCodes.FAILED, e.getMessage());
    }

    @Command(name = "add", mixinStandardHelpOptions = true,
            footer = {"", "Examples:", "  mft qmgr user add QM1 payroll --role requester",
                    "  mft qmgr user add QM1 LOGHOST --role logger --credentials-file /etc/mft/MQMFTCredentials.xml",
                    "  mft qmgr user add QM1 REMOTE1 --role agent.REMOTE1"},
            description = {"Add a user with a random password and write its credentials, in IBM's"
                    + " MQMFTCredentials.xml format, to a file readable by its owner only.",
                    "Point agentQMgrAuthenticationCredentialsFile (or coordination..., connection...,"
                            + " loggerQMgrAuthenticationCredentialsFile) at that file on the user's host."})
    static final class Add implements Callable<Integer> {
        @Mixin GlobalOptions global;
        @Parameters(index = "0", paramLabel = "QMGR", description = "Queue manager name.") String qmgr;
        @Parameters(index = "1", paramLabel = "USER", description = "User name (1-64 of A-Z a-z 0-9 . _ @ -).")
        String user;
        @Option(names = "--role", paramLabel = "ROLE", description = "Role to grant; repeatable: "
                + Permissions.GRANTABLE + ".") List<String> roles;
        @Option(names = "--credentials-file", paramLabel = "FILE", description = "Where to write the credentials"
                + " (default: <queue manager>/security/credentials/<USER>.xml).") Path credentialsFile;
        @Option(names = "--replace", description = "Give an existing user a new password (and add the roles).")
        boolean replace;

        @Override
        public Integer call() throws Exception {
            Mft.prepare(global);
            QueueManagerSettings settings = QmgrCommands.load(global.privateDataDirectory(), qmgr);
            QueueManagerUsers users = users(settings);
            Set<String> granted = new LinkedHashSet<>(roles == null ? List.of() : roles);
            Path file;
            Credentials credentials;
            try {
                file = credentialsFile != null ? credentialsFile.toAbsolutePath()
                        : users.defaultCredentialsFile(user);
                if (java.nio.file.Files.exists(file) && !replace) {
                    throw new CommandFailure(ExitCodes.FAILED, file + " exists: choose another --credentials-file,"
                            + " or --replace");
                }
                users.initialize();
                credentials = users.add(user, granted, replace);
            } catch (IllegalArgumentException e) {
                throw refused(e);
            }
            try {
                users.writeCredentials(file, credentials, replace);
            } catch (FileAlreadyExistsException e) {
                throw new CommandFailure(ExitCodes.FAILED, file + " exists: choose another --credentials-file");
            }
            awaitApplied(settings);
            System.out.println("User " + user + " added to queue manager " + qmgr
                    + (granted.isEmpty() ? " without roles (it can log in but do nothing until granted one)"
                            : " with role(s) " + String.join(", ", users.users().getOrDefault(user, Set.of())))
                    + "; its credentials are in " + file + " (readable by you only).");
            return ExitCodes.OK;
        }
    }

    @Command(name = "remove", mixinStandardHelpOptions = true,
            footer = {"", "Examples:", "  mft qmgr user remove QM1 payroll"},
            description = "Remove a user; a running queue manager closes its connections within seconds.")
    static final class Remove implements Callable<Integer> {
        @Mixin GlobalOptions global;
        @Parameters(index = "0", paramLabel = "QMGR") String qmgr;
        @Parameters(index = "1", paramLabel = "USER") String user;

        @Override
        public Integer call() throws Exception {
            Mft.prepare(global);
            QueueManagerSettings settings = QmgrCommands.load(global.dataDirectory(), qmgr);
            boolean removed;
            try {
                removed = users(settings).remove(user);
            } catch (IllegalArgumentException e) {
                throw refused(e);
            }
            if (!removed) {
                throw new CommandFailure(ExitCodes.FAILED, "user " + user + " does not exist on queue manager " + qmgr);
            }
            awaitApplied(settings);
            System.out.println("User " + user + " removed from queue manager " + qmgr + ".");
            return ExitCodes.OK;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
            footer = {"", "Examples:", "  mft qmgr user list QM1"},
            description = "List the users of a queue manager with their roles.")
    static final class ListUsers implements Callable<Integer> {
        @Mixin GlobalOptions global;
        @Parameters(index = "0", paramLabel = "QMGR") String qmgr;

        @Override
        public Integer call() throws Exception {
            Mft.prepare(global);
            QueueManagerSettings settings = QmgrCommands.load(global.dataDirectory(), qmgr);
            Map<String, Set<String>> all = users(settings).users();
            if (all.isEmpty()) {
                System.out.println("Queue manager " + qmgr + " has no users yet: it makes its administrator at its"
                        + " first start.");
                return ExitCodes.OK;
            }
            System.out.printf("%-32s %s%n", "USER", "ROLES");
            all.forEach((u, r) -> System.out.printf("%-32s %s%n", u, r.isEmpty() ? "-" : String.join(",", r)));
            return ExitCodes.OK;
        }
    }

    @Command(name = "grant", mixinStandardHelpOptions = true,
            footer = {"", "Examples:", "  mft qmgr user grant QM1 payroll requester",
                    "  mft qmgr user grant QM1 payroll SYSTEM.FTE.AUTHTRN1.SRC+browse   (transfer authority on SRC)",
                    "  mft qmgr user grant QM1 SRC SYSTEM.FTE.AUTHAGT1.DST+put          (agent SRC may send to DST)",
                    "  mft qmgr user grant QM1 DST SYSTEM.FTE.AUTHAGT1.SRC+browse       (DST may receive from SRC)"},
            description = {"Grant a role to a user: " + Permissions.GRANTABLE + ".",
                    "An authority role is IBM's authority record on an agent's authority queue (setmqaut -n <queue>"
                    + " +browse|+put), honoured by agents with authorityChecking=true; the user's connections are"
                    + " closed so that it logs in again with the new role."})
    static final class Grant implements Callable<Integer> {
        @Mixin GlobalOptions global;
        @Parameters(index = "0", paramLabel = "QMGR") String qmgr;
        @Parameters(index = "1", paramLabel = "USER") String user;
        @Parameters(index = "2", paramLabel = "ROLE") String role;

        @Override
        public Integer call() throws Exception {
            Mft.prepare(global);
            QueueManagerSettings settings = QmgrCommands.load(global.dataDirectory(), qmgr);
            try {
                users(settings).grant(user, role);
            } catch (IllegalArgumentException e) {
                throw refused(e);
            }
            awaitApplied(settings);
            System.out.println("User " + user + " of queue manager " + qmgr + " has role " + role + ".");
            return ExitCodes.OK;
        }
    }

    @Command(name = "revoke", mixinStandardHelpOptions = true,
            footer = {"", "Examples:", "  mft qmgr user revoke QM1 payroll requester"},
            description = "Take a role from a user; a running queue manager closes its connections within seconds.")
    static final class Revoke implements Callable<Integer> {
        @Mixin GlobalOptions global;
        @Parameters(index = "0", paramLabel = "QMGR") String qmgr;
        @Parameters(index = "1", paramLabel = "USER") String user;
        @Parameters(index = "2", paramLabel = "ROLE") String role;

        @Override
        public Integer call() throws Exception {
            Mft.prepare(global);
            QueueManagerSettings settings = QmgrCommands.load(global.dataDirectory(), qmgr);
            boolean had;
            try {
                had = users(settings).revoke(user, role);
            } catch (IllegalArgumentException e) {
                throw refused(e);
            }
            if (!had) {
                throw new CommandFailure(ExitCodes.FAILED, "user " + user + " of queue manager " + qmgr
                        + " does not have role " + role);
            }
            awaitApplied(settings);
            System.out.println("Role " + role + " taken from user " + user + " of queue manager " + qmgr + ".");
            return ExitCodes.OK;
        }
    }
}
