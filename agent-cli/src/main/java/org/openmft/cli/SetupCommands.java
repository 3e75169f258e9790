package org.openmft.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

import org.openmft.agent.config.CommandConfig;
import org.openmft.agent.config.CommandProperties;
import org.openmft.agent.config.CoordinationConfig;
import org.openmft.agent.config.CoordinationProperties;
import org.openmft.agent.config.DataDirectory;
import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.config.MqscScripts;
import org.openmft.agent.config.PropertiesWriter;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code mft setup}: the configuration options set, as IBM's {@code fteSetupCoordination} and
 * {@code fteSetupCommands} write it.
 */
@Command(name = "setup", mixinStandardHelpOptions = true,
        description = "Write coordination.properties and command.properties.",
        subcommands = {SetupCommands.Coordination.class, SetupCommands.Commands.class, SetupCommands.Obfuscate.class})
final class SetupCommands {
    private SetupCommands() {
    }

    /**
     * The coordination.properties of the configuration options set {@code coordination}, for the
     * commands that read from or publish to the coordination queue manager.
     *
     * @throws CommandFailure (exit code 78) when the file is missing, saying how to create it, or invalid
     */
    static CoordinationConfig loadCoordination(DataDirectory dd, String coordination) throws CommandFailure {
        Path file = dd.coordinationProperties(coordination);
        if (!Files.exists(file)) {
            throw new CommandFailure(ExitCodes.CONFIGURATION, "no coordination configuration " + file
                    + ": run 'mft setup coordination -coordinationQMgr " + coordination + "' first, or give -p");
        }
        try {
            return CoordinationConfig.load(file, System.getenv());
        } catch (org.openmft.agent.config.ConfigurationException e) {
            throw new CommandFailure(ExitCodes.CONFIGURATION, e.getMessage(), e);
        }
    }

    static void put(Map<String, String> m, String key, Object value) {
        if (value != null && !String.valueOf(value).isBlank()) {
            m.put(key, String.valueOf(value));
        }
    }

    @Command(name = "coordination", aliases = "fteSetupCoordination", mixinStandardHelpOptions = true,
            footer = {"", "Examples:", "  fteSetupCoordination -coordinationQMgr QM1", "  fteSetupCoordination -coordinationQMgr HUB -coordinationQMgrHost hub.example.org -coordinationQMgrPort 1414 -coordinationQMgrChannel MFT.SVRCONN -f"},
            description = "Create the configuration options set of a coordination queue manager"
                    + " (fteSetupCoordination).")
    static final class Coordination implements Callable<Integer> {
        @Mixin GlobalOptions global;
        @Option(names = "-coordinationQMgr", required = true, description = "Coordination queue manager name.")
        String qmgr;
        @Option(names = "-coordinationQMgrHost", description = "Host for a client connection; none means bindings.")
        String host;
        @Option(names = "-coordinationQMgrPort", description = "Port (default 1414).") Integer port;
        @Option(names = "-coordinationQMgrChannel", description = "Channel (default SYSTEM.DEF.SVRCONN).")
        String channel;
        @Option(names = "-coordinationQMgrProvider", description = "artemis (default) or ibmmq.") String provider;
        @Option(names = "-default", description = "Make this the default configuration options set.")
        boolean makeDefault;
        @Option(names = "-f", description = "Overwrite existing files.") boolean force;

        @Override
        public Integer call() throws Exception {
            Mft.prepare(global);
            DataDirectory dd = global.privateDataDirectory();
            Map<String, String> values = new LinkedHashMap<>();
            put(values, "coordinationQMgr", qmgr);
            put(values, "coordinationQMgrHost", host);
            put(values, "coordinationQMgrPort", port);
            put(values, "coordinationQMgrChannel", channel);
            put(values, "coordinationQMgrProvider", provider);
            CoordinationConfig parsed = CoordinationConfig.from(values, System.getenv());
            Path file = dd.coordinationProperties(qmgr);
            new PropertiesWriter("mft setup coordination", Clock.systemUTC()).write(file,
                    CoordinationProperties.REGISTRY, values, force);
            boolean isDefault = makeDefault || dd.defaultCoordination().isEmpty();
            if (isDefault) {
                Files.createDirectories(dd.installationProperties().getParent());
                Files.writeString(dd.installationProperties(), "# Written by mft setup coordination\n"
                        + "defaultProperties=" + qmgr + "\n");
            }
            System.out.println("BFGCL0016I: The coordination configuration for " + qmgr + " was written to " + file
                    + (isDefault ? " and is the default configuration options set." : "."));
            // IBM's fteSetupCoordination writes <coordQM>.mqsc beside the properties, whatever the
            // queue manager; only IBM MQ needs it run (an embedded queue manager makes its own).
            Path mqsc = file.resolveSibling(qmgr + ".mqsc");
            Files.writeString(mqsc, MqscScripts.coordinationScript(qmgr));
            if (parsed.provider() == MessagingProvider.IBMMQ) {
                System.out.println("BFGCM0238I: An IBM MQ administrator defines the coordination objects on " + qmgr
                        + " with " + mqsc + " (runmqsc " + qmgr + " < " + mqsc + ").");
            } else {
                System.out.println("The MQSC for an IBM MQ coordination queue manager is in " + mqsc
                        + "; an embedded queue manager needs none.");
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "commands", aliases = "fteSetupCommands", mixinStandardHelpOptions = true,
            footer = {"", "Examples:", "  fteSetupCommands -connectionQMgr QM1", "  fteSetupCommands -connectionQMgr QM1 -connectionQMgrHost 127.0.0.1 -connectionQMgrPort 1414"},
            description = "Create command.properties: the queue manager commands connect to (fteSetupCommands).")
    static final class Commands implements Callable<Integer> {
        @Mixin GlobalOptions global;
        @Option(names = "-connectionQMgr", required = true, description = "Command queue manager name.")
        String qmgr;
        @Option(names = "-connectionQMgrHost", description = "Host for a client connection; none means bindings.")
        String host;
        @Option(names = "-connectionQMgrPort", description = "Port (default 1414).") Integer port;
        @Option(names = "-connectionQMgrChannel", description = "Channel (default SYSTEM.DEF.SVRCONN).")
        String channel;
        @Option(names = "-connectionQMgrProvider", description = "artemis (default) or ibmmq.") String provider;
        @Option(names = "-p", description = "Configuration options set (default: the default one).")
        String configurationOptions;
        @Option(names = "-f", description = "Overwrite an existing file.") boolean force;

        @Override
        public Integer call() throws Exception {
            Mft.prepare(global);
            DataDirectory dd = global.privateDataDirectory();
            String coordination = global.configurationOptions(configurationOptions);
            Map<String, String> values = new LinkedHashMap<>();
            put(values, "connectionQMgr", qmgr);
            put(values, "connectionQMgrHost", host);
            put(values, "connectionQMgrPort", port);
            put(values, "connectionQMgrChannel", channel);
            put(values, "connectionQMgrProvider", provider);
            CommandConfig.from(values, System.getenv());
            Path file = dd.commandProperties(coordination);
            new PropertiesWriter("mft setup commands", Clock.systemUTC()).write(file, CommandProperties.REGISTRY,
                    values, force);
            System.out.println("BFGCL0017I: The command configuration was written to " + file + ".");
            return ExitCodes.OK;
        }
    }
    @Command(name = "obfuscate", aliases = "fteObfuscate", mixinStandardHelpOptions = true,
            footer = {"", "Examples:", "  head -c 32 /dev/urandom | base64 > ~/mft.key && chmod 600 ~/mft.key",
                    "  fteObfuscate -credentialsFile ~/MQMFTCredentials.xml -credentialsKeyFile ~/mft.key",
                    "  then, in agent.properties: agentCredentialsKeyFile=/home/me/mft.key"},
            description = {"Encrypt the user ids and passwords of an MQMFTCredentials.xml file in place"
                    + " (fteObfuscate): each <qmgr> entry's mqUserId and mqPassword become mqUserIdCipher and"
                    + " mqPasswordCipher. Key and trust store passwords (<file>) and database credentials (<logger>)"
                    + " stay in clear: what reads them has no key file.",
                    "OpenMFT's values are AES-256-GCM under the key file (IBM's cipher is not documented, so the two do"
                    + " not read each other's values), and a key file is required: a key built into a program"
                    + " protects nothing. Processes decrypt them with IBM's *CredentialsKeyFile keys."})
    static final class Obfuscate implements Callable<Integer> {
        @Mixin GlobalOptions global;
        @Option(names = "-credentialsFile", required = true, paramLabel = "FILE",
                description = "The MQMFTCredentials.xml file to rewrite (readable by its owner only).")
        Path file;
        @Option(names = "-credentialsKeyFile", paramLabel = "KEYFILE",
                description = "The key file (readable by its owner only, at least 16 bytes).")
        Path keyFile;

        @Override
        public Integer call() throws Exception {
            Mft.prepare(global);
            if (keyFile == null) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGCL0600E: OpenMFT's fteObfuscate needs"
                        + " -credentialsKeyFile: without a key file the values would be encrypted with a key built into"
                        + " the program, which anyone can use to decrypt them. Make one, for example with 'head -c 32"
                        + " /dev/urandom | base64 > mft.key; chmod 600 mft.key'.");
            }
            org.openmft.agent.credentials.CredentialsFile.Obfuscated result;
            try {
                org.openmft.agent.credentials.CredentialsCipher cipher =
                        org.openmft.agent.credentials.CredentialsCipher.fromKeyFile(keyFile);
                org.openmft.agent.credentials.CredentialsFile.read(file); // size, privacy and well-formedness
                result = org.openmft.agent.credentials.CredentialsFile.obfuscate(file, Files.readAllBytes(file),
                        cipher);
            } catch (org.openmft.agent.credentials.CredentialsException e) {
                throw new CommandFailure(ExitCodes.CONFIGURATION, e.getMessage(), e);
            }
            if (result.encrypted() == 0) {
                System.out.println("Nothing in " + file + " was in clear; the file is unchanged.");
                return ExitCodes.OK;
            }
            Path tmp = file.resolveSibling("." + file.getFileName() + ".obfuscate.tmp");
            Files.deleteIfExists(tmp);
            Files.write(tmp, result.document().getBytes(java.nio.charset.StandardCharsets.UTF_8),
                    java.nio.file.StandardOpenOption.CREATE_NEW);
            if (org.openmft.agent.config.PrivateFiles.isPosix(tmp)) {
                Files.setPosixFilePermissions(tmp, org.openmft.agent.config.PrivateFiles.OWNER_ONLY_FILE);
            }
            Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            System.out.println("BFGCL0601I: " + result.encrypted() + " value(s) in " + file + " are encrypted with key"
                    + " file " + keyFile + ". Name the key file with agentCredentialsKeyFile,"
                    + " coordinationCredentialsKeyFile or connectionCredentialsKeyFile where the file is used.");
            return ExitCodes.OK;
        }
    }
}
