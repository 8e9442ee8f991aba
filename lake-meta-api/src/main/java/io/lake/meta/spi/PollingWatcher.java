package io.lake.meta.spi;

import io.lake.meta.Entry;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.StoreClosedException;
import io.lake.meta.watch.Watch;
import io.lake.meta.watch.WatchEvent;
import io.lake.meta.watch.WatchListener;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * For backends that cannot see every commit (their writes land in a shared service): watches
 * that read the prefix through the store's own pages once per interval and report what differs
 * from the previous read. Any {@link MetaStore} can implement {@link MetaStore#watch} with it.
 *
 * <ul>
 *   <li>{@link #watch} reads the prefix before it returns (the initial events), so an unreachable
 *       store fails the call rather than a background thread.</li>
 *   <li>Each poll lists the whole prefix and compares each key's SHA-256 digest with the previous
 *       poll's: a new key or another digest is a change, a key no longer listed is a deletion. Only
 *       digests are kept between polls (32 bytes a key), never values.</li>
 *   <li>Delay: a poll starts one interval after the previous one ended, so a change is reported
 *       within one interval plus two listings (the listing under way when the change landed may
 *       have passed its key already), plus the listener's own backlog.</li>
 *   <li>Per-key order holds because each poll reads each key at most once and starts after the
 *       previous poll ended, on a store whose pages read linearizably. A change undone before the
 *       next poll (A, B, A) is not reported: the key still holds what the listener last heard.</li>
 *   <li>A poll that fails, with any exception or {@link Error} but a {@link VirtualMachineError},
 *       is logged and retried at the next interval; its changes come later. A poll that finds the
 *       store closed ends its watch: nothing polls it again.</li>
 * </ul>
 *
 * <p>Cost: one full listing of the prefix per watch per interval. Polls run on one daemon thread
 * per watcher, listeners on the threads of a {@link WatchRegistry}. Thread-safe.
 *
 * @since 0.1.0
 */
public final class PollingWatcher implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PollingWatcher.class);

    private final MetaStore source;
    private final Duration interval;
    private final String description;
    private final WatchRegistry registry;
    private final List<PolledPrefix> polled = new CopyOnWriteArrayList<>();
    private final Object lifecycle = new Object();
    private @Nullable ScheduledExecutorService scheduler; // guarded by lifecycle; started with the first watch
    private boolean closed; // guarded by lifecycle

    /**
     * @param source the store whose pages are read; {@link #watch} and every poll call its {@code page}
     * @param interval the pause between the end of one poll of a watch and the start of its next; positive
     * @param description names the store in logs and thread names
     * @throws InvalidArgumentException if an argument is null, or the interval is not positive
     */
    public PollingWatcher(MetaStore source, Duration interval, String description) {
        if (source == null) {
            throw new InvalidArgumentException("source must not be null");
        }
        if (interval == null || interval.isNegative() || interval.isZero()) {
            throw new InvalidArgumentException("poll interval must be positive, got " + interval);
        }
        if (description == null) {
            throw new InvalidArgumentException("description must not be null");
        }
        this.source = source;
        this.interval = interval;
        this.description = description;
        this.registry = new WatchRegistry(description);
    }

    /**
     * Reads the prefix (the initial events), then polls it every interval until the watch, or this
     * watcher, is closed.
     *
     * @throws InvalidArgumentException if an argument is null; nothing registered
     * @throws StoreClosedException if this watcher is closed
     * @throws RuntimeException whatever reading the prefix throws; nothing stays registered
     */
    public Watch watch(KeyPrefix prefix, WatchListener listener) {
        PolledPrefix[] self = new PolledPrefix[1];
        DispatchedWatch watch = registry.register(prefix, listener, () -> {
            if (self[0] != null) { // null only when closed while being registered
                polled.remove(self[0]);
                self[0].stop();
            }
        });
        self[0] = new PolledPrefix(watch);
        try {
            Map<MetaKey, Digest> baseline = new HashMap<>();
            MessageDigest sha256 = sha256();
            PrefixListing.forEach(source, prefix, entry -> {
                baseline.put(entry.key(), Digest.of(sha256, entry.value()));
                watch.addInitial(entry);
            });
            self[0].seen = baseline;
            watch.start();
            schedule(self[0]);
            return watch;
        } catch (Throwable e) { // a checked one too (a Kotlin store): nothing may stay registered
            watch.close();
            throw e;
        }
    }

    private void schedule(PolledPrefix prefix) {
        synchronized (lifecycle) {
            if (closed) {
                prefix.watch.close();
                throw new StoreClosedException(description);
            }
            if (scheduler == null) {
                ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, task -> {
                    Thread thread = new Thread(task, "lake-meta-poll[" + description + "]");
                    thread.setDaemon(true);
                    return thread;
                });
                executor.setRemoveOnCancelPolicy(true);
                scheduler = executor;
            }
            polled.add(prefix);
            long nanos = interval.toNanos();
            prefix.future =
                    scheduler.scheduleWithFixedDelay(() -> pollQuietly(prefix), nanos, nanos, TimeUnit.NANOSECONDS);
        }
        if (prefix.watch.isClosed()) { // closed while being scheduled, before its future was known
            polled.remove(prefix);
            prefix.stop();
        }
    }

    /**
     * Polls every open watch once, now, on the calling thread (serialized with the scheduled
     * polls of the same watch). For tests, and for a caller that knows something changed.
     *
     * @throws RuntimeException whatever reading the store throws; the watch keeps its previous view
     *     ({@link StoreClosedException}: the watch ended)
     */
    public void pollNow() {
        for (PolledPrefix prefix : polled) {
            prefix.poll();
        }
    }

    /**
     * A scheduled poll. It must not throw: the scheduler would silently drop every later run. So
     * any failure is logged and the next interval polls again, except a {@link VirtualMachineError}
     * (the JVM is failing; it is logged and rethrown) and a closed store (the watch ends).
     */
    private void pollQuietly(PolledPrefix prefix) {
        try {
            prefix.poll();
        } catch (StoreClosedException e) {
            LOG.debug("{}: the store closed; the watch of '{}' ends", description, prefix.watch.prefix());
        } catch (VirtualMachineError e) {
            LOG.error(
                    "{}: polling '{}' failed with {}; this watch polls no more",
                    description,
                    prefix.watch.prefix(),
                    e.toString(),
                    e);
            throw e;
        } catch (
                Throwable
                        e) { // any other Error or exception, a checked one included (a store in Kotlin, a sneaky throw)
            LOG.warn(
                    "{}: polling '{}' failed ({}); changes will be reported by a later poll",
                    description,
                    prefix.watch.prefix(),
                    e.toString(),
                    e);
        }
    }

    /** Closes every watch and stops polling (a poll under way is not waited for). Idempotent. */
    @Override
    public void close() {
        ScheduledExecutorService running;
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
            running = scheduler;
        }
        registry.close();
        if (running != null) {
            running.shutdown();
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256, which every Java platform must provide", e);
        }
    }

    /** One watched prefix: what its last poll saw, and its place in the schedule. */
    private final class PolledPrefix {
        final DispatchedWatch watch;
        Map<MetaKey, Digest> seen = Map.of(); // guarded by this; the baseline before the first poll
        volatile @Nullable ScheduledFuture<?> future;

        PolledPrefix(DispatchedWatch watch) {
            this.watch = watch;
        }

        synchronized void poll() {
            if (watch.isClosed()) {
                return;
            }
            MessageDigest sha256 = sha256();
            Map<MetaKey, Digest> now = new HashMap<>();
            List<WatchEvent> changes = new ArrayList<>();
            try {
                PrefixListing.forEach(source, watch.prefix(), (Entry entry) -> {
                    Digest digest = Digest.of(sha256, entry.value());
                    now.put(entry.key(), digest);
                    if (!digest.equals(seen.get(entry.key()))) {
                        changes.add(WatchEvent.changed(entry.key(), entry.value()));
                    }
                });
            } catch (StoreClosedException e) {
                watch.close(); // under this poll's lock, so a poll that waited for it reads nothing more
                throw e;
            }
            for (MetaKey key : seen.keySet()) {
                if (!now.containsKey(key)) {
                    changes.add(WatchEvent.deleted(key));
                }
            }
            seen = now;
            // One offer per poll, after the whole listing: every change a poll found is queued
            // before any change of a later poll.
            watch.offer(changes);
        }

        void stop() {
            ScheduledFuture<?> scheduled = future;
            if (scheduled != null) {
                scheduled.cancel(false);
            }
        }
    }

    /** A value's SHA-256, as four longs: compact and comparable. */
    private record Digest(long a, long b, long c, long d) {
        static Digest of(MessageDigest sha256, MetaValue value) {
            ByteBuffer hash = ByteBuffer.wrap(sha256.digest(value.toByteArray()));
            return new Digest(hash.getLong(), hash.getLong(), hash.getLong(), hash.getLong());
        }
    }

    @Override
    public String toString() {
        return "PollingWatcher[" + description + ", every " + interval + "]";
    }
}
