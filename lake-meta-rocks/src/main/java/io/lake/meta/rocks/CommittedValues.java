package io.lake.meta.rocks;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What the most recently used keys hold in the database, as the group commit last read or wrote
 * them, so a commit on such a key (a writer updating the record it just wrote, say) is checked
 * without reading it from RocksDB again. It stays exact because every write of the database goes
 * through the group commit, which updates it once a batch is written, and forgets everything
 * after a write whose outcome is unknown.
 *
 * <p>Bounded: at most {@link #MAX_KEYS} keys, least recently used first out, and no value larger
 * than {@link #MAX_VALUE_BYTES} (such a key is read again instead). A batch touching more than
 * {@link #MAX_KEYS_PER_BATCH} keys (a bulk load) is not remembered, only forgotten where it
 * wrote, so it cannot push the hot keys out. Not thread-safe: only the
 * writer leading the group commit touches it, and the lead passes from writer to writer through
 * the {@link WriteGroup}'s lock.
 */
final class CommittedValues {

    static final int MAX_KEYS = 4096;
    static final int MAX_VALUE_BYTES = 1024;
    static final int MAX_KEYS_PER_BATCH = 64;

    private final Map<MetaKey, Optional<MetaValue>> values = new LinkedHashMap<>(256, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<MetaKey, Optional<MetaValue>> eldest) {
            return size() > MAX_KEYS;
        }
    };

    /** What {@code key} holds, or null when this does not know. */
    @SuppressWarnings("NullableOptional") // null (unknown) apart from empty (absent), in one lookup on the commit path
    @Nullable
    Optional<MetaValue> get(MetaKey key) {
        return values.get(key);
    }

    boolean knows(MetaKey key) {
        return values.containsKey(key);
    }

    /** {@code key} holds {@code value} in the database now. */
    void remember(MetaKey key, Optional<MetaValue> value) {
        if (value.isPresent() && value.get().size() > MAX_VALUE_BYTES) {
            values.remove(key);
        } else {
            values.put(key, value);
        }
    }

    /** {@code key} holds something this does not keep. */
    void forget(MetaKey key) {
        values.remove(key);
    }

    /** The database may hold anything now (a batch write failed): read every key again. */
    void forgetAll() {
        values.clear();
    }
}
