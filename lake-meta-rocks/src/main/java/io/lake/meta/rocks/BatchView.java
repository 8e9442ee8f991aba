package io.lake.meta.rocks;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.rocksdb.RocksDBException;

/**
 * What the commits of one batch are checked against: the batch's own earlier writes first, then
 * what the database held before the batch (from {@link CommittedValues} when it knows, else read,
 * all the batch's missing keys in one multi-read up front). Used by the leading writer only.
 */
final class BatchView implements Commit.View {

    private final Commit.View database;
    private final CommittedValues committed;
    private final Map<MetaKey, Optional<MetaValue>> staged = new HashMap<>();
    private Map<MetaKey, Optional<MetaValue>> before = new HashMap<>();

    BatchView(Commit.View database, CommittedValues committed) {
        this.database = database;
        this.committed = committed;
    }

    /**
     * Reads, in one call, every key the commits will check that the committed values do not know.
     * A failed read is left to the commits: each reads its keys again and fails on its own.
     */
    void prefetch(List<Commit> commits) {
        if (commits.size() == 1 && commits.get(0).keyCount() < 2) {
            return; // a lone one-key commit (the common single write) has nothing to read together
        }
        List<MetaKey> missing = new ArrayList<>();
        // a commit names each key once (a transaction refuses a repeated key): one alone needs no de-duplication
        Set<MetaKey> seen = commits.size() == 1 ? null : new HashSet<>();
        for (Commit commit : commits) {
            for (MetaKey key : commit.keys()) {
                if (!committed.knows(key) && (seen == null || seen.add(key))) {
                    missing.add(key);
                }
            }
        }
        if (missing.size() < 2) {
            return; // one read is no cheaper in a batch
        }
        if (before.isEmpty()) {
            before = new HashMap<>(2 * missing.size()); // sized once: a bulk transaction reads 100 keys here
        }
        try {
            List<Optional<MetaValue>> values = database.currentAll(missing);
            for (int i = 0; i < missing.size(); i++) {
                before.put(missing.get(i), values.get(i));
            }
        } catch (RocksDBException | RuntimeException e) {
            before.clear();
        }
    }

    @Override
    public Optional<MetaValue> current(MetaKey key) throws RocksDBException {
        Optional<MetaValue> value = staged.get(key); // a key the batch already writes needs no read
        if (value == null) {
            value = before.get(key);
        }
        if (value == null) {
            value = committed.get(key);
            if (value == null) {
                value = database.current(key);
            }
            before.put(key, value);
        }
        return value;
    }

    /** A later commit of the batch sees {@code mutation}'s write. */
    void stage(Mutation mutation) {
        staged.put(mutation.key(), mutation.newValue());
    }

    /** What the database held, before the batch, for every key the batch read. */
    Map<MetaKey, Optional<MetaValue>> before() {
        return before;
    }

    /**
     * The batch's {@code writes} are in the database now (none, when every commit conflicted): the
     * values read and written become what the committed values know.
     */
    void settled(List<Mutation> writes) {
        if (before.size() + writes.size() > CommittedValues.MAX_KEYS_PER_BATCH) {
            writes.forEach(m -> committed.forget(m.key()));
            return;
        }
        before.forEach(committed::remember);
        writes.forEach(m -> committed.remember(m.key(), m.newValue()));
    }

    /** The batch write failed: it may or may not have applied. */
    void unknown() {
        committed.forgetAll();
    }
}
