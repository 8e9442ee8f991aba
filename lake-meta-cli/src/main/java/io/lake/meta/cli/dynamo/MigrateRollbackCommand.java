package io.lake.meta.cli.dynamo;

import io.lake.meta.cli.ExitCodeHelp;
import io.lake.meta.cli.UsageException;
import io.lake.meta.cli.VersionProvider;
import io.lake.meta.dynamo.DynamoMigration;
import io.lake.meta.dynamo.RollbackResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code dynamo-migrate rollback}: the legacy table the authority again, until the rollback horizon. */
@Command(
        name = "rollback",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "After finalization, before the rollback horizon: under the write barrier, verify both tables and remove"
                    + " the completion marker, so that stores opened afterwards read the legacy table again.",
            "Needs --ack-write-quiescence. The backfill is sent back to the start: to migrate again, backfill, then"
                    + " finalize."
        },
        exitCodeListHeading = ExitCodeHelp.HEADING,
        exitCodeList = {
            "0:rolled back, or nothing to roll back (not finalized)",
            "2:invalid usage: a missing or invalid option, the missing acknowledgement, the same table twice, a missing table or one of another layout, or the rollback horizon was declared passed; nothing was done",
            "4:backend unavailable: DynamoDB unreachable, refusing or throttling, or a write's outcome unknown",
            "5:verification failed: the tables differ (the keys are listed) or a key's copies diverged; nothing was removed",
            "6:barrier held: a finalize is running, or one stopped (see status, release-barrier); or the rollback's barrier was released under it",
            ExitCodeHelp.INTERNAL_ERROR
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  lake-meta dynamo-migrate rollback --legacy-table meta-v1 --table meta \\",
            "      --page-size 1000 --ack-write-quiescence"
        })
final class MigrateRollbackCommand extends MigrationAction {

    @Option(
            names = "--page-size",
            paramLabel = "N",
            defaultValue = "${env:LAKE_META_MIGRATE_PAGE_SIZE}",
            description = "Legacy items evaluated per verification page, 1..10000; required (env"
                    + " LAKE_META_MIGRATE_PAGE_SIZE).")
    Integer pageSize;

    @Option(
            names = "--ack-write-quiescence",
            defaultValue = "${env:LAKE_META_MIGRATE_ACK_WRITE_QUIESCENCE:-false}",
            description = "You accept that every write is refused (retryably) while the copies are verified (env"
                    + " LAKE_META_MIGRATE_ACK_WRITE_QUIESCENCE).")
    boolean ackWriteQuiescence;

    @Override
    String summaryName() {
        return "rollback";
    }

    @Override
    void validate() {
        requirePageSize(pageSize);
        if (!ackWriteQuiescence) {
            throw new UsageException(
                    "rollback needs --ack-write-quiescence (every write is refused, retryably, while the"
                            + " copies are verified); nothing was done");
        }
    }

    @Override
    int run(DynamoMigration migration, MigrationSummary summary) {
        RollbackResult result = migration.rollback(pageSize);
        result.parity().ifPresent(summary::verification);
        return switch (result.outcome()) {
            case ROLLED_BACK -> done(summary.status(migration.status()), "rolled-back");
            case NOT_FINALIZED -> done(summary.status(migration.status()), "not-finalized");
            case BARRIER_LOST ->
                fail(
                        summary,
                        "barrier-lost",
                        "the rollback's write barrier was released by someone else"
                                + " while it verified (dynamo-migrate release-barrier); nothing was changed: check dynamo-migrate"
                                + " status, then roll back again",
                        DynamoMigrateCommand.BARRIER_HELD);
            case HORIZON_PASSED ->
                fail(
                        summary,
                        "horizon-passed",
                        "the rollback horizon was declared passed: the legacy"
                                + " table is no longer kept, so it cannot become the authority again; nothing was done",
                        DynamoMigrateCommand.USAGE);
            default ->
                fail(
                        summary,
                        "verification-failed",
                        "the verification found "
                                + result.parity().orElseThrow().differenceCount()
                                + " differing key(s) (listed in the summary);"
                                + " nothing was changed and the barrier was released",
                        DynamoMigrateCommand.VERIFICATION_FAILED);
        };
    }
}
