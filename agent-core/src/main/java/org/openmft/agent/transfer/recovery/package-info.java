/**
 * Where recovery happens: after a start or a reconnect, {@code SourceRecovery} and
 * {@code DestinationRecovery} take back the transfers the agent's state store holds, as queued or
 * resynchronising source transfers and as destination transfers waiting for their source.
 */
package org.openmft.agent.transfer.recovery;
