/**
 * What the list and show commands read: {@link org.openmft.coordination.query.AgentDirectory}
 * lists the agents from their retained status publications ({@code SYSTEM.FTE/Agents/<agent>}) as
 * {@link org.openmft.coordination.query.AgentView}s, with IBM's staleness rule applied, for
 * {@code mft agent list|show} (fteListAgents, fteShowAgentDetails) and {@code mft transfer list}
 * without a database logger;
 * {@link org.openmft.coordination.query.ConfiguredLoggers} finds the database loggers whose stores
 * hold the transfer history, for {@code mft transfer list|show}.
 */
package org.openmft.coordination.query;
