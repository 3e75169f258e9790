/**
 * Configuration of OpenMFT: the keys of IBM MQ Managed File Transfer's properties files
 * ({@link org.openmft.agent.config.AgentProperties}, {@link org.openmft.agent.config.CoordinationProperties},
 * {@link org.openmft.agent.config.CommandProperties}) declared once as data, parsed once into
 * immutable typed views ({@link org.openmft.agent.config.AgentConfig} and friends), plus the on-disk
 * layout ({@link org.openmft.agent.config.DataDirectory}), queue names, MQSC scripts and the
 * generated reference. Nothing here owns threads, connections or other resources.
 */
package org.openmft.agent.config;
