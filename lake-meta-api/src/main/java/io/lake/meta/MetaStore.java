package io.lake.meta;

import io.lake.meta.watch.Watch;
import io.lake.meta.watch.WatchEvent;
import io.lake.meta.watch.WatchListener;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A store of small, critical metadata: linearizable point reads, exact-bytes conditional writes,
 * guarded (lease-fenced) mutations, bounded prefix pages and change notifications ({@link #watch}).
 *
 * <p>Implementations are thread-safe and blocking. Arguments are validated before any I/O: a bad
 * key, value, prefix, limit or token raises {@link InvalidArgumentException} (or its subclass
 * {@link InvalidPageTokenException}) and changes nothing. A failed precondition is an answer,
 * not an exception. After {@link #close()} every call raises {@link StoreClosedException}.
 *
 * <p>Every backend passes the same contract suite in {@code lake-meta-testkit}.
 *
 * @since 0.1.0
 */
public interface MetaStore extends AutoCloseable {

    /**
     * Reads a key's current value, linearizably.
     *
     * @return the value, or empty when the key is absent
     * @throws StoreUnavailableException if the backend cannot answer now (retryable)
     */
    Optional<MetaValue> get(MetaKey key);

    /**
     * Reads several keys, each linearizably (the batch as a whole is not one snapshot: a write
     * between two keys' reads may be seen for one and not the other). The default reads them one
     * by one with {@link #get}; backends answer with one batched request where they can.
     *
     * @param keys at most {@value Limits#MAX_BATCH_KEYS} distinct keys
     * @return the keys that are present with their values, in the order of {@code keys}; absent
     *     keys are left out
     * @throws InvalidArgumentException if {@code keys} is null, holds null or a key twice, or is too
     *     long; nothing was read
     * @throws StoreUnavailableException if the backend could not read every key in time (retryable)
     */
    default Map<MetaKey, MetaValue> getAll(Collection<MetaKey> keys) {
        Map<MetaKey, MetaValue> found = new LinkedHashMap<>();
        for (MetaKey key : BatchKeys.requireValid(keys)) {
            get(key).ifPresent(value -> found.put(key, value));
        }
        return Collections.unmodifiableMap(found);
    }

    /**
     * Applies one conditional mutation atomically.
     *
     * @return applied, or a conflict carrying the current value when the backend knows it
     * @throws StoreUnavailableException if the write was refused before it could apply; nothing changed
     * @throws OutcomeUnknownException if the write's answer was lost; re-read to learn the outcome
     */
    WriteResult apply(Mutation mutation);

    /**
     * Applies every mutation of {@code transaction} atomically, only if every condition and every
     * mutation's own precondition holds; otherwise nothing changes and the result names every
     * condition and mutation that failed (not just the first).
     *
     * @return applied, or not applied with every failure
     * @throws InvalidArgumentException if the transaction names more keys than
     *     {@link #maxTransactionKeys()} or carries more bytes than {@link #maxTransactionBytes()};
     *     nothing changed
     * @throws StoreUnavailableException if the transaction was refused before it could apply; nothing changed
     * @throws OutcomeUnknownException if the transaction's answer was lost; re-read to learn the outcome
     */
    TransactionResult transact(Transaction transaction);

    /**
     * Applies {@code mutation.target()} atomically, only while the guard key holds exactly the
     * expected guard bytes. When the guard does not match nothing changes, target included.
     *
     * <p>This is the transaction {@link GuardedMutation#asTransaction()}; the default runs it
     * through {@link #transact} and answers {@link GuardedMutation#resultOf}.
     *
     * @return applied, guard rejected, or target conflict
     * @throws StoreUnavailableException if the write was refused before it could apply; nothing changed
     * @throws OutcomeUnknownException if the write's answer was lost; re-read to learn the outcome
     */
    default GuardedResult applyGuarded(GuardedMutation mutation) {
        Checks.notNull(mutation, "guarded mutation");
        return mutation.resultOf(transact(mutation.asTransaction()));
    }

    /**
     * The most keys (conditions plus mutations) this store accepts in one transaction: at most
     * {@link Limits#MAX_TRANSACTION_KEYS}, fewer where the store spends keys of its own (a fenced
     * store adds its lease as a condition).
     */
    default int maxTransactionKeys() {
        return Limits.MAX_TRANSACTION_KEYS;
    }

    /**
     * The most bytes of keys and values (expected and new, as {@link Transaction#sizeBytes()}
     * counts them) this store accepts in one transaction: at most
     * {@link Limits#MAX_TRANSACTION_BYTES}, less where the store writes every value more than once
     * (DynamoDB's dual-write migration mode writes two copies).
     */
    default int maxTransactionBytes() {
        return Limits.MAX_TRANSACTION_BYTES;
    }

    /**
     * Reads one bounded page of a prefix. The page never reads another family and holds at most
     * {@code request.limit()} entries.
     *
     * <p>The order of the entries is the backend's; following the tokens returns every key once
     * either way. The embedded store (RocksDB) returns keys in unsigned UTF-8 byte order; DynamoDB
     * returns a family's keys shard by shard (shard 0, 1, ..., N-1), in byte order within a shard,
     * so the keys of a whole iteration are not sorted. Sort them yourself where order matters.
     *
     * @throws InvalidPageTokenException if the request's token is malformed, tampered with, of
     *     another version, or was issued for another prefix or store layout
     */
    Page page(PageRequest request);

    /**
     * Reports a prefix's contents, then its changes, to {@code listener} until the returned watch
     * or this store is closed. What every backend promises:
     *
     * <ul>
     *   <li><b>Contents first:</b> before this returns, the store reads the prefix; the listener
     *       first hears one {@linkplain WatchEvent#isInitial() initial} event for each key it found
     *       (a key that changed meanwhile is reported by its change instead), then change events.</li>
     *   <li><b>Every change, at least once, latest value:</b> a change committed after this
     *       returns is followed by an event for its key carrying that value or a newer one. A
     *       listener that falls behind gets only each key's latest value; an event may repeat.
     *       So a listener that applies the events in order to a map holds, once the store is quiet
     *       and the events are delivered, exactly the prefix's contents.</li>
     *   <li><b>Per-key order:</b> no event carries a value older than one already reported for
     *       its key. Nothing is promised across keys.</li>
     *   <li><b>Only the prefix:</b> no event names a key outside {@code prefix}.</li>
     *   <li><b>Never blocking writers:</b> the listener runs on a thread of the store, one event
     *       at a time per watch; writers never wait for it. A watch holds at most one pending
     *       event per key under its prefix.</li>
     *   <li>An exception thrown by the listener is logged and drops that event; later ones still
     *       come. Closing the watch or the store stops delivery (see {@link Watch#close()}).</li>
     * </ul>
     *
     * <p>How soon changes arrive is the backend's: an embedded store reports each commit right
     * after it is written; a store that polls reports within a documented delay.
     *
     * @return the watch; close it to stop delivery
     * @throws InvalidArgumentException if {@code prefix} or {@code listener} is null; nothing registered
     * @throws StoreUnavailableException if the prefix could not be read (retryable); nothing registered
     * @throws StoreClosedException if the store is closed
     */
    Watch watch(KeyPrefix prefix, WatchListener listener);

    /**
     * Releases the store's resources and ends every watch. Idempotent; every later call raises
     * {@link StoreClosedException}. Resources the caller supplied (such as a client) stay open.
     */
    @Override
    void close();

    /** Creates {@code key} with {@code value} if it is absent. */
    default WriteResult create(MetaKey key, MetaValue value) {
        return apply(Mutation.create(key, value));
    }

    /** Replaces {@code expected} with {@code value} if the key holds exactly {@code expected}. */
    default WriteResult update(MetaKey key, MetaValue expected, MetaValue value) {
        return apply(Mutation.update(key, expected, value));
    }

    /** Deletes {@code key} if it holds exactly {@code expected}. */
    default WriteResult delete(MetaKey key, MetaValue expected) {
        return apply(Mutation.delete(key, expected));
    }

    /** The transaction of {@code conditions} and {@code mutations}; see {@link Transaction#of}. */
    default TransactionResult transact(List<Condition> conditions, List<Mutation> mutations) {
        return transact(Transaction.of(conditions, mutations));
    }

    /** The first page of {@code prefix}. */
    default Page page(KeyPrefix prefix, int limit) {
        return page(PageRequest.first(prefix, limit));
    }
}
