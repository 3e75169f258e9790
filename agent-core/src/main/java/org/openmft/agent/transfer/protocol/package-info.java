/**
 * The agent-to-agent protocol (layer 2): message types and property names ({@code Wire}), the
 * typed messages ({@code Start}, {@code Sequenced}, {@code Control}) and {@code ProtocolCodec},
 * the only code that builds or reads protocol messages. Depends on nothing of the source or
 * destination side.
 */
package org.openmft.agent.transfer.protocol;
