package io.lake.meta;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The contract's rules for the keys of one {@link MetaStore#getAll} call, for backends that answer it themselves.
 *
 * @since 0.1.0
 */
public final class BatchKeys {

    private BatchKeys() {}

    /**
     * The keys of a batch read, in the caller's order, checked before any I/O.
     *
     * @throws InvalidArgumentException if {@code keys} is null, holds null or a key twice, or holds
     *     more than {@value Limits#MAX_BATCH_KEYS} keys
     */
    public static List<MetaKey> requireValid(Collection<MetaKey> keys) {
        if (keys == null) {
            throw new InvalidArgumentException("keys must not be null; pass an empty list to read nothing");
        }
        if (keys.size() > Limits.MAX_BATCH_KEYS) {
            throw new InvalidArgumentException("a batch read names " + keys.size() + " keys; the limit is "
                    + Limits.MAX_BATCH_KEYS + ": split it into several calls");
        }
        List<MetaKey> list = new ArrayList<>(keys.size());
        Set<MetaKey> seen = new HashSet<>();
        for (MetaKey key : keys) {
            if (key == null) {
                throw new InvalidArgumentException("keys[" + list.size() + "] must not be null");
            }
            if (!seen.add(key)) {
                throw new InvalidArgumentException(
                        "key '" + key + "' appears more than once in a batch read:" + " name each key once");
            }
            list.add(key);
        }
        return List.copyOf(list);
    }
}
