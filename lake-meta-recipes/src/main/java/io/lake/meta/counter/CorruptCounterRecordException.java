package io.lake.meta.counter;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStoreException;

/**
 * The counter key holds bytes that are not a counter record (not JSON, no integral {@code next}
 * from 0 up, duplicate fields...). The counter fails closed: it neither hands out values nor
 * overwrites the record, until an operator repairs it. Not retryable.
 *
 * @since 0.1.0
 */
public final class CorruptCounterRecordException extends MetaStoreException {

    /** {@code key} holds no counter record: {@code problem} says why. */
    public CorruptCounterRecordException(MetaKey key, String problem) {
        super("counter '" + key + "' holds an unreadable counter record (" + problem
                + "); nothing was written or handed out: repair or replace the record");
    }

    @Override
    public boolean retryable() {
        return false;
    }
}
