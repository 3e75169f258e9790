/**
 * The destination side of transfers: the DATA queue's dispatcher ({@code DataDispatcher}), where
 * a START is admitted ({@code DestinationAdmission}), the running destination transfer
 * ({@code DestinationTransfer}, its numbering in {@code Sequencer}), where items are written,
 * verified and renamed ({@code ItemWriter}), and where checkpoints are made durable
 * ({@code Checkpointer}).
 */
package org.openmft.agent.transfer.destination;
