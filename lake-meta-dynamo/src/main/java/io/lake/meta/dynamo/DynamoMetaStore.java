package io.lake.meta.dynamo;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaStore;
import io.lake.meta.Ticker;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The DynamoDB backend of {@link MetaStore}, in the sharded v2 layout, or, while a deployment
 * migrates to it online, in the legacy v1 layout or writing both ({@link DynamoLayoutMode}).
 *
 * <pre>{@code
 * try (DynamoDbClient client = DynamoDbClient.create();
 *      MetaStore store = DynamoMetaStore.builder()
 *              .client(client)
 *              .tableName("lake-meta")
 *              .createTableIfMissing(true)
 *              .build()) {
 *     store.create(MetaKey.of("tbl/ns1/orders"), MetaValue.utf8("{...}"));
 * }
 * }</pre>
 *
 * <p><b>Ownership:</b> the client is the caller's. The store never closes it, not even in
 * {@link MetaStore#close()}; close it yourself after the store.
 *
 * <p><b>Layout:</b> hash key {@code pk = family#shard} (S), range key {@code sk} = the full
 * logical key (S), value attribute {@code v} (B), and a layout record that fixes the table's
 * shard count the first time a store opens it. See {@code docs/guides/dynamodb.md}; for the legacy
 * layout and the migration, {@code docs/guides/dynamodb-migration.md}.
 *
 * @since 0.1.0
 */
public final class DynamoMetaStore {

    private DynamoMetaStore() {}

    /** The pause between two polls of a watch unless {@link Builder#pollInterval} says otherwise. */
    public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(1);

    /** The shortest poll interval: each poll of a watch lists its whole prefix. */
    public static final Duration MIN_POLL_INTERVAL = Duration.ofMillis(10);

    /** The longest poll interval. */
    public static final Duration MAX_POLL_INTERVAL = Duration.ofHours(1);

    /**
     * A builder with the defaults: 16 shards for a new table, no table creation, 5 minutes to wait
     * for ACTIVE, watches polled every second.
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Configures and opens a store. Setting an option twice is an {@link IllegalStateException};
     * a bad value is an {@link InvalidArgumentException} naming the rule. Not thread-safe; build
     * once.
     */
    public static final class Builder {

        private @Nullable DynamoDbClient client;
        private @Nullable String tableName;
        private @Nullable String legacyTableName;
        private @Nullable DynamoLayoutMode mode;
        private @Nullable Integer shardCount;
        private @Nullable Boolean createTableIfMissing;
        private @Nullable Duration tableActiveTimeout;
        private @Nullable Duration pollInterval;
        private @Nullable Ticker ticker;

        private Builder() {}

        /** The client to use; required. The store never closes it. */
        public Builder client(DynamoDbClient client) {
            requireUnset(this.client, "client");
            if (client == null) {
                throw new InvalidArgumentException("client must not be null");
            }
            this.client = client;
            return this;
        }

        /**
         * The v2 table's name; required in modes {@code V2} (the default) and {@code DUAL}. 3 to 255
         * characters of {@code [a-zA-Z0-9_.-]}, as DynamoDB demands.
         */
        public Builder tableName(String tableName) {
            requireUnset(this.tableName, "tableName");
            this.tableName = TableNames.requireValid(tableName, "table name");
            return this;
        }

        /**
         * The legacy v1 table's name (hash key {@code k} = the full logical key); required in modes
         * {@code V1} and {@code DUAL}, unused in {@code V2} (as the v2 table and the shard count are
         * unused in {@code V1}: one configuration serves every phase of a migration, only the mode
         * changes). Same naming rules as {@link #tableName}.
         */
        public Builder legacyTableName(String legacyTableName) {
            requireUnset(this.legacyTableName, "legacyTableName");
            this.legacyTableName = TableNames.requireValid(legacyTableName, "legacy table name");
            return this;
        }

        /**
         * Which tables the store reads and writes. Default {@link DynamoLayoutMode#V2}. See
         * {@link DynamoLayoutMode} and {@code docs/guides/dynamodb-migration.md}.
         */
        public Builder mode(DynamoLayoutMode mode) {
            requireUnset(this.mode, "mode");
            if (mode == null) {
                throw new InvalidArgumentException("mode must not be null: use V1, DUAL or V2");
            }
            this.mode = mode;
            return this;
        }

        /**
         * The number of shards each family is spread over, 1 to 1024. It is fixed by the layout
         * record when a table is first used: a store configured with another count refuses to
         * open. Unset: adopt the table's count, or 16 for a new table.
         */
        public Builder shardCount(int shardCount) {
            requireUnset(this.shardCount, "shardCount");
            this.shardCount = TableNames.requireValidShards(shardCount);
            return this;
        }

        /**
         * Whether to create the table (on-demand capacity) when it does not exist. Default false.
         * Creation is idempotent: an existing table is accepted once its key schema is checked.
         */
        public Builder createTableIfMissing(boolean create) {
            requireUnset(this.createTableIfMissing, "createTableIfMissing");
            this.createTableIfMissing = create;
            return this;
        }

        /** How long {@link #build()} waits for a creating table to become ACTIVE. Default 5 minutes. */
        public Builder tableActiveTimeout(Duration timeout) {
            requireUnset(this.tableActiveTimeout, "tableActiveTimeout");
            if (timeout == null || timeout.isNegative()) {
                throw new InvalidArgumentException("tableActiveTimeout must be zero or positive, got " + timeout);
            }
            this.tableActiveTimeout = timeout;
            return this;
        }

        /**
         * How long a watch pauses between the end of one poll and the start of the next, from
         * {@link #MIN_POLL_INTERVAL} (10 ms) to {@link #MAX_POLL_INTERVAL} (1 hour); default
         * {@link #DEFAULT_POLL_INTERVAL} (1 s). A change is reported within one interval plus two
         * listings of the prefix; each poll costs one listing (at least one Query per shard, at
         * least 1 read capacity unit each).
         */
        public Builder pollInterval(Duration interval) {
            requireUnset(this.pollInterval, "pollInterval");
            if (interval == null
                    || interval.compareTo(MIN_POLL_INTERVAL) < 0
                    || interval.compareTo(MAX_POLL_INTERVAL) > 0) {
                throw new InvalidArgumentException("poll interval " + interval + " is out of range: use "
                        + MIN_POLL_INTERVAL.toMillis() + " ms to " + MAX_POLL_INTERVAL.toHours()
                        + " hour (every poll of a watch lists its whole prefix: shorter intervals cost more reads)");
            }
            this.pollInterval = interval;
            return this;
        }

        /**
         * The clock the store measures its own time with; default {@link Ticker#system()}. A
         * transaction is not sent again once its first attempt is older than
         * {@value TransactionResendWindow#WINDOW_MINUTES} minutes by this clock (DynamoDB remembers a
         * {@code ClientRequestToken} for 10 minutes): its outcome is then
         * {@link io.lake.meta.OutcomeUnknownException}. For tests that need a manual clock.
         *
         * @since 0.1.0
         */
        public Builder ticker(Ticker ticker) {
            requireUnset(this.ticker, "ticker");
            if (ticker == null) {
                throw new InvalidArgumentException("ticker must not be null");
            }
            this.ticker = ticker;
            return this;
        }

        /**
         * Opens the store: checks (or creates) the table, waits until it is ACTIVE, checks its key
         * schema and reads its layout record, writing it only on an empty table (one bounded Scan
         * checks that a table without a record is empty).
         *
         * <p>In mode {@code V1} it checks the legacy table's key schema and refuses a table that
         * holds the migration's completion marker; in {@code DUAL} it opens both tables and picks
         * the read authority from the marker.
         *
         * @throws IllegalStateException if the client or a table name the mode needs is missing
         * @throws InvalidArgumentException if the configured shard count differs from the table's
         *     (or, in modes V1 and DUAL, the legacy table and the v2 table are the same)
         * @throws DynamoStoreException if the table is missing (and creation is off), has another
         *     key schema, holds a foreign or newer layout record, or holds items but no layout
         *     record (the message says what record to write back); in DUAL, if only one table holds
         *     the migration's completion marker; nothing was written
         * @throws ModeRefusedException (a {@code DynamoStoreException}) if the mode could write around
         *     the migration of its tables: V1 once the migration is finalized, V2 on a migration's
         *     target before its rollback horizon was declared passed; nothing was written
         * @throws io.lake.meta.StoreUnavailableException if DynamoDB could not be reached or the
         *     table did not become ACTIVE in time (retryable)
         */
        public MetaStore build() {
            if (client == null) {
                throw new IllegalStateException("client is required: call client(DynamoDbClient)");
            }
            DynamoLayoutMode chosen = mode == null ? DynamoLayoutMode.V2 : mode;
            if (chosen != DynamoLayoutMode.V1 && tableName == null) {
                throw new IllegalStateException("tableName is required in mode " + chosen + ": call tableName(String)");
            }
            if (chosen != DynamoLayoutMode.V2 && legacyTableName == null) {
                throw new IllegalStateException(
                        "legacyTableName is required in mode " + chosen + ": call legacyTableName(String)");
            }
            if (chosen != DynamoLayoutMode.V2 && Objects.equals(legacyTableName, tableName)) {
                throw new InvalidArgumentException(
                        "the legacy table and the v2 table are both '" + tableName + "': a migration needs two tables");
            }
            ModeOpener opener = new ModeOpener(
                    client,
                    createTableIfMissing != null && createTableIfMissing,
                    tableActiveTimeout == null ? Duration.ofMinutes(5) : tableActiveTimeout,
                    pollInterval == null ? DEFAULT_POLL_INTERVAL : pollInterval,
                    ticker == null ? Ticker.system() : ticker);
            return switch (chosen) {
                // the names each mode needs were checked above
                case V1 -> opener.openV1(Objects.requireNonNull(legacyTableName), tableName);
                case DUAL ->
                    opener.openDual(
                            Objects.requireNonNull(legacyTableName), Objects.requireNonNull(tableName), shardCount);
                case V2 -> opener.openV2(Objects.requireNonNull(tableName), shardCount);
            };
        }

        private static void requireUnset(@Nullable Object current, String option) {
            if (current != null) {
                throw new IllegalStateException(option + " was already set; set each option once");
            }
        }
    }
}
