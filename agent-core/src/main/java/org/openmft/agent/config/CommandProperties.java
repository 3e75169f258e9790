package org.openmft.agent.config;

import java.nio.file.Path;

/**
 * The keys of {@code command.properties}, which name the queue manager that commands such as
 * fteCreateTransfer connect to in order to reach agents' command queues.
 */
public final class CommandProperties {

    private CommandProperties() {
    }

    /** Command queue manager name. */
    public static final ConfigKey<String> CONNECTION_QMGR = CommonKeys.qmgr("connectionQMgr",
            "Queue manager that commands connect to in order to send requests to agents.");

    /** Host of the command queue manager; absent means bindings. */
    public static final ConfigKey<String> CONNECTION_QMGR_HOST = CommonKeys.host("connectionQMgrHost", "connectionQMgr");

    /** Client port. */
    public static final ConfigKey<Integer> CONNECTION_QMGR_PORT = CommonKeys.port("connectionQMgrPort");

    /** Server-connection channel. */
    public static final ConfigKey<String> CONNECTION_QMGR_CHANNEL = CommonKeys.channel("connectionQMgrChannel");

    /** Standby instance (not supported yet). */
    public static final ConfigKey<String> CONNECTION_QMGR_STANDBY = CommonKeys.standby("connectionQMgrStandby");

    /** Messaging system (OpenMFT only). */
    public static final ConfigKey<MessagingProvider> CONNECTION_QMGR_PROVIDER =
            CommonKeys.provider("connectionQMgrProvider", "connectionQMgr");

    /** Code page of command messages (not supported yet). */
    public static final ConfigKey<String> CONNECTION_CCSID = CommonKeys.ccsid("connectionCcsid");

    /** Credentials key file (not supported yet). */
    public static final ConfigKey<Path> CONNECTION_CREDENTIALS_KEY_FILE =
            CommonKeys.credentialsKeyFile("connectionCredentialsKeyFile");

    /** Credentials file (not supported yet). */
    public static final ConfigKey<Path> CONNECTION_QMGR_AUTHENTICATION_CREDENTIALS_FILE =
            CommonKeys.credentialsFile("connectionQMgrAuthenticationCredentialsFile");

    /** All keys of command.properties. */
    public static final ConfigRegistry REGISTRY = ConfigRegistry.builder("command.properties")
            .add(CONNECTION_QMGR, CONNECTION_QMGR_HOST, CONNECTION_QMGR_PORT, CONNECTION_QMGR_CHANNEL,
                    CONNECTION_QMGR_STANDBY, CONNECTION_CCSID)
            .add(CONNECTION_QMGR_PROVIDER)
            .add(CONNECTION_CREDENTIALS_KEY_FILE, CONNECTION_QMGR_AUTHENTICATION_CREDENTIALS_FILE)
            .addAll(CommonKeys.ssl("connection"))
            .build();
}
