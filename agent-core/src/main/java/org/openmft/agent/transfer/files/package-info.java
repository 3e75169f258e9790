/**
 * Which files a transfer reads and writes: resolution of request paths against the agent's
 * {@code transferRoot}, the agent sandbox ({@code sandboxRoot}, reference §8.3), expansion of a
 * source item into files (wildcards, recursive directories, {@code maxFilesForTransfer}; §7.11) and
 * the destination and temporary ({@code .part}) names of each file (§7.6).
 */
package org.openmft.agent.transfer.files;
