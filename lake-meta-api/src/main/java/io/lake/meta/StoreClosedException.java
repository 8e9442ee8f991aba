package io.lake.meta;

/**
 * The store was closed; every call after {@link MetaStore#close()} fails with this error.
 *
 * @since 0.1.0
 */
public final class StoreClosedException extends MetaStoreException {

    /** A call on the closed store {@code storeDescription} describes. */
    public StoreClosedException(String storeDescription) {
        super(storeDescription + " is closed; open a new store to continue");
    }

    @Override
    public boolean retryable() {
        return false;
    }
}
