package io.lake.meta.dynamo;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaStoreException;
import io.lake.meta.Ticker;
import io.lake.meta.WriteBarrierException;
import io.lake.meta.spi.RaceHooks;
import java.time.Duration;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The online migration of a legacy v1 table to the sharded v2 layout, while every writer runs in
 * mode {@link DynamoLayoutMode#DUAL}: bounded backfill pages with a durable cursor, then a
 * finalize that installs a write barrier, verifies both copies and publishes the completion
 * marker. {@code lake-meta dynamo-migrate} drives it; see {@code docs/guides/dynamodb-migration.md}.
 *
 * <pre>{@code
 * DynamoMigration migration = DynamoMigration.builder().client(client)
 *         .legacyTableName("lake-meta-v1").tableName("lake-meta").build();
 * while (!migration.backfillPage(1000).done()) { }
 * FinalizeResult result = migration.finalizeMigration(1000);
 * }</pre>
 *
 * <p>Every step is safe to repeat or to resume after a crash: a page is replayed until its
 * cursor is stored, a finalize publishes nothing unless the verification is clean, and a barrier
 * left by a finalizer that stopped can be released explicitly. The client is the caller's and is
 * never closed. Not for concurrent use by several threads; run one migration process at a time
 * (a second one is detected, not corrupting: its cursor or barrier write is refused).
 *
 * @since 0.1.0
 */
public final class DynamoMigration {

    /** Largest page: the contract's page limit. */
    public static final int MAX_PAGE_SIZE = 10_000;

    /** Reached after the barrier was installed, before the verification. */
    static final String BARRIER_INSTALLED = "dynamo.finalize.barrier-installed";
    /** Reached after a clean verification, before the marker is published. */
    static final String VERIFIED = "dynamo.finalize.verified";
    /** Reached after the marker was published, before the barrier is released. */
    static final String PUBLISHED = "dynamo.finalize.published";
    /** Reached in a rollback after a clean verification, before the marker is withdrawn. */
    static final String ROLLBACK_VERIFIED = "dynamo.rollback.verified";

    private final DynamoDbClient client;
    private final String legacyTable;
    private final String table;
    private final MigrationState state;
    private final Backfill backfill;
    private final ParityCheck parity;
    private final RaceHooks hooks;

    private DynamoMigration(
            DynamoDbClient client, String legacyTable, String table, V2Layout layout, RaceHooks hooks, Ticker ticker) {
        this.client = client;
        this.legacyTable = legacyTable;
        this.table = table;
        this.hooks = hooks;
        this.state = new MigrationState(client, legacyTable, table, ticker);
        this.backfill = new Backfill(client, legacyTable, table, layout, state, hooks);
        this.parity = new ParityCheck(client, legacyTable, table, layout);
    }

    /** A builder; the client, the legacy table and the v2 table are required. */
    public static Builder builder() {
        return new Builder();
    }

    /** What the internal records say: the backfill's totals, a barrier, the completion marker. Reads only. */
    public MigrationStatus status() {
        long estimate;
        try {
            Long count =
                    client.describeTable(r -> r.tableName(legacyTable)).table().itemCount();
            estimate = count == null ? 0 : count;
        } catch (SdkException e) {
            throw Failures.onRead("DescribeTable", e, legacyTable);
        }
        return new MigrationStatus(state.cursor().totals(), estimate, state.barrier(), state.completion());
    }

    /**
     * Copies one page: at most {@code pageSize} legacy items evaluated, each converged in the v2
     * table, then the cursor stored. After the end of the table, answers done without reading.
     *
     * @throws InvalidArgumentException if {@code pageSize} is outside 1..{@value #MAX_PAGE_SIZE}; nothing read
     * @throws io.lake.meta.StoreUnavailableException if DynamoDB refused or did not answer, or items kept
     *     changing; the cursor did not move, so the page is replayed by the next call
     */
    public BackfillPage backfillPage(int pageSize) {
        requirePageSize(pageSize);
        return backfill.page(pageSize);
    }

    /**
     * Finalizes: installs the write barrier (every dual write is refused, retryably, while it is
     * held), verifies both copies in pages of {@code pageSize}, publishes the completion marker in
     * both tables while the barrier is still held, and releases the barrier. A verification that
     * finds any difference publishes nothing and releases the barrier. Nothing is done when the
     * backfill has not reached the end, or the marker exists already.
     *
     * @throws InvalidArgumentException if {@code pageSize} is outside 1..{@value #MAX_PAGE_SIZE}; nothing done
     * @throws WriteBarrierException if a barrier is installed already (another finalizer, or one that stopped)
     */
    public FinalizeResult finalizeMigration(int pageSize) {
        requirePageSize(pageSize);
        if (state.completion().isPresent()) {
            releaseThePublishersBarrier();
            return new FinalizeResult(FinalizeResult.Outcome.ALREADY_FINALIZED, Optional.empty());
        }
        if (!state.cursor().totals().done()) {
            return new FinalizeResult(FinalizeResult.Outcome.BACKFILL_INCOMPLETE, Optional.empty());
        }
        MigrationStatus.Barrier barrier = state.installBarrier();
        boolean released = false;
        try {
            hooks.reached(BARRIER_INSTALLED);
            ParityReport report = parity.run(pageSize);
            if (!report.clean()) {
                released = state.releaseBarrier(barrier);
                state.resetCursor(); // nothing is finalized, the v2 copy is derived: backfilling again repairs it
                return new FinalizeResult(FinalizeResult.Outcome.VERIFICATION_FAILED, Optional.of(report));
            }
            hooks.reached(VERIFIED);
            state.publishCompletion(barrier, report.legacyItems(), report.legacyDigest());
            hooks.reached(PUBLISHED);
            released = state.releaseBarrier(barrier);
            return new FinalizeResult(FinalizeResult.Outcome.FINALIZED, Optional.of(report));
        } catch (MetaStoreException e) {
            // A store failure: lift the barrier so writers resume. A crash of the process leaves it (see
            // releaseBarrier).
            if (!released) {
                try {
                    state.releaseBarrier(barrier);
                } catch (MetaStoreException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
    }

    /**
     * A finalize that published the marker and stopped before releasing its barrier (a crash, a
     * failed release) left every dual write refused; the marker names that barrier as its
     * publisher's, so a re-run releases it. A barrier of any other holder is left alone.
     */
    private void releaseThePublishersBarrier() {
        Optional<MigrationStatus.Barrier> barrier = state.barrier();
        if (barrier.isPresent()
                && state.completionPublisher()
                        .filter(barrier.get().holder()::equals)
                        .isPresent()) {
            state.releaseBarrier(barrier.get());
        }
    }

    /**
     * Releases a write barrier whatever finalizer installed it: for a barrier left by a finalizer
     * that stopped (check {@link #status()} first that none is running: releasing the barrier of a
     * running finalizer lets writes through during its verification, and its publication is then
     * refused).
     *
     * @return the barrier released, or empty when none was installed
     */
    public Optional<MigrationStatus.Barrier> releaseBarrier() {
        Optional<MigrationStatus.Barrier> barrier = state.barrier();
        if (barrier.isPresent() && !state.releaseBarrier(barrier.get())) {
            return releaseBarrier(); // replaced meanwhile: release what is there now
        }
        return barrier;
    }

    /**
     * Rolls back from the v2 authority to the legacy one, until the rollback horizon is declared:
     * under the write barrier, verifies both copies (dual writes kept them equal) and removes the
     * completion marker from both tables, then releases the barrier. Stores opened afterwards in
     * mode DUAL read the legacy table again, and mode V1 opens again; stores still running with the
     * v2 authority stay correct, since every one of their writes keeps both copies.
     *
     * @throws InvalidArgumentException if {@code pageSize} is outside 1..{@value #MAX_PAGE_SIZE}; nothing done
     * @throws WriteBarrierException if a barrier is installed already
     */
    public RollbackResult rollback(int pageSize) {
        requirePageSize(pageSize);
        Optional<MigrationStatus.Completion> completion = state.completion();
        if (completion.isEmpty()) {
            return new RollbackResult(RollbackResult.Outcome.NOT_FINALIZED, Optional.empty());
        }
        if (completion.get().rollbackHorizonPassed()) {
            return new RollbackResult(RollbackResult.Outcome.HORIZON_PASSED, Optional.empty());
        }
        MigrationStatus.Barrier barrier = state.installBarrier();
        try {
            ParityReport report = parity.run(pageSize);
            if (!report.clean()) {
                return new RollbackResult(RollbackResult.Outcome.VERIFICATION_FAILED, Optional.of(report));
            }
            hooks.reached(ROLLBACK_VERIFIED);
            switch (state.withdrawCompletion(barrier)) {
                case BARRIER_LOST -> {
                    return new RollbackResult(RollbackResult.Outcome.BARRIER_LOST, Optional.of(report));
                }
                case MARKER_GONE_OR_HORIZON_DECLARED -> {
                    Optional<MigrationStatus.Completion> now = state.completion();
                    return new RollbackResult(
                            now.isEmpty()
                                    ? RollbackResult.Outcome.NOT_FINALIZED
                                    : RollbackResult.Outcome.HORIZON_PASSED,
                            Optional.of(report));
                }
                default -> {
                    // withdrawn
                }
            }
            return new RollbackResult(RollbackResult.Outcome.ROLLED_BACK, Optional.of(report));
        } finally {
            state.releaseBarrier(barrier);
        }
    }

    /**
     * Declares the rollback horizon passed, once every store runs in mode DUAL with the v2 authority
     * (each was restarted after finalization) or in mode V2: from then on the legacy table is no
     * longer kept (stores in mode DUAL stop writing it, stores in mode V2 may open), and no rollback
     * is possible. Idempotent.
     *
     * @throws DynamoStoreException if the migration was not finalized; nothing changed
     */
    public void declareRollbackHorizonPassed() {
        if (!state.declareHorizon()) {
            throw new DynamoStoreException("the migration of '" + legacyTable + "' to '" + table + "' is not finalized:"
                    + " there is no rollback horizon to pass; finalize first");
        }
    }

    /** Verifies both copies without a barrier (writes may move them meanwhile): for a dry run before finalizing. */
    public ParityReport verify(int pageSize) {
        requirePageSize(pageSize);
        return parity.run(pageSize);
    }

    private static void requirePageSize(int pageSize) {
        if (pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
            throw new InvalidArgumentException("page size " + pageSize + " is out of range: use 1 to " + MAX_PAGE_SIZE);
        }
    }

    @Override
    public String toString() {
        return "DynamoMigration[legacyTable=" + legacyTable + ", table=" + table + "]";
    }

    /** Configures a migration; same rules as {@link DynamoMetaStore.Builder}. */
    public static final class Builder {

        private @Nullable DynamoDbClient client;
        private @Nullable String legacyTableName;
        private @Nullable String tableName;
        private @Nullable Integer shardCount;
        private @Nullable Boolean createTableIfMissing;
        private @Nullable RaceHooks hooks;
        private @Nullable Ticker ticker;

        private Builder() {}

        /** The client to use; required. Never closed by the migration. */
        public Builder client(DynamoDbClient client) {
            requireUnset(this.client, "client");
            if (client == null) {
                throw new InvalidArgumentException("client must not be null");
            }
            this.client = client;
            return this;
        }

        /** The legacy v1 table to migrate from; required, and it must exist. */
        public Builder legacyTableName(String name) {
            requireUnset(this.legacyTableName, "legacyTableName");
            this.legacyTableName = TableNames.requireValid(name, "legacy table name");
            return this;
        }

        /** The v2 table to migrate to; required. */
        public Builder tableName(String name) {
            requireUnset(this.tableName, "tableName");
            this.tableName = TableNames.requireValid(name, "table name");
            return this;
        }

        /** The v2 table's shard count, as {@link DynamoMetaStore.Builder#shardCount(int)}. */
        public Builder shardCount(int shards) {
            requireUnset(this.shardCount, "shardCount");
            this.shardCount = TableNames.requireValidShards(shards);
            return this;
        }

        /** Whether to create the v2 table when it does not exist. Default false. */
        public Builder createTableIfMissing(boolean create) {
            requireUnset(this.createTableIfMissing, "createTableIfMissing");
            this.createTableIfMissing = create;
            return this;
        }

        /**
         * The clock the migration measures its own time with, as {@link DynamoMetaStore.Builder#ticker(Ticker)};
         * default {@link Ticker#system()}.
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

        /** Pause points for race tests; production uses none. */
        Builder raceHooks(RaceHooks hooks) {
            this.hooks = hooks;
            return this;
        }

        /**
         * Checks both tables (key schemas, the v2 layout record), records once in the v2 table that
         * the pair is a migration's (from then on a store in mode V2 refuses the v2 table until the
         * rollback horizon is declared passed) and returns the migration.
         *
         * @throws IllegalStateException if the client or a table name is missing
         * @throws InvalidArgumentException if both names are the same table
         * @throws DynamoStoreException if a table is missing or is not of its layout
         */
        public DynamoMigration build() {
            if (client == null || legacyTableName == null || tableName == null) {
                throw new IllegalStateException("client, legacyTableName and tableName are required");
            }
            if (legacyTableName.equals(tableName)) {
                throw new InvalidArgumentException(
                        "the legacy table and the v2 table are both '" + tableName + "': a migration needs two tables");
            }
            Duration timeout = Duration.ofMinutes(5);
            new LegacyTableSetup(client, legacyTableName).open(false, timeout);
            V2Layout layout = new TableSetup(client, tableName)
                    .open(shardCount, createTableIfMissing != null && createTableIfMissing, timeout);
            DynamoMigration migration = new DynamoMigration(
                    client,
                    legacyTableName,
                    tableName,
                    layout,
                    hooks == null ? RaceHooks.NONE : hooks,
                    ticker == null ? Ticker.system() : ticker);
            migration.state.markStarted(); // from now on mode V2 refuses the v2 table
            return migration;
        }

        private static void requireUnset(@Nullable Object current, String option) {
            if (current != null) {
                throw new IllegalStateException(option + " was already set; set each option once");
            }
        }
    }
}
