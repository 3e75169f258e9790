package org.openmft.agent.config;

/**
 * The keys of {@code installation.properties}, at the top of the data directory's {@code config}
 * folder, which says which coordination configuration commands use when {@code -p} is not given.
 */
public final class InstallationProperties {

    private InstallationProperties() {
    }

    /** The default coordination queue manager, i.e. the {@code config/<coordQM>} folder used by default. */
    public static final ConfigKey<String> DEFAULT_PROPERTIES = ConfigKey.string("defaultProperties")
            .validator(CommonKeys.QMGR_NAME).supported().group(CommonKeys.CONNECTION)
            .description("Coordination queue manager whose configuration commands use when -p is not given.").build();

    /** All keys of installation.properties. */
    public static final ConfigRegistry REGISTRY = ConfigRegistry.builder("installation.properties")
            .add(DEFAULT_PROPERTIES)
            .build();
}
