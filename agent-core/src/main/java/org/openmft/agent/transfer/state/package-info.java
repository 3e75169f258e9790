/**
 * Where transfer state is made durable: the port {@code TransferStateStore} (no JMS types), its
 * records ({@code SourceRecord}, {@code DestinationRecord}: the checkpoints), the file formats of
 * requests, plans and result journals ({@code StateFiles}), the implementation on the agent's
 * STATE queue and state directory ({@code QueueStateStore}), and the in-memory twin unit tests
 * use; the tags that tell the agent's own state from planted state ({@code StateTag}) and the
 * check of transfer ids before they name a file or enter a selector ({@code StateIds}). Depends
 * on nothing of the source or destination side.
 */
package org.openmft.agent.transfer.state;
