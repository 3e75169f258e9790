/**
 * User sandboxes ({@code userSandboxes=true}, reference §7.4): who may read and write which files,
 * per requesting user, from the agent's {@code UserSandboxes.xml}. {@code UserSandboxesFile} loads
 * the file at start (an invalid one stops the agent, a missing one refuses every file access) and
 * takes changes while the agent runs; {@code UserSandboxes} picks, for the user the queue manager
 * validated for a request, the first matching {@code <sandbox>}; {@code UserSandbox} judges paths
 * by their real location with IBM's {@code *}, {@code ?} and {@code **} patterns
 * ({@code PathPattern}). The transfer core sees them through {@code files.SandboxPolicy} and
 * {@code files.Sandbox}, as it sees {@code sandboxRoot}.
 */
package org.openmft.agent.transfer.sandbox;
