package io.lake.meta.rocks;

import io.lake.meta.MetaStore;
import io.lake.meta.spi.RaceHooks;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

/**
 * Entry point of the embedded RocksDB backend: {@code RocksDbMetaStore.builder().directory(dir).build()}.
 *
 * <p>The store keeps its data in one directory that only one open store may use at a time.
 * Every commit is one atomic RocksDB write batch; concurrent writers share write-ahead-log
 * syncs (group commit), and no write is acknowledged before it is as durable as the
 * {@link Durability} setting promises.
 */
public final class RocksDbMetaStore {

    private RocksDbMetaStore() {
    }

    /** A builder with the defaults: synced WAL, waiting writers yield then park, create the store if missing, no race hooks. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Configures and opens a RocksDB store. Each option may be set once; a null or repeated
     * option fails at once. Not thread-safe; build one store per builder call.
     */
    public static final class Builder {

        private Path directory;
        private Durability durability;
        private Boolean createIfMissing;
        private RaceHooks raceHooks;
        private WaitingWriters waitingWriters;

        private Builder() {
        }

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
            requireNonNull(w, "waitingWriters", "pass WaitingWriters.YIELD_THEN_PARK (the default) or WaitingWriters.PARK");
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
            return StoreOpener.open(directory,
                    durability == null ? Durability.SYNCED_WAL : durability,
                    waitingWriters == null ? WaitingWriters.YIELD_THEN_PARK : waitingWriters,
                    createIfMissing == null || createIfMissing,
                    raceHooks == null ? RaceHooks.NONE : raceHooks,
                    UnaryOperator.identity());
        }

        private static void requireNonNull(Object value, String option, String fix) {
            if (value == null) {
                throw new io.lake.meta.InvalidArgumentException(option + " must not be null: " + fix);
            }
        }

        private static void requireUnset(Object current, String option) {
            if (current != null) {
                throw new IllegalStateException(option + " was already set to " + current
                        + ": set each option once per builder");
            }
        }
    }
}
