package io.lake.meta.postgres;

import io.lake.meta.MetaKey;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Collection;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The locks a commit holds on its keys, at two levels:
 *
 * <ul>
 *   <li>in the server, a transaction-scoped advisory lock per key ({@link #lockIds}): it serializes
 *       the commits of every process on a key, absent keys included (a row lock cannot lock a row
 *       that does not exist yet), and is released by the server at COMMIT or when the session dies;</li>
 *   <li>in this process, a striped lock per key ({@link #lockLocally}): writers of one key in one
 *       JVM queue here, without holding a pooled connection while they wait.</li>
 * </ul>
 *
 * Both are taken in ascending order of the key's 64-bit lock id, so two commits never wait for
 * each other in a cycle. Two keys may share an id (a hash): they are then serialized needlessly,
 * never wrongly.
 */
final class KeyLocks {

    private static final int STRIPES = 1024;

    private final ReentrantLock[] stripes = new ReentrantLock[STRIPES];
    private final TableName table;

    KeyLocks(TableName table) {
        this.table = table;
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new ReentrantLock();
        }
    }

    /** The distinct advisory lock ids of {@code keys}, ascending: the order every commit takes them in. */
    long[] lockIds(Collection<MetaKey> keys) {
        return keys.stream()
                .mapToLong(key -> lockId(table, key.toString()))
                .distinct()
                .sorted()
                .toArray();
    }

    /**
     * Takes the striped locks of {@code ids} in ascending stripe order (interruptibly) and returns
     * what releases them.
     */
    Held lockLocally(long[] ids) throws InterruptedException {
        int[] indices = Arrays.stream(ids)
                .mapToInt(id -> (int) Math.floorMod(id, (long) STRIPES))
                .distinct()
                .sorted()
                .toArray();
        int taken = 0;
        try {
            for (int index : indices) {
                stripes[index].lockInterruptibly();
                taken++;
            }
        } finally {
            if (taken < indices.length) {
                for (int i = taken - 1; i >= 0; i--) {
                    stripes[indices[i]].unlock();
                }
            }
        }
        return () -> {
            for (int i = indices.length - 1; i >= 0; i--) {
                stripes[indices[i]].unlock();
            }
        };
    }

    /** Releases the locks {@link #lockLocally} took. */
    @FunctionalInterface
    interface Held extends AutoCloseable {
        @Override
        void close();
    }

    /** A 64-bit id for {@code name} within {@code table}: the first 8 bytes of their SHA-256. */
    static long lockId(TableName table, String name) {
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            sha256.update(("lake-meta:" + table + ":").getBytes(StandardCharsets.UTF_8));
            sha256.update(name.getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.wrap(sha256.digest()).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256, which every Java platform must provide", e);
        }
    }
}
