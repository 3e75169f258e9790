/**
 * The transfer core's error model: {@code TransferFailure} (a fatal end with an MFT result code)
 * and {@code FailurePolicy}, where every failure of a running transfer is judged: suspend and
 * resume later, or fail with a code and a reason. Retries of unanswered messages and busy
 * destinations are counted by the source's {@code RetryBudget}.
 */
package org.openmft.agent.transfer.failure;
