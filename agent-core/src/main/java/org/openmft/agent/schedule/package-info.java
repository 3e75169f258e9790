/**
 * Scheduled transfers ({@code fteCreateTransfer -ss -tb -oi -of -oc -es}, the request's
 * {@code <schedule>}): when the occurrences of a schedule fall, which of them are due at a moment,
 * which were missed while the agent was down, and when a schedule has expired. Pure logic over
 * {@code java.time}, without JMS, files or a clock of its own: the agent's scheduler asks it with
 * the time it reads. See docs/architecture.md, "Scheduled transfers".
 */
package org.openmft.agent.schedule;
