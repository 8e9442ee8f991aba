package io.lake.meta.ops;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStoreException;

/**
 * An operation key holds bytes that are not an operation record this library reads (not JSON, a
 * missing or mistyped field, an unknown record version or state, a key outside the journal's naming
 * rules). Never skipped; nothing was written. Not retryable: repair or delete the record.
 *
 * @since 0.1.0
 */
public final class CorruptOperationRecordException extends MetaStoreException {

    private final MetaKey key;

    /** {@code key} holds no operation record: {@code problem} says why. */
    public CorruptOperationRecordException(MetaKey key, String problem) {
        super("key '" + key + "' does not hold an operation record this library reads (" + problem
                + "); it was left unchanged: repair or delete it");
        this.key = key;
    }

    /** The key whose value does not decode. */
    public MetaKey key() {
        return key;
    }

    @Override
    public boolean retryable() {
        return false;
    }
}
