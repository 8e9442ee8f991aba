package io.lake.meta.registry;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStoreException;

/**
 * A registration key holds bytes that are not a registration this library reads (not JSON, a
 * missing or mistyped field, a record version it does not know, a key outside the registry's
 * naming rules). Never skipped: a page that meets one fails with it, naming the key, and nothing
 * was written. Not retryable: repair or delete the record.
 *
 * @since 0.1.0
 */
public final class CorruptRegistrationException extends MetaStoreException {

    private final MetaKey key;

    /** {@code key} holds no table registration: {@code problem} says why. */
    public CorruptRegistrationException(MetaKey key, String problem) {
        super("key '" + key + "' does not hold a table registration this library reads (" + problem
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
