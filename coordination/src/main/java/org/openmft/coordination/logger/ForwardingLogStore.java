package org.openmft.coordination.logger;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link LogStore} in front of another, which it passes every call to; a subclass overrides
 * what it adds to (its meters, a test's fault, a benchmark's timing), usually {@link #storeAll}.
 * Thread-safe as the store behind it is.
 */
public abstract class ForwardingLogStore implements LogStore {
    /** The store behind this one. */
    protected final LogStore delegate;

    /** @param delegate the store every call goes to, closed with this one */
    protected ForwardingLogStore(LogStore delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    @Override
    public List<StoreOutcome> storeAll(List<LogRecord> records) throws LogStoreException {
        return delegate.storeAll(records);
    }

    @Override
    public List<StoredTransfer> transfers(TransferQuery query) throws LogStoreException {
        return delegate.transfers(query);
    }

    @Override
    public Optional<StoredTransfer> transfer(String transferId) throws LogStoreException {
        return delegate.transfer(transferId);
    }

    @Override
    public void close() throws LogStoreException {
        delegate.close();
    }
}
