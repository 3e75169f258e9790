package org.openmft.agent.qmgr.security;

import java.nio.file.Path;
import java.util.Map;

import javax.security.auth.login.AppConfigurationEntry;

import org.apache.activemq.artemis.core.config.impl.SecurityConfiguration;
import org.apache.activemq.artemis.spi.core.security.ActiveMQJAASSecurityManager;
import org.apache.activemq.artemis.spi.core.security.jaas.PropertiesLoginModule;

/**
 * The JAAS configuration of an embedded queue manager, given to Artemis in code rather than in a
 * JVM-wide {@code login.config}: Artemis's own {@link PropertiesLoginModule} over the queue
 * manager's {@link QueueManagerUsers} files, with {@code reload=true} so that a user added, changed
 * or removed by a command is seen at the next login without a restart. Passwords in the users file
 * are {@code ENC(...)} hashes, which the module verifies with Artemis's default one-way codec.
 * Immutable and thread-safe.
 */
public final class PropertiesLogin extends SecurityConfiguration {
    /** The JAAS domain name. */
    public static final String DOMAIN = "openmft";

    private final AppConfigurationEntry[] entries;

    private PropertiesLogin(Path securityDirectory) {
        Map<String, String> options = Map.of(
                PropertiesLoginModule.USER_FILE_PROP_NAME, QueueManagerUsers.USERS_FILE,
                PropertiesLoginModule.ROLE_FILE_PROP_NAME, QueueManagerUsers.ROLES_FILE,
                "baseDir", securityDirectory.toAbsolutePath().toString(),
                "reload", "true");
        this.entries = new AppConfigurationEntry[] {new AppConfigurationEntry(PropertiesLoginModule.class.getName(),
                AppConfigurationEntry.LoginModuleControlFlag.REQUIRED, options)};
    }

    /**
     * The security manager of a queue manager whose users are {@code users}.
     *
     * @param users the queue manager's users
     * @return a JAAS security manager reading its files
     */
    public static ActiveMQJAASSecurityManager securityManager(QueueManagerUsers users) {
        return new ActiveMQJAASSecurityManager(DOMAIN, new PropertiesLogin(users.directory()));
    }

    @Override
    public AppConfigurationEntry[] getAppConfigurationEntry(String name) {
        return entries.clone();
    }
}
