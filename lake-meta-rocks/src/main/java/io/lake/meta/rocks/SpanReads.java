package io.lake.meta.rocks;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;

/**
 * Reads the many keys of a large batch's checks by walking, in key order, the span they cover.
 *
 * <p>Why: a bulk load creates runs of fresh keys in order. A {@code multiGet} proves each one
 * absent with its own search of the memtable (as deep as the insert that follows) and of every
 * table's filter. One iterator seek to the first key that lands past the last proves them all
 * absent at once. Keys that exist are met on the way and read from the iterator.
 *
 * <p>When other keys lie inside the span, the walk steps over a few of them and seeks past more,
 * at most {@link #MAX_SEEKS} times; the keys it has not reached then (random keys among many) are
 * read with one {@code multiGet}. A walk that had to give up is not tried again for the next
 * {@link #RESTS_AFTER_GIVING_UP} large reads, so a workload of random keys pays for it rarely.
 *
 * <p>Used by the leading writer only, one read at a time (the hand-off between leaders orders
 * the {@code largeReadsBeforeNextWalk} counter's reads and writes). The walk and the
 * {@code multiGet} of what it did not reach are two reads, yet they answer as one: the leader
 * reads while no batch is being written, and the group commit is the database's only writer.
 */
final class SpanReads {

    /** Below this many keys, one {@code multiGet} is as cheap as the iterator it would open. */
    static final int MIN_KEYS = 32;

    /**
     * Seeks one walk may make, the first (which places the iterator) included, before the keys it
     * has not reached go to {@code multiGet}.
     */
    static final int MAX_SEEKS = 4;

    /**
     * Stored keys the walk steps over, before one asked for, rather than seek past them: a step is
     * a fraction of a seek, and unpadded numbers put a few shorter keys inside every run
     * ({@code table-10001} sorts between {@code table-100009} and {@code table-100010}).
     */
    static final int STEPS_PER_KEY = 2;

    /** Steps one walk may take in all; past them it seeks (or gives up) at once. */
    static final int MAX_STEPS = 32;

    /** Large reads that go straight to {@code multiGet} after a walk gave up. */
    static final int RESTS_AFTER_GIVING_UP = 15;

    /** Reads many keys in one call, each looked up on its own: the {@code multiGet} a walk saves. */
    @FunctionalInterface
    interface MultiRead {
        List<Optional<MetaValue>> readAll(List<MetaKey> keys) throws RocksDBException;
    }

    private final RocksDB db;
    private final MultiRead multiRead;
    private int largeReadsBeforeNextWalk;

    SpanReads(RocksDB db, MultiRead multiRead) {
        this.db = db;
        this.multiRead = multiRead;
    }

    /** What each key holds, in the order given; a key may be given more than once. */
    List<Optional<MetaValue>> readAll(List<MetaKey> keys) throws RocksDBException {
        if (keys.size() < MIN_KEYS) {
            return multiRead.readAll(keys);
        }
        if (largeReadsBeforeNextWalk > 0) {
            largeReadsBeforeNextWalk--;
            return multiRead.readAll(keys);
        }
        MetaKey[] sorted = keys.toArray(new MetaKey[0]);
        Arrays.sort(sorted);
        Map<MetaKey, Optional<MetaValue>> found = new HashMap<>(2 * sorted.length);
        int walked = walk(sorted, found);
        if (walked < sorted.length) {
            largeReadsBeforeNextWalk = RESTS_AFTER_GIVING_UP;
            List<MetaKey> rest = Arrays.asList(sorted).subList(walked, sorted.length); // none of them answered yet
            List<Optional<MetaValue>> values = multiRead.readAll(rest);
            for (int i = 0; i < rest.size(); i++) {
                found.put(rest.get(i), values.get(i));
            }
        }
        List<Optional<MetaValue>> inOrder = new ArrayList<>(keys.size());
        for (MetaKey key : keys) {
            inOrder.add(found.get(key));
        }
        return inOrder;
    }

    /**
     * Answers the sorted keys from one iterator, bounded just past the last key, into
     * {@code found}; returns how many of them it answered (a prefix of {@code sorted}).
     */
    private int walk(MetaKey[] sorted, Map<MetaKey, Optional<MetaValue>> found) throws RocksDBException {
        try (Slice bound = new Slice(Keys.justAfter(sorted[sorted.length - 1].utf8()));
                ReadOptions options = new ReadOptions().setIterateUpperBound(bound);
                RocksIterator it = db.newIterator(options)) {
            Cursor cursor = new Cursor(it, sorted[0].utf8());
            for (int i = 0; i < sorted.length; i++) {
                MetaKey key = sorted[i];
                if (i > 0 && key.equals(sorted[i - 1])) {
                    continue; // the same key again: sorted, repeats are neighbours
                }
                byte[] wanted = key.utf8();
                if (!cursor.reach(wanted)) {
                    return i; // out of seeks
                }
                if (cursor.standsOn(wanted)) {
                    found.put(key, Optional.of(cursor.takeValue()));
                } else {
                    found.put(key, Optional.empty());
                }
            }
            return sorted.length;
        }
    }

    /**
     * An iterator that always stands on the first stored key at or after some key no greater than
     * the next one asked for: a stored key beyond the asked one proves it absent.
     */
    private static final class Cursor {
        private final RocksIterator it;
        private byte @Nullable [] stored;
        private int seeks;
        private int steps;

        Cursor(RocksIterator it, byte[] first) throws RocksDBException {
            this.it = it;
            seek(first);
        }

        /**
         * Moves to the first stored key at or after {@code wanted} (or past the bound); false when
         * that takes a seek the walk no longer has.
         */
        boolean reach(byte[] wanted) throws RocksDBException {
            int stepsForThisKey = 0;
            while (isBehind(wanted) && stepsForThisKey < STEPS_PER_KEY && steps < MAX_STEPS) {
                next(); // a stored key nobody asked for lies before this one: step over it
                stepsForThisKey++;
                steps++;
            }
            if (isBehind(wanted)) { // more of them: jump
                if (seeks == MAX_SEEKS) {
                    return false;
                }
                seek(wanted);
            }
            return true;
        }

        boolean standsOn(byte[] wanted) {
            return orderOf(wanted) == 0;
        }

        /** The value of the key it stands on; then it stands on the next stored key. */
        MetaValue takeValue() throws RocksDBException {
            MetaValue value = MetaValue.of(it.value());
            next();
            return value;
        }

        /** It stands on a stored key before {@code wanted}: one nobody asked for. */
        private boolean isBehind(byte[] wanted) {
            return orderOf(wanted) < 0;
        }

        private int orderOf(byte[] wanted) {
            return stored == null ? 1 : Arrays.compareUnsigned(stored, wanted);
        }

        private void seek(byte[] target) throws RocksDBException {
            seeks++;
            it.seek(target);
            settle();
        }

        private void next() throws RocksDBException {
            it.next();
            settle();
        }

        /** The key the iterator stands on, or null past the bound; a failed read throws. */
        private void settle() throws RocksDBException {
            if (it.isValid()) {
                stored = it.key();
            } else {
                it.status();
                stored = null;
            }
        }
    }
}
