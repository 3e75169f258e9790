/**
 * Program calls of transfers ({@code <preSourceCall>} and its siblings, {@code -presrc} and its
 * siblings): where a program may come from ({@link org.openmft.agent.calls.CommandPath}, the
 * {@code commandPath} security boundary), how it runs ({@link org.openmft.agent.calls.CallRunner}: no
 * shell, bounded output, a timeout, retries) and what came of it
 * ({@link org.openmft.agent.calls.CallResult}). Depends on no other package of ours but the request
 * model of transfer-xml; the transfer sides decide when a call runs.
 */
package org.openmft.agent.calls;
