package io.lake.meta.rocks;

import io.lake.meta.MetaStore;
import io.lake.meta.spi.RaceHooks;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * Entry point of the embedded RocksDB backend: {@code RocksDbMetaStore.builder().directory(dir).build()}.
 *
 * <p>The store keeps its data in one directory that only one open store may use at a time.
 * Every commit is one atomic RocksDB write batch; concurrent writers share write-ahead-log
 * syncs (group commit), and no write is acknowledged before it is as durable as the
 * {@link Durability} setting promises. Another process can read the store meanwhile through a
 * read-only view ({@link Builder#buildReadOnly()}).
 *
 * @since 0.1.0
 */
public final class RocksDbMetaStore {

    /**
     * How often a read-only view's watches poll unless {@link Builder#pollInterval(Duration)} says otherwise.
     *
     * @since 0.1.0
     */
    public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(1);

    private static final Duration MIN_POLL_INTERVAL = Duration.ofMillis(10);
    private static final Duration MAX_POLL_INTERVAL = Duration.ofHours(1);

    private RocksDbMetaStore() {}

    /** A builder with the defaults: synced WAL, waiting writers yield then park, create the store if missing, no race hooks. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Configures and opens a RocksDB store. Each option may be set once; a null or repeated
     * option fails at once. Not thread-safe; build one store per builder call.
     */
    public static final class Builder {

        private @Nullable Path directory;
        private @Nullable Durability durability;
        private @Nullable Boolean createIfMissing;
        private @Nullable RaceHooks raceHooks;
        private @Nullable WaitingWriters waitingWriters;
        private @Nullable Duration pollInterval;

        private Builder() {}

        /**
         * The directory that holds the store (required).
         *
         * @throws io.lake.meta.InvalidArgumentException if {@code dir} is null
         * @throws IllegalStateException if the directory was already set
         */
        public Builder directory(Path dir) {
            requireNonNull(dir, "directory", "pass the directory that holds (or will hold) the store");
            requireUnset(directory, "directory");
            directory = dir.toAbsolutePath().normalize();
            return this;
        }

        /**
         * When writes are acknowledged; {@link Durability#SYNCED_WAL} by default.
         *
         * @throws io.lake.meta.InvalidArgumentException if {@code d} is null
         * @throws IllegalStateException if the durability was already set
         */
        public Builder durability(Durability d) {
            requireNonNull(d, "durability", "pass Durability.SYNCED_WAL (the default) or Durability.UNSYNCED_WAL");
            requireUnset(durability, "durability");
            durability = d;
            return this;
        }

        /**
         * Whether {@link #build()} creates a new store when the directory is missing or empty;
         * true by default. With false, a missing or empty directory fails to open.
         *
         * @throws IllegalStateException if the option was already set
         */
        public Builder createIfMissing(boolean create) {
            requireUnset(createIfMissing, "createIfMissing");
            createIfMissing = create;
            return this;
        }

        /**
         * What a writer does while another writer writes the batch holding its commit;
         * {@link WaitingWriters#YIELD_THEN_PARK} by default. {@link WaitingWriters#PARK} spends no
         * CPU waiting, for stores under a CPU quota.
         *
         * @throws io.lake.meta.InvalidArgumentException if {@code w} is null
         * @throws IllegalStateException if the option was already set
         */
        public Builder waitingWriters(WaitingWriters w) {
            requireNonNull(
                    w, "waitingWriters", "pass WaitingWriters.YIELD_THEN_PARK (the default) or WaitingWriters.PARK");
            requireUnset(waitingWriters, "waitingWriters");
            waitingWriters = w;
            return this;
        }

        /**
         * Hooks the store calls at its race points, for tests; {@link RaceHooks#NONE} by default.
         *
         * @throws io.lake.meta.InvalidArgumentException if {@code h} is null
         * @throws IllegalStateException if the hooks were already set
         */
        public Builder raceHooks(RaceHooks h) {
            requireNonNull(h, "raceHooks", "omit raceHooks(...) or pass RaceHooks.NONE for no hooks");
            requireUnset(raceHooks, "raceHooks");
            raceHooks = h;
            return this;
        }

        /**
         * Opens the store. The caller owns it and must close it.
         *
         * @throws IllegalStateException if no directory was set
         * @throws io.lake.meta.InvalidArgumentException if the directory is missing (with
         *     {@code createIfMissing(false)}), not a directory, or holds something other than a
         *     readable lake-meta store of this format version; nothing was created or changed
         *     (an existing database is read read-only before it is opened for writing)
         * @throws io.lake.meta.StoreUnavailableException if another process or another open
         *     store in this process holds the directory (retry once it is closed; nothing was
         *     changed), or RocksDB could not open it
         */
        public MetaStore build() {
            if (directory == null) {
                throw new IllegalStateException("no store directory set: call directory(path) before build()");
            }
            return StoreOpener.open(
                    directory,
                    durability == null ? Durability.SYNCED_WAL : durability,
                    waitingWriters == null ? WaitingWriters.YIELD_THEN_PARK : waitingWriters,
                    createIfMissing == null || createIfMissing,
                    raceHooks == null ? RaceHooks.NONE : raceHooks,
                    UnaryOperator.identity());
        }

        /**
         * How often the watches of a {@linkplain #buildReadOnly() read-only view} poll the store
         * (default 1 second; 10 ms to 1 hour). A store opened with {@link #build()} reports each
         * commit to its watches and does not poll.
         *
         * @throws io.lake.meta.InvalidArgumentException if {@code interval} is null or out of range
         * @since 0.1.0
         */
        public Builder pollInterval(Duration interval) {
            requireNonNull(interval, "pollInterval", "omit pollInterval(...) for the default of 1 second");
            if (interval.compareTo(MIN_POLL_INTERVAL) < 0 || interval.compareTo(MAX_POLL_INTERVAL) > 0) {
                throw new io.lake.meta.InvalidArgumentException(
                        "pollInterval must be between 10 ms and 1 hour, got " + interval);
            }
            requireUnset(pollInterval, "pollInterval");
            pollInterval = interval;
            return this;
        }

        /**
         * Opens a read-only view of an existing store, also while another process (a service that
         * embeds the store) holds it: a RocksDB secondary instance, which takes no lock and writes
         * nothing into the directory. Every read first catches up with what the holder has
         * written, so it sees every write committed before it began; watches poll (see
         * {@link #pollInterval(Duration)}). Writes fail with
         * {@link io.lake.meta.ReadOnlyStoreException} and change nothing. The caller owns the view
         * and must close it. {@code durability}, {@code waitingWriters} and {@code raceHooks} do
         * not apply.
         *
         * @throws IllegalStateException if no directory was set, or {@code createIfMissing(true)} was
         * @throws io.lake.meta.InvalidArgumentException if the directory is missing or does not hold
         *     a readable lake-meta store of this format version; nothing was changed
         * @throws io.lake.meta.StoreUnavailableException if RocksDB could not open it
         * @since 0.1.0
         */
        public MetaStore buildReadOnly() {
            if (directory == null) {
                throw new IllegalStateException("no store directory set: call directory(path) before buildReadOnly()");
            }
            if (Boolean.TRUE.equals(createIfMissing)) {
                throw new IllegalStateException("createIfMissing(true) with buildReadOnly(): a read-only view opens an"
                        + " existing store; create it with build()");
            }
            return SecondaryStore.open(directory, pollInterval == null ? DEFAULT_POLL_INTERVAL : pollInterval);
        }

        private static void requireNonNull(Object value, String option, String fix) {
            if (value == null) {
                throw new io.lake.meta.InvalidArgumentException(option + " must not be null: " + fix);
            }
        }

        private static void requireUnset(@Nullable Object current, String option) {
            if (current != null) {
                throw new IllegalStateException(
                        option + " was already set to " + current + ": set each option once per builder");
            }
        }
    }
}
