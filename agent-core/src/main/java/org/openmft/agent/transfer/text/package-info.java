/**
 * Text-mode conversion for file transfers: code page and line-ending conversion of a byte stream
 * that arrives in arbitrary chunks (IBM MFT {@code mode="text"}, reference §7.9).
 *
 * <p>{@link org.openmft.agent.transfer.text.Encodings} maps IBM code page names to Java charsets;
 * {@link org.openmft.agent.transfer.text.TextConverter} converts one item's bytes chunk by chunk.
 */
package org.openmft.agent.transfer.text;
