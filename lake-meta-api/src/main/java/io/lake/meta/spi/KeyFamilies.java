package io.lake.meta.spi;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaStore;
import java.util.List;
import java.util.Optional;

/**
 * An optional capability of a store: the families it holds keys in (a family is a key's first
 * segment, before its first {@code '/'}). The {@link MetaStore} contract lists keys by prefix only;
 * a tool that must see every key (a copy of the whole store) asks the families first, then lists
 * each as {@code KeyPrefix.family(name)}.
 *
 * <p>A store holds few families (each is a kind of key: tables, leases, counters), so the answer is
 * one list, capped at {@value #MAX_FAMILIES}; a store holding more answers
 * {@link TooManyFamiliesException} rather than a partial list. RocksDB and PostgreSQL find the
 * families without reading every key: one seek or one index probe per family. DynamoDB cannot
 * list a table's partition keys, so it reads every item: one Scan of the whole table, whose read
 * capacity grows with the table's size (see the DynamoDB guide).
 *
 * <p>Find the capability with {@link #of(MetaStore)}, which also looks through a
 * {@link ForwardingMetaStore} to its delegate: a decorator forwards it exactly when the store it
 * wraps has it. A decorator that changes which keys its callers see implements this interface
 * itself, and {@code of} then answers it rather than its delegate. Internal keys a backend keeps
 * for itself are never reported.
 *
 * @since 0.1.0
 */
public interface KeyFamilies {

    /** The most families {@link #families()} answers; a store holding more is refused. */
    int MAX_FAMILIES = 1000;

    /**
     * Every family holding at least one key, without its {@code '/'}, in unsigned-byte order of
     * {@code family + "/"} (the order pages list keys in).
     *
     * @throws TooManyFamiliesException if the store holds more than {@value #MAX_FAMILIES} families
     * @throws io.lake.meta.StoreUnavailableException if the store could not be read
     * @throws io.lake.meta.StoreClosedException if the store is closed
     */
    List<String> families();

    /**
     * The capability of {@code store}, looking through forwarding decorators; empty when the store
     * (or the store a decorator wraps) cannot list its families.
     *
     * @since 0.1.0
     */
    static Optional<KeyFamilies> of(MetaStore store) {
        if (store == null) {
            throw new InvalidArgumentException("store is null");
        }
        MetaStore current = store;
        while (true) {
            if (current instanceof KeyFamilies families) {
                return Optional.of(families);
            }
            if (current instanceof ForwardingMetaStore forwarding) {
                current = forwarding.delegate();
            } else {
                return Optional.empty();
            }
        }
    }
}
