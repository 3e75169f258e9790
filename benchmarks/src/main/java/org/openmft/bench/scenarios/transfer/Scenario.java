package org.openmft.bench.scenarios.transfer;

import org.openmft.bench.harness.ConnectionMode;

import org.openmft.xml.ChecksumMethod;

/**
 * The scenarios of one run, in the order they run within each repetition: every agent scenario sits
 * next to the transport ceiling it is compared with, so that ratios come from neighbouring runs.
 */
public enum Scenario {
    /** The local copy ceiling: {@code cp} of the single file, then fsync of the copy. */
    COPY("cp", Kind.COPY, null, null),
    /** The durable copy limit: {@code cp} of the single file, then {@code sync} of the copy, timed together. */
    COPY_SYNC("cp-sync", Kind.PEER, null, null),
    /** {@code rsync -a -I --whole-file --fsync}: the durable work of the agents without a checksum. */
    RSYNC_FSYNC("rsync-I-fsync", Kind.PEER, null, null),
    /** {@code rsync -a -I --whole-file --fsync --checksum-choice=md5}: the same with an MD5, as the agents'. */
    RSYNC_FSYNC_MD5("rsync-I-fsync-md5", Kind.PEER, null, null),
    /** One producer and one consumer through the in-VM connector. */
    RAW_JMS_BINDINGS("raw-jms-vm", Kind.RAW_JMS, ConnectionMode.BINDINGS, null),
    AGENT_BINDINGS_MD5("agent-bindings-md5", Kind.AGENT_FILE, ConnectionMode.BINDINGS, ChecksumMethod.MD5),
    AGENT_BINDINGS_NONE("agent-bindings-none", Kind.AGENT_FILE, ConnectionMode.BINDINGS, ChecksumMethod.NONE),
    /** One producer and one consumer through TCP on loopback. */
    RAW_JMS_CLIENT("raw-jms-tcp", Kind.RAW_JMS, ConnectionMode.CLIENT, null),
    AGENT_CLIENT_MD5("agent-client-md5", Kind.AGENT_FILE, ConnectionMode.CLIENT, ChecksumMethod.MD5),
    AGENT_CLIENT_NONE("agent-client-none", Kind.AGENT_FILE, ConnectionMode.CLIENT, ChecksumMethod.NONE),
    /** Seed 000's headline cell: the file set in one transfer, binary, MD5, bindings. */
    SEED000_SET_BINDINGS_MD5("seed000-set-bindings-md5", Kind.AGENT_SET, ConnectionMode.BINDINGS,
            ChecksumMethod.MD5);

    /** What a scenario measures; a PEER is the {@link org.openmft.bench.peers.Peer} of the same id. */
    public enum Kind {
        COPY, PEER, RAW_JMS, AGENT_FILE, AGENT_SET
    }

    public final String id;
    public final Kind kind;
    public final ConnectionMode mode;
    public final ChecksumMethod checksum;

    Scenario(String id, Kind kind, ConnectionMode mode, ChecksumMethod checksum) {
        this.id = id;
        this.kind = kind;
        this.mode = mode;
        this.checksum = checksum;
    }

    /** The raw JMS scenario an agent scenario is compared with, or null. */
    public Scenario ceiling() {
        if (kind != Kind.AGENT_FILE && kind != Kind.AGENT_SET) {
            return null;
        }
        return mode == ConnectionMode.BINDINGS ? RAW_JMS_BINDINGS : RAW_JMS_CLIENT;
    }
}
