package io.lake.meta.postgres;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaStore;
import io.lake.meta.spi.RaceHooks;
import java.time.Duration;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * The PostgreSQL backend of {@link MetaStore}: one table of {@code (k bytea primary key, v bytea)}
 * behind any JDBC {@link DataSource}.
 *
 * <pre>{@code
 * MetaStore store = PostgresMetaStore.builder()
 *         .dataSource(pool)              // yours: any pool, your credentials
 *         .table("lake_meta")
 *         .createTableIfMissing(true)
 *         .build();
 * }</pre>
 *
 * <p><b>Ownership:</b> the data source is the caller's; the store never closes it, not even in
 * {@link MetaStore#close()}.
 *
 * <p><b>Commits:</b> each write is one READ COMMITTED transaction that takes a transaction-scoped
 * advisory lock per key (in one fixed order, so two commits never deadlock on them), reads the
 * keys, checks every precondition, writes, and commits. A commit whose connection is lost while
 * its {@code COMMIT} was in flight is resolved by its transaction id on a new connection
 * ({@code pg_xact_status}): committed is applied, aborted is not applied, and only when the server
 * cannot say is the answer {@link io.lake.meta.OutcomeUnknownException}. See
 * {@code docs/guides/postgres.md}.
 *
 * @since 0.1.0
 */
public final class PostgresMetaStore {

    private PostgresMetaStore() {}

    /** The table {@link Builder#table} names unless set. */
    public static final String DEFAULT_TABLE = "lake_meta";

    /** The pause between two polls of a watch unless {@link Builder#pollInterval} says otherwise. */
    public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(1);

    /** The shortest poll interval: each poll of a watch reads its whole prefix. */
    public static final Duration MIN_POLL_INTERVAL = Duration.ofMillis(10);

    /** The longest poll interval. */
    public static final Duration MAX_POLL_INTERVAL = Duration.ofHours(1);

    /**
     * How long a commit whose answer was lost waits, by default, for the server to settle the
     * transaction's status before it answers {@link io.lake.meta.OutcomeUnknownException}.
     */
    public static final Duration DEFAULT_RESOLUTION_TIMEOUT = Duration.ofSeconds(30);

    /**
     * The database server's wall clock, for the lease recipes' {@code clock(...)} option (the
     * election, locks, fenced table locks): every candidate then measures lease expiry on the same
     * clock, so no margin for disagreement between the candidates' clocks is needed. Each reading
     * is one round trip ({@code SELECT clock_timestamp()}); the recipes read it once or twice per
     * lease round. When the server cannot be read, the reading falls back to the local clock
     * corrected by the last measured offset (logged). See {@code docs/guides/postgres.md}.
     *
     * @throws InvalidArgumentException if {@code dataSource} is null
     * @since 0.1.0
     */
    public static java.time.Clock serverClock(DataSource dataSource) {
        if (dataSource == null) {
            throw new InvalidArgumentException("dataSource must not be null: pass the DataSource the store uses");
        }
        return new ServerClock(dataSource);
    }

    /**
     * A builder with the defaults: table {@value #DEFAULT_TABLE}, no table creation, watches
     * polled every second, 30 s to resolve a lost commit answer, no race hooks.
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Configures and opens a store. Setting an option twice is an {@link IllegalStateException};
     * a bad value is an {@link InvalidArgumentException} naming the rule. Not thread-safe; build
     * once.
     *
     * @since 0.1.0
     */
    public static final class Builder {

        private @Nullable DataSource dataSource;
        private @Nullable String table;
        private @Nullable Boolean createTableIfMissing;
        private @Nullable Duration pollInterval;
        private @Nullable Duration resolutionTimeout;
        private @Nullable RaceHooks raceHooks;

        private Builder() {}

        /**
         * Where connections come from (required): a pool or a plain data source of the PostgreSQL
         * driver. The store never closes it.
         *
         * @throws InvalidArgumentException if {@code source} is null
         * @throws IllegalStateException if the data source was already set
         */
        public Builder dataSource(DataSource source) {
            requireNonNull(source, "dataSource", "pass the DataSource (pool) the store takes its connections from");
            requireUnset(dataSource, "dataSource");
            dataSource = source;
            return this;
        }

        /**
         * The table that holds the store: an unquoted lower-case SQL name, optionally qualified
         * by its schema ({@code meta.lake_meta}); {@value #DEFAULT_TABLE} by default.
         *
         * @throws InvalidArgumentException if {@code name} is null or not such a name
         * @throws IllegalStateException if the table was already set
         */
        public Builder table(String name) {
            requireNonNull(name, "table", "pass a table name such as \"lake_meta\"");
            requireUnset(table, "table");
            table = TableName.parse(name).toString();
            return this;
        }

        /**
         * Whether {@link #build()} creates the table (and nothing else) when it is missing; false
         * by default, and then a missing table fails the build.
         *
         * @throws IllegalStateException if the option was already set
         */
        public Builder createTableIfMissing(boolean create) {
            requireUnset(createTableIfMissing, "createTableIfMissing");
            createTableIfMissing = create;
            return this;
        }

        /**
         * The pause between the end of one poll of a watch and the start of its next, between
         * {@link #MIN_POLL_INTERVAL} and {@link #MAX_POLL_INTERVAL}; {@link #DEFAULT_POLL_INTERVAL}
         * by default.
         *
         * @throws InvalidArgumentException if {@code interval} is null or out of range
         * @throws IllegalStateException if the option was already set
         */
        public Builder pollInterval(Duration interval) {
            requireNonNull(interval, "pollInterval", "pass a duration such as Duration.ofSeconds(1)");
            requireUnset(pollInterval, "pollInterval");
            if (interval.compareTo(MIN_POLL_INTERVAL) < 0 || interval.compareTo(MAX_POLL_INTERVAL) > 0) {
                throw new InvalidArgumentException("pollInterval must be between " + MIN_POLL_INTERVAL + " and "
                        + MAX_POLL_INTERVAL + ", got " + interval);
            }
            pollInterval = interval;
            return this;
        }

        /**
         * How long a commit whose answer was lost asks the server, on new connections, whether its
         * transaction committed, before it gives up and answers
         * {@link io.lake.meta.OutcomeUnknownException}; {@link #DEFAULT_RESOLUTION_TIMEOUT} by
         * default, between 1 ms and 1 hour.
         *
         * @throws InvalidArgumentException if {@code timeout} is null or out of range
         * @throws IllegalStateException if the option was already set
         */
        public Builder resolutionTimeout(Duration timeout) {
            requireNonNull(timeout, "resolutionTimeout", "pass a duration such as Duration.ofSeconds(30)");
            requireUnset(resolutionTimeout, "resolutionTimeout");
            if (timeout.compareTo(Duration.ofMillis(1)) < 0 || timeout.compareTo(Duration.ofHours(1)) > 0) {
                throw new InvalidArgumentException("resolutionTimeout must be between 1 ms and 1 hour, got " + timeout);
            }
            resolutionTimeout = timeout;
            return this;
        }

        /**
         * Hooks the store calls at its race points, for tests; {@link RaceHooks#NONE} by default.
         * {@link RaceHooks#COMMIT_CHECKED} is reached after a commit's preconditions held and
         * before its write is sent.
         *
         * @throws InvalidArgumentException if {@code hooks} is null
         * @throws IllegalStateException if the hooks were already set
         */
        public Builder raceHooks(RaceHooks hooks) {
            requireNonNull(hooks, "raceHooks", "omit raceHooks(...) or pass RaceHooks.NONE for no hooks");
            requireUnset(raceHooks, "raceHooks");
            raceHooks = hooks;
            return this;
        }

        /**
         * Checks the table (creating it if asked) and opens the store. The caller owns the store
         * and must close it.
         *
         * @throws IllegalStateException if no data source was set
         * @throws InvalidArgumentException if the table is missing (without
         *     {@code createTableIfMissing(true)}), or is not a lake-meta table, or is of a newer
         *     format; nothing was written
         * @throws io.lake.meta.StoreUnavailableException if the server could not be reached
         */
        public MetaStore build() {
            if (dataSource == null) {
                throw new IllegalStateException("no data source set: call dataSource(ds) before build()");
            }
            TableName name = TableName.parse(table == null ? DEFAULT_TABLE : table);
            TableName resolved =
                    TableSetup.prepare(dataSource, name, createTableIfMissing != null && createTableIfMissing);
            return new PgStore(
                    dataSource,
                    name,
                    resolved,
                    pollInterval == null ? DEFAULT_POLL_INTERVAL : pollInterval,
                    resolutionTimeout == null ? DEFAULT_RESOLUTION_TIMEOUT : resolutionTimeout,
                    raceHooks == null ? RaceHooks.NONE : raceHooks);
        }

        private static void requireNonNull(Object value, String option, String fix) {
            if (value == null) {
                throw new InvalidArgumentException(option + " must not be null: " + fix);
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
