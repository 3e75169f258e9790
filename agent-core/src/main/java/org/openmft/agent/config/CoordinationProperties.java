package org.openmft.agent.config;

import java.nio.file.Path;

/**
 * The keys of {@code coordination.properties}, which name the coordination queue manager: the one
 * holding the {@code SYSTEM.FTE} topic where agents publish status and transfer logs.
 */
public final class CoordinationProperties {

    private CoordinationProperties() {
    }

    /** Coordination queue manager name. */
    public static final ConfigKey<String> COORDINATION_QMGR = CommonKeys.qmgr("coordinationQMgr",
            "Coordination queue manager, which holds the SYSTEM.FTE topic for status and logs.");

    /** Host of the coordination queue manager; absent means bindings. */
    public static final ConfigKey<String> COORDINATION_QMGR_HOST =
            CommonKeys.host("coordinationQMgrHost", "coordinationQMgr");

    /** Client port. */
    public static final ConfigKey<Integer> COORDINATION_QMGR_PORT = CommonKeys.port("coordinationQMgrPort");

    /** Server-connection channel. */
    public static final ConfigKey<String> COORDINATION_QMGR_CHANNEL = CommonKeys.channel("coordinationQMgrChannel");

    /** Standby instance (not supported yet). */
    public static final ConfigKey<String> COORDINATION_QMGR_STANDBY = CommonKeys.standby("coordinationQMgrStandby");

    /** Messaging system (OpenMFT only). */
    public static final ConfigKey<MessagingProvider> COORDINATION_QMGR_PROVIDER =
            CommonKeys.provider("coordinationQMgrProvider", "coordinationQMgr");

    /** How late a status publication may be before tools call it stale. */
    public static final ConfigKey<Integer> AGENT_STATUS_JITTER_TOLERANCE =
            ConfigKey.integer("agentStatusJitterTolerance").defaultValue(3000)
                    .validator(Validator.intRange(0, 3600000)).unit("ms").supported().group(CommonKeys.STATUS)
                    .description("Lateness allowed to an agent's status publication before tools report it as stale.")
                    .build();

    /** Code page of messages (not supported yet). */
    public static final ConfigKey<String> COORDINATION_CCSID = CommonKeys.ccsid("coordinationCcsid");

    /** Code page name (not supported yet). */
    public static final ConfigKey<String> COORDINATION_CCSID_NAME = ConfigKey.string("coordinationCcsidName")
            .group(CommonKeys.CONNECTION).description("Java name of the code page given by coordinationCcsid.").build();

    /** Credentials key file (not supported yet). */
    public static final ConfigKey<Path> COORDINATION_CREDENTIALS_KEY_FILE =
            CommonKeys.credentialsKeyFile("coordinationCredentialsKeyFile");

    /** Credentials file (not supported yet). */
    public static final ConfigKey<Path> COORDINATION_QMGR_AUTHENTICATION_CREDENTIALS_FILE =
            CommonKeys.credentialsFile("coordinationQMgrAuthenticationCredentialsFile");

    /** All keys of coordination.properties. */
    public static final ConfigRegistry REGISTRY = ConfigRegistry.builder("coordination.properties")
            .add(COORDINATION_QMGR, COORDINATION_QMGR_HOST, COORDINATION_QMGR_PORT, COORDINATION_QMGR_CHANNEL,
                    COORDINATION_QMGR_STANDBY, COORDINATION_CCSID, COORDINATION_CCSID_NAME)
            .add(COORDINATION_QMGR_PROVIDER)
            .add(AGENT_STATUS_JITTER_TOLERANCE)
            .add(COORDINATION_CREDENTIALS_KEY_FILE, COORDINATION_QMGR_AUTHENTICATION_CREDENTIALS_FILE)
            .addAll(CommonKeys.ssl("coordination"))
            .build();
}
