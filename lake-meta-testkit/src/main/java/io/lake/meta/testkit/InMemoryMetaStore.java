package io.lake.meta.testkit;

import io.lake.meta.BatchKeys;
import io.lake.meta.Condition;
import io.lake.meta.Entry;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.Page;
import io.lake.meta.PageCost;
import io.lake.meta.PageRequest;
import io.lake.meta.StoreClosedException;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionFailure;
import io.lake.meta.TransactionResult;
import io.lake.meta.WriteResult;
import io.lake.meta.spi.KeyFamilies;
import io.lake.meta.spi.PageCursor;
import io.lake.meta.spi.PageTokenCodec;
import io.lake.meta.spi.RaceHooks;
import io.lake.meta.spi.TooManyFamiliesException;
import io.lake.meta.spi.WatchRegistry;
import io.lake.meta.watch.Watch;
import io.lake.meta.watch.WatchListener;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The obviously-correct {@link MetaStore}: one lock, one sorted map. It is the model the
 * property tests compare every backend with, and a convenient store for unit tests of code
 * written against the contract.
 *
 * <ul>
 *   <li>Every operation runs under one lock, so operations are linearizable in lock order.</li>
 *   <li>Each commit (a conditional write or a transaction, guarded mutations included) checks
 *       all its preconditions; when they hold,
 *       it calls {@code hooks.reached(}{@link RaceHooks#COMMIT_CHECKED}{@code )} while still
 *       holding the lock, then makes its writes visible. A conflict or a failed condition writes
 *       nothing and reaches no hook; a transaction that fails reports every failed key. A test pausing a writer there therefore holds every other
 *       operation off until it releases the writer.</li>
 *   <li>Conflicts always carry the current value ({@link WriteResult#isCurrentKnown()} is true).</li>
 *   <li>Pages follow the unsigned-byte order of the keys' UTF-8 encodings (the order of
 *       {@link MetaKey#compareTo}). A page reads at most {@code limit} entries plus one
 *       look-ahead inside the prefix: it returns a continuation token only when the look-ahead
 *       found another key. A page that exactly fills {@code limit} with nothing after it therefore
 *       has <em>no</em> token. {@link PageCost#itemsEvaluated()} counts the entries read, the
 *       look-ahead included when it found one. Tokens use the shared {@link PageTokenCodec} with
 *       layout {@value #LAYOUT} and one partition; the cursor is the last key returned.</li>
 *   <li>Nothing is ever read outside the requested prefix.</li>
 *   <li>Watches are native: each commit that applies hands its writes, in order, to the watches
 *       while still holding the lock, so watches hear commits in commit order; listeners run on
 *       the threads of a {@link WatchRegistry}, never under the lock.</li>
 * </ul>
 *
 * <p>Thread-safe. {@link #close()} is idempotent; afterwards every call throws
 * {@link StoreClosedException}.
 *
 * @since 0.1.0
 */
public final class InMemoryMetaStore implements MetaStore, KeyFamilies {

    /** The layout descriptor of this store's page tokens. */
    public static final String LAYOUT = "memory";

    private final Object lock = new Object();
    private final NavigableMap<byte[], Entry> entries = new TreeMap<>(Arrays::compareUnsigned);
    private final PageTokenCodec tokens = new PageTokenCodec(LAYOUT, 1);
    private final RaceHooks hooks;
    private final WatchRegistry watches = new WatchRegistry("InMemoryMetaStore");
    private boolean closed;

    private InMemoryMetaStore(RaceHooks hooks) {
        this.hooks = hooks;
    }

    /** An empty store without race hooks. */
    public static InMemoryMetaStore create() {
        return new InMemoryMetaStore(RaceHooks.NONE);
    }

    /**
     * An empty store that calls {@code hooks} at {@link RaceHooks#COMMIT_CHECKED} inside every commit that applies.
     *
     * @throws InvalidArgumentException if {@code hooks} is null
     */
    public static InMemoryMetaStore withHooks(RaceHooks hooks) {
        return new InMemoryMetaStore(notNull(hooks, "race hooks"));
    }

    @Override
    public Optional<MetaValue> get(MetaKey key) {
        notNull(key, "key");
        synchronized (lock) {
            requireOpen();
            return current(key);
        }
    }

    @Override
    public Map<MetaKey, MetaValue> getAll(Collection<MetaKey> keys) {
        List<MetaKey> batch = BatchKeys.requireValid(keys);
        synchronized (lock) {
            requireOpen();
            Map<MetaKey, MetaValue> found = new LinkedHashMap<>();
            for (MetaKey key : batch) {
                current(key).ifPresent(value -> found.put(key, value));
            }
            return Collections.unmodifiableMap(found);
        }
    }

    @Override
    public WriteResult apply(Mutation mutation) {
        notNull(mutation, "mutation");
        synchronized (lock) {
            requireOpen();
            return commit(mutation);
        }
    }

    @Override
    public TransactionResult transact(Transaction transaction) {
        notNull(transaction, "transaction");
        synchronized (lock) {
            requireOpen();
            List<TransactionFailure> failures = new ArrayList<>();
            for (Condition condition : transaction.conditions()) {
                Optional<MetaValue> current = current(condition.key());
                if (!condition.isMet(current)) {
                    failures.add(TransactionFailure.found(condition.key(), current));
                }
            }
            for (Mutation mutation : transaction.mutations()) {
                Optional<MetaValue> current = current(mutation.key());
                if (!mutation.preconditionHolds(current)) {
                    failures.add(TransactionFailure.found(mutation.key(), current));
                }
            }
            if (!failures.isEmpty()) {
                return TransactionResult.notApplied(failures);
            }
            hooks.reached(RaceHooks.COMMIT_CHECKED);
            transaction.mutations().forEach(this::write);
            publish(transaction.mutations());
            return TransactionResult.applied();
        }
    }

    /** Checks {@code mutation}'s precondition and, when it holds, writes it. Call holding the lock. */
    private WriteResult commit(Mutation mutation) {
        Optional<MetaValue> current = current(mutation.key());
        if (!mutation.preconditionHolds(current)) {
            return WriteResult.conflict(current);
        }
        hooks.reached(RaceHooks.COMMIT_CHECKED);
        write(mutation);
        publish(List.of(mutation));
        return WriteResult.applied();
    }

    @Override
    public Page page(PageRequest request) {
        notNull(request, "page request");
        synchronized (lock) {
            requireOpen();
            KeyPrefix prefix = request.prefix();
            Optional<MetaKey> after = request.token()
                    .flatMap(token -> tokens.decode(prefix, token).afterKey(prefix));
            Iterator<Entry> candidates = range(prefix, after);
            List<Entry> page = new ArrayList<>();
            while (page.size() < request.limit() && candidates.hasNext()) {
                page.add(candidates.next());
            }
            boolean more = candidates.hasNext(); // the look-ahead: reads at most one more entry
            Optional<String> next = more
                    ? Optional.of(tokens.encode(
                            prefix,
                            PageCursor.after(
                                    0, prefix, page.get(page.size() - 1).key())))
                    : Optional.empty();
            return new Page(page, next, PageCost.items(page.size() + (more ? 1 : 0)));
        }
    }

    /** The family of each first key past the family before it: the model of a skip scan. */
    @Override
    public List<String> families() {
        synchronized (lock) {
            requireOpen();
            List<String> families = new ArrayList<>();
            for (Entry entry = first(entries.firstEntry());
                    entry != null;
                    entry = first(
                            entries.ceilingEntry(familySuccessor(entry.key().family())))) {
                if (families.size() == MAX_FAMILIES) {
                    throw new TooManyFamiliesException(toString());
                }
                families.add(entry.key().family());
            }
            return List.copyOf(families);
        }
    }

    private static @Nullable Entry first(Map.@Nullable Entry<byte[], Entry> found) {
        return found == null ? null : found.getValue();
    }

    /** The first key after every key of {@code family}: its name followed by the byte after '/'. */
    private static byte[] familySuccessor(String family) {
        return (family + "0").getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Reads the prefix through {@link #page} as the initial events, then reports every commit; see {@link MetaStore#watch}. */
    @Override
    public Watch watch(KeyPrefix prefix, WatchListener listener) {
        return watches.watch(this, prefix, listener);
    }

    /** The number of keys held, for tests. */
    public int size() {
        synchronized (lock) {
            requireOpen();
            return entries.size();
        }
    }

    /** A read-only snapshot of every entry, in key order, for tests and debugging. */
    public List<Entry> snapshot() {
        synchronized (lock) {
            requireOpen();
            return List.copyOf(entries.values());
        }
    }

    @Override
    public void close() {
        synchronized (lock) {
            closed = true;
        }
        watches.close();
    }

    @Override
    public String toString() {
        return "InMemoryMetaStore";
    }

    /**
     * The entries under {@code prefix}, strictly after {@code after} when present, read lazily in
     * key order until the first key outside the prefix (keys under a prefix are contiguous).
     */
    private Iterator<Entry> range(KeyPrefix prefix, Optional<MetaKey> after) {
        byte[] start = after.map(MetaKey::utf8).orElse(prefix.utf8());
        return entries.tailMap(start, after.isEmpty()).values().stream()
                .takeWhile(entry -> prefix.contains(entry.key()))
                .iterator();
    }

    private Optional<MetaValue> current(MetaKey key) {
        return Optional.ofNullable(entries.get(key.utf8())).map(Entry::value);
    }

    private void write(Mutation mutation) {
        Optional<MetaValue> value = mutation.newValue();
        if (value.isPresent()) {
            entries.put(mutation.key().utf8(), new Entry(mutation.key(), value.get()));
        } else {
            entries.remove(mutation.key().utf8());
        }
    }

    /** Hands one applied commit's writes to the watches. Call holding the lock, so commits publish in commit order. */
    private void publish(List<Mutation> written) {
        if (watches.hasWatches()) {
            watches.publish(WatchRegistry.changesOf(written));
        }
    }

    private void requireOpen() {
        if (closed) {
            throw new StoreClosedException(toString());
        }
    }

    private static <T> T notNull(T value, String name) {
        if (value == null) {
            throw new InvalidArgumentException(name + " must not be null");
        }
        return value;
    }
}
