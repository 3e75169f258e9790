package org.openmft.bench.harness;

/** How the agents (and the raw JMS ceiling) reach the queue manager. */
public enum ConnectionMode {
    /** No agentQMgrHost: in-VM connector, the agents run inside the queue manager's JVM. */
    BINDINGS("bindings", "vm"),
    /** agentQMgrHost=127.0.0.1: TCP on loopback to the queue manager's acceptor. */
    CLIENT("client", "tcp");

    public final String label;
    public final String transport;

    ConnectionMode(String label, String transport) {
        this.label = label;
        this.transport = transport;
    }
}
