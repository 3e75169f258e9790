/**
 * The source side of transfers: where a request is admitted ({@code RequestAdmission}), where
 * accepted transfers wait and run ({@code SourceScheduler}), where chunks are read and sent
 * ({@code SourceTransfer} with {@code ItemReader}; the window and rewinds in {@code FlowControl},
 * retries and recovery time in {@code RetryBudget}), where destinations' answers arrive
 * ({@code ReplyDispatcher}) and where requesters get their final reply ({@code RequesterReplies}).
 */
package org.openmft.agent.transfer.source;
