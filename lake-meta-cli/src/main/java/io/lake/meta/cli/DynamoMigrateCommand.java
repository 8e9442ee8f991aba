package io.lake.meta.cli;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaStoreException;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.WriteBarrierException;
import io.lake.meta.dynamo.BackfillPage;
import io.lake.meta.dynamo.CopiesDivergedException;
import io.lake.meta.dynamo.DynamoMetaStore;
import io.lake.meta.dynamo.DynamoMigration;
import io.lake.meta.dynamo.DynamoStoreException;
import io.lake.meta.dynamo.FinalizeResult;
import io.lake.meta.dynamo.MigrationStatus;
import io.lake.meta.dynamo.RollbackResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;

/**
 * {@code lake-meta dynamo-migrate}: drives the online migration of a legacy v1 table to the v2
 * layout ({@link DynamoMigration}) while every writer runs in mode DUAL. Without an action flag
 * it backfills pages until the end of the legacy table (or {@code --max-pages}); with
 * {@code --finalize} it then verifies and publishes the completion marker. Every option can come
 * from an environment variable (for a Kubernetes Job); credentials only through the AWS SDK's
 * default chain, never printed. See {@code docs/guides/dynamodb-migration.md}.
 */
@Command(
        name = "dynamo-migrate",
        mixinStandardHelpOptions = true,
        description = {
            "Migrates a legacy lake-meta DynamoDB table (v1: hash key = the whole key) to the sharded v2 layout online,"
                    + " while every writer runs in mode DUAL: backfill in bounded pages from a durable cursor, then"
                    + " --finalize: a write barrier, a verification of both tables both ways, the completion marker.",
            "Every option also reads an environment variable LAKE_META_MIGRATE_<OPTION> (such as"
                    + " LAKE_META_MIGRATE_PAGE_SIZE); flags take true or false there. Credentials come from the AWS"
                    + " SDK's default chain only.",
            "A progress bar (items, pages, rate, ETA) goes to stderr; with --json, stdout holds exactly one JSON summary."
        },
        exitCodeListHeading = ExitCodeHelp.HEADING,
        exitCodeList = {
            "0:done: the backfill reached the end (or --max-pages), finalized or already finalized, status printed, barrier released (or none), rolled back (or nothing to roll back), horizon declared",
            "2:invalid usage: a missing or invalid option, a missing acknowledgement, the same table twice, a missing table or one of another layout, a rollback after the horizon, a horizon before finalization; nothing was done",
            "4:backend unavailable: DynamoDB unreachable, refusing or throttling, or a write's outcome unknown; safe to run again (a page is replayed until its cursor is stored)",
            "5:verification failed: the tables differ (the keys are listed) or a key's copies diverged; nothing was published or removed",
            "6:barrier held: another finalize is running, or one stopped (see --status, --release-barrier); or a rollback's barrier was released under it",
            "7:--finalize was asked, but --max-pages stopped the backfill before the end: run again",
            "70:internal error (a bug: please report it)"
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  lake-meta dynamo-migrate --legacy-table meta-v1 --table meta --page-size 500",
            "  lake-meta dynamo-migrate --legacy-table meta-v1 --table meta --page-size 500 \\",
            "      --status --json",
            "  lake-meta dynamo-migrate --legacy-table meta-v1 --table meta --page-size 500 \\",
            "      --finalize --ack-rollout --ack-write-quiescence",
            "  export LAKE_META_MIGRATE_LEGACY_TABLE=meta-v1 LAKE_META_MIGRATE_TABLE=meta",
            "  LAKE_META_MIGRATE_PAGE_SIZE=500 lake-meta dynamo-migrate --max-pages 10"
        })
final class DynamoMigrateCommand implements Callable<Integer> {

    static final int DONE = 0;
    static final int USAGE = ExitCodes.USAGE;
    static final int UNAVAILABLE = ExitCodes.STORE_ERROR;
    static final int VERIFICATION_FAILED = 5;
    static final int BARRIER_HELD = 6;
    static final int BACKFILL_INCOMPLETE = 7;

    @Spec
    CommandSpec spec;

    @Option(names = "--legacy-table", paramLabel = "T1", defaultValue = "${env:LAKE_META_MIGRATE_LEGACY_TABLE}",
            description = "The legacy v1 table to migrate from (env LAKE_META_MIGRATE_LEGACY_TABLE).")
    @Nullable String legacyTable;

    @Option(names = "--table", paramLabel = "T2", defaultValue = "${env:LAKE_META_MIGRATE_TABLE}",
            description = "The v2 table to migrate to; created (on demand) when missing (env LAKE_META_MIGRATE_TABLE).")
    @Nullable String table;

    @Option(names = "--endpoint", paramLabel = "URL", defaultValue = "${env:LAKE_META_MIGRATE_ENDPOINT}",
            description = "The DynamoDB endpoint, such as http://127.0.0.1:8000 (default: the region's AWS endpoint).")
    @Nullable String endpoint;

    @Option(names = "--region", paramLabel = "R", defaultValue = "${env:LAKE_META_MIGRATE_REGION}",
            description = "The AWS region (default: the AWS SDK's region chain, such as AWS_REGION).")
    @Nullable String region;

    @Option(names = "--shards", paramLabel = "N", defaultValue = "${env:LAKE_META_MIGRATE_SHARDS}",
            description = "The v2 table's shard count, 1..1024: used when the table is created, checked against an"
                    + " existing one (default: adopt the table's, 16 for a new one).")
    @Nullable Integer shards;

    @Option(names = "--page-size", paramLabel = "N", defaultValue = "${env:LAKE_META_MIGRATE_PAGE_SIZE}",
            description = "Legacy items evaluated per backfill page and per verification page, 1..10000; required to"
                    + " backfill or finalize.")
    @Nullable Integer pageSize;

    @Option(names = "--max-pages", paramLabel = "M", defaultValue = "${env:LAKE_META_MIGRATE_MAX_PAGES}",
            description = "Stop the backfill after M pages (default: run to the end of the legacy table).")
    @Nullable Integer maxPages;

    @Option(names = "--status", defaultValue = "${env:LAKE_META_MIGRATE_STATUS:-false}",
            description = "Print where the migration stands (cursor, barrier, completion marker) and change nothing"
                    + " (but the record, written once by every action, that the pair is a migration's: mode V2 then"
                    + " refuses the v2 table until the rollback horizon).")
    boolean status;

    @Option(names = "--finalize", defaultValue = "${env:LAKE_META_MIGRATE_FINALIZE:-false}",
            description = "After the backfill reached the end: install the write barrier (dual writes are refused,"
                    + " retryably, meanwhile), verify both tables, publish the completion marker, release the barrier.")
    boolean finalizeMigration;

    @Option(names = "--ack-rollout", defaultValue = "${env:LAKE_META_MIGRATE_ACK_ROLLOUT:-false}",
            description = "With --finalize: you confirm that every writer runs in mode DUAL (none in V1).")
    boolean ackRollout;

    @Option(names = "--ack-write-quiescence", defaultValue = "${env:LAKE_META_MIGRATE_ACK_WRITE_QUIESCENCE:-false}",
            description = "With --finalize: you accept that every write is refused (retryably) while the copies are verified.")
    boolean ackWriteQuiescence;

    @Option(names = "--release-barrier", defaultValue = "${env:LAKE_META_MIGRATE_RELEASE_BARRIER:-false}",
            description = "Release a write barrier left by a finalize that stopped (check --status first that none runs).")
    boolean releaseBarrier;

    @Option(names = "--rollback", defaultValue = "${env:LAKE_META_MIGRATE_ROLLBACK:-false}",
            description = "After finalization, before the rollback horizon: under the write barrier, verify both tables and"
                    + " remove the completion marker, so that stores opened afterwards read the legacy table again."
                    + " Needs --page-size and --ack-write-quiescence.")
    boolean rollback;

    @Option(names = "--declare-rollback-horizon", defaultValue = "${env:LAKE_META_MIGRATE_DECLARE_ROLLBACK_HORIZON:-false}",
            description = "After finalization: declare that the legacy table is no longer kept (stores in mode DUAL stop"
                    + " writing it, stores in mode V2 may open, no rollback is possible). Needs --ack-stores-restarted.")
    boolean declareHorizon;

    @Option(names = "--ack-stores-restarted", defaultValue = "${env:LAKE_META_MIGRATE_ACK_STORES_RESTARTED:-false}",
            description = "With --declare-rollback-horizon: you confirm that every store was restarted after finalization"
                    + " (runs in mode DUAL with the v2 authority, or V2).")
    boolean ackStoresRestarted;

    @Option(names = "--json", defaultValue = "${env:LAKE_META_MIGRATE_JSON:-false}",
            description = "Print exactly one JSON summary on stdout.")
    boolean json;

    @Override
    public Integer call() {
        DynamoStoreSpec connection = validate();
        String action = status ? "status" : releaseBarrier ? "release-barrier" : rollback ? "rollback"
                : declareHorizon ? "declare-rollback-horizon" : finalizeMigration ? "finalize" : "backfill";
        MigrationSummary summary = new MigrationSummary(action, legacyTable(), table());
        Region resolvedRegion = DynamoStoreSpec.region(connection.region(), DefaultAwsRegionProviderChain.builder().build());
        try (DefaultCredentialsProvider credentials = DefaultCredentialsProvider.builder().build()) {
            DynamoStoreSpec.requireCredentials(credentials);
            DynamoDbClientBuilder builder = DynamoDbClient.builder().region(resolvedRegion).credentialsProvider(credentials)
                    .httpClientBuilder(UrlConnectionHttpClient.builder()).overrideConfiguration(RequestBudget::applyTo);
            if (connection.endpoint() != null) {
                builder.endpointOverride(connection.endpoint());
            }
            try (DynamoDbClient client = builder.build()) {
                return run(open(client), summary);
            }
        }
    }

    /** Every rule that needs no network: the tables, bounds, endpoint and region syntax, the action's flags. */
    private DynamoStoreSpec validate() {
        require(legacyTable, "--legacy-table", "LAKE_META_MIGRATE_LEGACY_TABLE");
        require(table, "--table", "LAKE_META_MIGRATE_TABLE");
        try {
            DynamoMetaStore.builder().legacyTableName(legacyTable()).tableName(table()); // the builder's own rules
            if (shards != null) {
                DynamoMetaStore.builder().shardCount(shards);
            }
        } catch (InvalidArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        if (legacyTable().equals(table)) {
            throw new UsageException("--legacy-table and --table are both '" + table + "': a migration needs two tables");
        }
        DynamoStoreSpec connection =
                (DynamoStoreSpec) new DynamoStoreSpec(table(), null, null).withConnection(endpoint, region);
        int actions = (status ? 1 : 0) + (releaseBarrier ? 1 : 0) + (finalizeMigration ? 1 : 0) + (rollback ? 1 : 0)
                + (declareHorizon ? 1 : 0);
        if (actions > 1) {
            throw new UsageException("--status, --release-barrier, --finalize, --rollback and --declare-rollback-horizon"
                    + " exclude each other: choose one");
        }
        boolean pages = !status && !releaseBarrier && !declareHorizon;
        if (pages) {
            if (pageSize == null) {
                throw new UsageException("--page-size is required to backfill or finalize (or LAKE_META_MIGRATE_PAGE_SIZE):"
                        + " the legacy items evaluated per page, 1.." + DynamoMigration.MAX_PAGE_SIZE);
            }
            if (pageSize < 1 || pageSize > DynamoMigration.MAX_PAGE_SIZE) {
                throw new UsageException("--page-size " + pageSize + " is out of range: use 1.." + DynamoMigration.MAX_PAGE_SIZE);
            }
            if (maxPages != null && (maxPages < 1 || rollback)) {
                throw new UsageException(rollback ? "--max-pages applies to a backfill, not to --rollback"
                        : "--max-pages " + maxPages + " is out of range: use 1 or more");
            }
        } else if (maxPages != null || pageSize != null) {
            throw new UsageException("--page-size and --max-pages apply to a backfill, a finalize or a rollback, not to "
                    + (status ? "--status" : releaseBarrier ? "--release-barrier" : "--declare-rollback-horizon"));
        }
        if (rollback && !ackWriteQuiescence) {
            throw new UsageException("--rollback needs --ack-write-quiescence (every write is refused, retryably, while the"
                    + " copies are verified); nothing was done");
        }
        if (declareHorizon && !ackStoresRestarted) {
            throw new UsageException("--declare-rollback-horizon needs --ack-stores-restarted (every store was restarted"
                    + " after finalization: a store still reading the legacy table would read stale data once stores in"
                    + " mode V2 write); nothing was done");
        }
        if (!declareHorizon && ackStoresRestarted) {
            throw new UsageException("--ack-stores-restarted applies to --declare-rollback-horizon only");
        }
        if (finalizeMigration && !(ackRollout && ackWriteQuiescence)) {
            List<String> missing = new ArrayList<>();
            if (!ackRollout) {
                missing.add("--ack-rollout (every writer runs in mode DUAL; a writer in mode V1 after finalization would fork"
                        + " the data)");
            }
            if (!ackWriteQuiescence) {
                missing.add("--ack-write-quiescence (every write is refused, retryably, while the copies are verified)");
            }
            throw new UsageException("--finalize needs both acknowledgements; missing: " + String.join("; ", missing)
                    + "; nothing was done");
        }
        if (!finalizeMigration && ackRollout) {
            throw new UsageException("--ack-rollout applies to --finalize only");
        }
        if (!finalizeMigration && !rollback && ackWriteQuiescence) {
            throw new UsageException("--ack-write-quiescence applies to --finalize and --rollback only");
        }
        return connection;
    }

    // validate() required these three before anything reads them
    private String legacyTable() {
        return Objects.requireNonNull(legacyTable, "validate() first");
    }

    private String table() {
        return Objects.requireNonNull(table, "validate() first");
    }

    private int pageSize() {
        return Objects.requireNonNull(pageSize, "validate() first");
    }

    private static void require(@Nullable String value, String option, String env) {
        if (value == null || value.isEmpty()) {
            throw new UsageException(option + " is required (or set " + env + ")");
        }
    }

    private DynamoMigration open(DynamoDbClient client) {
        try {
            DynamoMigration.Builder builder = DynamoMigration.builder().client(client).legacyTableName(legacyTable())
                    .tableName(table()).createTableIfMissing(!status && !releaseBarrier && !rollback && !declareHorizon);
            if (shards != null) {
                builder.shardCount(shards);
            }
            return builder.build();
        } catch (InvalidArgumentException e) {
            throw new UsageException(e.getMessage());
        } catch (DynamoStoreException e) {
            if (e.getCause() instanceof SdkException) {
                throw new StoreOpenException("cannot open the migration's tables: " + e.getMessage(), e);
            }
            throw new UsageException(e.getMessage()); // a missing table, or one of another layout
        } catch (StoreUnavailableException e) {
            throw new StoreOpenException("cannot open the migration's tables: " + e.getMessage(), e);
        }
    }

    private int run(DynamoMigration migration, MigrationSummary summary) {
        try {
            if (status) {
                summary.status(migration.status()).outcome("status").print(spec.commandLine().getOut(), json);
                return DONE;
            }
            if (releaseBarrier) {
                Optional<MigrationStatus.Barrier> released = migration.releaseBarrier();
                summary.barrier(released).outcome(released.isPresent() ? "barrier-released" : "no-barrier")
                        .print(spec.commandLine().getOut(), json);
                return DONE;
            }
            if (rollback) {
                return rollBack(migration, summary);
            }
            if (declareHorizon) {
                migration.declareRollbackHorizonPassed();
                summary.status(migration.status()).outcome("rollback-horizon-declared").print(spec.commandLine().getOut(), json);
                return DONE;
            }
            BackfillPage last = backfill(migration, summary);
            if (!finalizeMigration) {
                summary.outcome(last.done() ? "backfill-done" : "backfill-paused").print(spec.commandLine().getOut(), json);
                return DONE;
            }
            if (!last.done()) {
                return fail(summary, "backfill-incomplete", "--max-pages " + maxPages + " stopped the backfill before the end"
                        + " of the legacy table; run again to continue and finalize", BACKFILL_INCOMPLETE);
            }
            FinalizeResult result = migration.finalizeMigration(pageSize());
            result.parity().ifPresent(summary::verification);
            switch (result.outcome()) {
                case FINALIZED, ALREADY_FINALIZED -> {
                    summary.status(migration.status())
                            .outcome(result.outcome() == FinalizeResult.Outcome.FINALIZED ? "finalized" : "already-finalized")
                            .print(spec.commandLine().getOut(), json);
                    return DONE;
                }
                case VERIFICATION_FAILED -> {
                    long n = result.parity().orElseThrow().differenceCount();
                    return fail(summary, "verification-failed", "the verification found " + n + " differing key(s) (listed"
                            + " in the summary, most likely written by a store still in mode V1); nothing was published,"
                            + " the barrier was released and the backfill was sent back to the start: stop every V1 writer,"
                            + " then run this command again (the backfill repairs the v2 copies, then it finalizes)",
                            VERIFICATION_FAILED);
                }
                default -> {
                    return fail(summary, "backfill-incomplete", "the backfill has not reached the end of the legacy table",
                            BACKFILL_INCOMPLETE);
                }
            }
        } catch (WriteBarrierException e) {
            return fail(summary, "barrier-held", e.getMessage(), BARRIER_HELD);
        } catch (CopiesDivergedException e) {
            return fail(summary, "diverged", e.getMessage(), VERIFICATION_FAILED);
        } catch (InvalidArgumentException e) {
            return fail(summary, "invalid", e.getMessage(), USAGE);
        } catch (DynamoStoreException e) {
            boolean refusal = !(e.getCause() instanceof SdkException); // the migration's state, not DynamoDB, said no
            return fail(summary, refusal ? "refused" : "unavailable", e.getMessage(), refusal ? USAGE : UNAVAILABLE);
        } catch (MetaStoreException e) {
            return fail(summary, "unavailable", e.getMessage() + RequestBudget.explain(e), UNAVAILABLE);
        }
    }

    private int rollBack(DynamoMigration migration, MigrationSummary summary) {
        RollbackResult result = migration.rollback(pageSize());
        result.parity().ifPresent(summary::verification);
        switch (result.outcome()) {
            case ROLLED_BACK, NOT_FINALIZED -> {
                summary.status(migration.status())
                        .outcome(result.outcome() == RollbackResult.Outcome.ROLLED_BACK ? "rolled-back" : "not-finalized")
                        .print(spec.commandLine().getOut(), json);
                return DONE;
            }
            case BARRIER_LOST -> {
                return fail(summary, "barrier-lost", "the rollback's write barrier was released by someone else while it"
                        + " verified (--release-barrier); nothing was changed: check --status, then roll back again",
                        BARRIER_HELD);
            }
            case HORIZON_PASSED -> {
                return fail(summary, "horizon-passed", "the rollback horizon was declared passed: the legacy table is no"
                        + " longer kept, so it cannot become the authority again; nothing was done", USAGE);
            }
            default -> {
                return fail(summary, "verification-failed", "the verification found "
                        + result.parity().orElseThrow().differenceCount() + " differing key(s) (listed in the summary);"
                        + " nothing was changed and the barrier was released", VERIFICATION_FAILED);
            }
        }
    }

    private BackfillPage backfill(DynamoMigration migration, MigrationSummary summary) {
        MigrationStatus before = migration.status();
        boolean interactive = Terminal.interactive() && !json;
        long started = System.nanoTime();
        long pages = 0;
        long items = 0;
        BackfillPage last = new BackfillPage(0, 0, 0, 0, before.backfill().done(), before.backfill());
        try (MigrationProgress progress = new MigrationProgress(spec.commandLine().getErr(), interactive,
                before.legacyItemEstimate(), before.backfill())) {
            while (!last.done() && (maxPages == null || pages < maxPages)) {
                last = migration.backfillPage(pageSize());
                pages++;
                items += last.scanned();
                progress.advance(last);
            }
        } finally {
            summary.backfill(last.totals()).run(pages, items, System.nanoTime() - started);
        }
        return last;
    }

    private int fail(MigrationSummary summary, String outcome, @Nullable String message, int exitCode) {
        summary.outcome(outcome).error(message).print(spec.commandLine().getOut(), json);
        ErrorHandler.printError(spec.commandLine(), message);
        return exitCode;
    }
}
