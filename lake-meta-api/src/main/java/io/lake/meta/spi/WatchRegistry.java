package io.lake.meta.spi;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaStore;
import io.lake.meta.Mutation;
import io.lake.meta.StoreClosedException;
import io.lake.meta.watch.Watch;
import io.lake.meta.watch.WatchEvent;
import io.lake.meta.watch.WatchListener;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * For backends that see their own commits: the watches of one store, and their delivery.
 * The store {@linkplain #publish publishes} each commit's changes once it is written, in commit
 * order; the registry hands them to every watch whose prefix holds the key, without ever calling
 * a listener on the publishing thread. Listeners run on daemon threads the registry starts when
 * the first watch is registered.
 *
 * <pre>{@code
 * public Watch watch(KeyPrefix prefix, WatchListener listener) {
 *     return watches.watch(this, prefix, listener);   // registers, reads the contents, starts
 * }
 * // after each commit is written, on the committing thread:
 * if (watches.hasWatches()) watches.publish(changesOfTheCommit);
 * // in close():
 * watches.close();
 * }</pre>
 *
 * <p>Why this keeps the contract's promises: a watch is registered before the initial read, so a
 * commit is either published to it or was written before the read began, and then the read saw it.
 * The initial contents are delivered before the changes, and a key with a change pending is
 * reported by that change only, so no key goes back. Thread-safe.
 *
 * @since 0.1.0
 */
public final class WatchRegistry {

    private static final AtomicInteger THREADS = new AtomicInteger();

    private final String description;
    private final Supplier<ExecutorService> executors;
    private final List<DispatchedWatch> watches = new CopyOnWriteArrayList<>();
    private final Object lifecycle = new Object();
    private @Nullable ExecutorService executor; // guarded by lifecycle; started with the first watch
    private boolean closed; // guarded by lifecycle

    /**
     * @param storeDescription names the store in logs, thread names and errors
     * @throws InvalidArgumentException if it is null
     */
    public WatchRegistry(String storeDescription) {
        this(
                storeDescription,
                () -> Executors.newCachedThreadPool(task -> {
                    Thread thread = new Thread(
                            task, "lake-meta-watch-" + THREADS.incrementAndGet() + "[" + storeDescription + "]");
                    thread.setDaemon(true);
                    return thread;
                }));
    }

    /** For tests: listeners run on the executors {@code executors} makes (one, with the first watch). */
    WatchRegistry(String storeDescription, Supplier<ExecutorService> executors) {
        this.description = requireArgument(storeDescription, "store description");
        this.executors = executors;
    }

    /**
     * Registers a watch, reads {@code source}'s current contents of the prefix through its pages
     * as the initial events, then starts delivery. Implements {@link MetaStore#watch} for a store
     * that publishes every commit here.
     *
     * @throws InvalidArgumentException if an argument is null; nothing registered
     * @throws StoreClosedException if this registry was closed
     * @throws RuntimeException whatever reading {@code source} throws; nothing stays registered
     */
    public Watch watch(MetaStore source, KeyPrefix prefix, WatchListener listener) {
        requireArgument(source, "source");
        DispatchedWatch watch = register(prefix, listener, () -> {});
        try {
            PrefixListing.forEach(source, prefix, watch::addInitial);
            return watch.start();
        } catch (Throwable e) { // a checked one too (a Kotlin store): nothing may stay registered
            watch.close();
            throw e;
        }
    }

    /** Registers a watch that collects changes but delivers nothing until it is started. */
    DispatchedWatch register(KeyPrefix prefix, WatchListener listener, Runnable onClose) {
        requireArgument(prefix, "prefix");
        requireArgument(listener, "listener");
        synchronized (lifecycle) {
            if (closed) {
                throw new StoreClosedException(description);
            }
            if (executor == null) {
                executor = executors.get();
            }
            DispatchedWatch[] self = new DispatchedWatch[1];
            self[0] = new DispatchedWatch(prefix, listener, executor, description, () -> {
                watches.remove(self[0]);
                onClose.run();
            });
            watches.add(self[0]);
            return self[0];
        }
    }

    /** Whether any watch is open; a store may skip building events when none is. */
    public boolean hasWatches() {
        return !watches.isEmpty();
    }

    /**
     * Hands written changes, in commit order, to every watch whose prefix holds their key. Call
     * once per commit, or once per group of consecutive commits (a batch), in commit order, after
     * they are written and before anything later is published. Never calls a listener and never
     * waits for one.
     *
     * @throws InvalidArgumentException if {@code changes} is null
     */
    public void publish(List<WatchEvent> changes) {
        requireArgument(changes, "changes");
        for (DispatchedWatch watch : watches) {
            watch.offer(changes);
        }
    }

    /**
     * The changes that applied {@code mutations} made, in their order: what a store publishes for a commit.
     *
     * @throws InvalidArgumentException if {@code mutations} is or holds null
     */
    public static List<WatchEvent> changesOf(List<Mutation> mutations) {
        requireArgument(mutations, "mutations");
        return mutations.stream()
                .map(m -> requireArgument(m, "a mutation"))
                .map(m -> m.newValue()
                        .map(v -> WatchEvent.changed(m.key(), v))
                        .orElseGet(() -> WatchEvent.deleted(m.key())))
                .toList();
    }

    /**
     * Closes every watch and lets the delivery threads end (a listener call already running is
     * not waited for). Later registrations raise {@link StoreClosedException}. Idempotent.
     */
    public void close() {
        ExecutorService running;
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
            running = executor;
        }
        watches.forEach(DispatchedWatch::close);
        if (running != null) {
            running.shutdown();
        }
    }

    private static <T> T requireArgument(T value, String name) {
        if (value == null) {
            throw new InvalidArgumentException(name + " must not be null");
        }
        return value;
    }

    @Override
    public String toString() {
        return "WatchRegistry[" + description + ", " + watches.size() + " watches]";
    }
}
