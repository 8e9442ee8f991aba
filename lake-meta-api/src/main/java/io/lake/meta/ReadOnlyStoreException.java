package io.lake.meta;

/**
 * A write was sent to a read-only view of a store (such as
 * {@code RocksDbMetaStore.builder().directory(dir).buildReadOnly()}, which reads a store another
 * process holds). Nothing was written; send writes through the process that holds the store.
 *
 * @since 0.1.0
 */
public final class ReadOnlyStoreException extends MetaStoreException {

    /** A write to the read-only view {@code storeDescription} describes. */
    public ReadOnlyStoreException(String storeDescription) {
        super(storeDescription + " is a read-only view: nothing was written; write through the process that"
                + " holds the store");
    }

    @Override
    public boolean retryable() {
        return false;
    }
}
