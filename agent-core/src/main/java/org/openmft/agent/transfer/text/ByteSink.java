package org.openmft.agent.transfer.text;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Receives converted bytes from a {@link TextConverter}.
 *
 * <p>The buffer passed to {@link #write(ByteBuffer)} belongs to the converter and is reused as
 * soon as the call returns, so an implementation must consume or copy all remaining bytes before
 * returning. That lets the converter run without allocating per chunk, and lets the caller pack
 * the output into its own chunk-sized buffers.
 */
@FunctionalInterface
public interface ByteSink {
    /**
     * Takes the bytes between the buffer's position and limit.
     *
     * @param bytes converted bytes; never empty
     * @throws IOException if the bytes cannot be stored or sent; the conversion stops
     */
    void write(ByteBuffer bytes) throws IOException;
}
