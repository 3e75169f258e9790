package org.openmft.agent.transfer.sandbox;

import java.nio.file.Path;
import java.time.Clock;

import org.openmft.agent.config.AgentConfig;
import org.openmft.agent.config.ConfigurationException;
import org.openmft.agent.transfer.files.SandboxPolicy;
import org.openmft.agent.transfer.files.SandboxRules;

/**
 * The sandbox an agent's configuration asks for: the user sandboxes of its {@code UserSandboxes.xml}
 * ({@code userSandboxes=true}), the agent sandbox ({@code sandboxRoot}), or none. Made once when the
 * agent is created, so that a configuration that cannot be applied stops it before it serves
 * anything, and kept across reconnections (user sandboxes keep reloading). Stateless.
 */
public final class AgentSandboxes {

    private AgentSandboxes() {
    }

    /**
     * @param config the agent's configuration (the registry has refused {@code sandboxRoot} with
     *        {@code userSandboxes=true})
     * @param clock the time reloads of {@code UserSandboxes.xml} are due by
     * @return the policy
     * @throws ConfigurationException (exit code 78) when {@code UserSandboxes.xml} is invalid or its
     *         directory unknown, or a {@code sandboxRoot} entry is not an absolute path
     */
    public static SandboxPolicy forAgent(AgentConfig config, Clock clock) throws ConfigurationException {
        if (config.userSandboxes()) {
            Path directory = config.configDirectory().orElseThrow(() -> new ConfigurationException(
                    "userSandboxes=true, but the agent's configuration was not read from a file, so there is no"
                            + " configuration directory to read " + UserSandboxesFile.FILE_NAME + " from",
                    "userSandboxes", "true"));
            return UserSandboxesFile.open(directory.resolve(UserSandboxesFile.FILE_NAME), config.transferRoot(),
                    config.xmlConfigReloadInterval(), clock);
        }
        String root = config.sandboxRoot().orElse(null);
        try {
            return SandboxPolicy.of(SandboxRules.parse(root));
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException("sandboxRoot=" + root + ": " + e.getMessage(), "sandboxRoot", root);
        }
    }
}
