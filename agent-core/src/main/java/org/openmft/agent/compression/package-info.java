/**
 * Chunk compression between agents ({@code openmft.compression}): the methods, and the compressor
 * the protocol codec uses before protecting a chunk and after opening one. See docs/architecture.md,
 * "Agent-to-agent protocol".
 */
package org.openmft.agent.compression;
