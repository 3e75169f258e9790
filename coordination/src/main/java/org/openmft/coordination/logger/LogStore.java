package org.openmft.coordination.logger;

import java.util.List;
import java.util.Optional;

/**
 * Where a logger keeps transfer log messages, and where {@code mft transfer list/show} reads them.
 *
 * <p>The logger calls {@link #storeAll} once per JMS transaction and commits its session only after
 * it returns: a batch is kept whole or, on {@link LogStoreException}, not at all, so that the same
 * messages are delivered again and retried. Records are de-duplicated by {@link LogRecord#key()},
 * so that redelivery never stores a message twice.
 *
 * <p>Implementations are thread-safe (calls are serialised) and may be used from one process at a
 * time for writing.
 */
public interface LogStore extends AutoCloseable {

    /**
     * Stores a batch, in one transaction. Each record ends up {@link StoreOutcome.Status#STORED},
     * {@link StoreOutcome.Status#DUPLICATE} (nothing changes) or {@link StoreOutcome.Status#REJECTED}
     * with a reason, without affecting the others. Returns only when the stored records are durable.
     *
     * @param records the records, in the order received
     * @return one outcome per record, in the same order
     * @throws LogStoreException when the store is unavailable; nothing of the batch was kept
     */
    List<StoreOutcome> storeAll(List<LogRecord> records) throws LogStoreException;

    /**
     * Lists transfers, newest (latest start) first, without their items.
     *
     * @param query the filters and the limit
     * @return the transfers
     * @throws LogStoreException when the store cannot be read
     * @throws UnsupportedOperationException when the store cannot be queried (the file store)
     */
    List<StoredTransfer> transfers(TransferQuery query) throws LogStoreException;

    /**
     * One transfer with its items.
     *
     * @param transferId the transfer id, any case
     * @return the transfer, if any message about it was stored
     * @throws LogStoreException when the store cannot be read
     * @throws UnsupportedOperationException when the store cannot be queried (the file store)
     */
    Optional<StoredTransfer> transfer(String transferId) throws LogStoreException;

    /**
     * Releases the store. Everything {@link #storeAll} returned for is already durable, so closing
     * loses nothing; calling it again does nothing.
     *
     * @throws LogStoreException when releasing failed
     */
    @Override
    void close() throws LogStoreException;
}
