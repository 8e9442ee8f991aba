package io.lake.meta.dynamo;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStoreException;
import java.util.List;

/**
 * A dual write (mode {@link DynamoLayoutMode#DUAL}) found the second copy of a key holding other
 * bytes than the authority copy: something wrote one table without the other (a store left in
 * mode V1, a hand edit). Nothing was written, and the store will not pick a side: the second copy
 * is never overwritten silently, and this is never reported as a plain conflict. Find out which
 * copy is right, repair the other (see the DynamoDB migration guide), then retry. Not retryable
 * as is: the same call meets the same difference.
 *
 * @since 0.1.0
 */
public final class CopiesDivergedException extends MetaStoreException {

    private final List<MetaKey> keys;

    /** A divergence of the two copies of {@code keys}, described by {@code message}. */
    public CopiesDivergedException(String message, List<MetaKey> keys) {
        super(message);
        this.keys = List.copyOf(keys);
    }

    /** The keys whose copies differ, in the order the call named them. */
    public List<MetaKey> keys() {
        return keys;
    }

    @Override
    public boolean retryable() {
        return false;
    }
}
