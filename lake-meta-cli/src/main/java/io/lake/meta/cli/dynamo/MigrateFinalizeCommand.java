package io.lake.meta.cli.dynamo;

import io.lake.meta.cli.ExitCodeHelp;
import io.lake.meta.cli.UsageException;
import io.lake.meta.cli.VersionProvider;
import io.lake.meta.dynamo.BackfillPage;
import io.lake.meta.dynamo.DynamoMigration;
import io.lake.meta.dynamo.FinalizeResult;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code dynamo-migrate finalize}: the backfill to the end, then the verified completion marker. */
@Command(
        name = "finalize",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Backfill to the end, then finalize: install the write barrier (dual writes are refused, retryably,"
                    + " meanwhile), verify both tables both ways, publish the completion marker, release the barrier.",
            "Needs --ack-rollout and --ack-write-quiescence. On a finalized migration it answers already-finalized."
        },
        exitCodeListHeading = ExitCodeHelp.HEADING,
        exitCodeList = {
            "0:finalized, or already finalized",
            "2:invalid usage: a missing or invalid option, a missing acknowledgement, the same table twice, a missing legacy table or one of another layout; nothing was done",
            "4:backend unavailable: DynamoDB unreachable, refusing or throttling, or a write's outcome unknown; safe to run again",
            "5:verification failed: the tables differ (the keys are listed) or a key's copies diverged; nothing was published",
            "6:barrier held: another finalize is running, or one stopped (see status, release-barrier)",
            "7:--max-pages stopped the backfill before the end: run again",
            ExitCodeHelp.INTERNAL_ERROR
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  lake-meta dynamo-migrate finalize --legacy-table meta-v1 --table meta \\",
            "      --page-size 500 --ack-rollout --ack-write-quiescence",
            "  lake-meta dynamo-migrate finalize --legacy-table meta-v1 --table meta \\",
            "      --page-size 500 --ack-rollout --ack-write-quiescence --json"
        })
final class MigrateFinalizeCommand extends BackfillingAction {

    @Option(
            names = "--ack-rollout",
            defaultValue = "${env:LAKE_META_MIGRATE_ACK_ROLLOUT:-false}",
            description = "You confirm that every writer runs in mode DUAL, none in V1 (env"
                    + " LAKE_META_MIGRATE_ACK_ROLLOUT).")
    boolean ackRollout;

    @Option(
            names = "--ack-write-quiescence",
            defaultValue = "${env:LAKE_META_MIGRATE_ACK_WRITE_QUIESCENCE:-false}",
            description = "You accept that every write is refused (retryably) while the copies are verified (env"
                    + " LAKE_META_MIGRATE_ACK_WRITE_QUIESCENCE).")
    boolean ackWriteQuiescence;

    @Override
    String summaryName() {
        return "finalize";
    }

    @Override
    void validate() {
        super.validate();
        if (!(ackRollout && ackWriteQuiescence)) {
            List<String> missing = new ArrayList<>();
            if (!ackRollout) {
                missing.add(
                        "--ack-rollout (every writer runs in mode DUAL; a writer in mode V1 after finalization would fork"
                                + " the data)");
            }
            if (!ackWriteQuiescence) {
                missing.add(
                        "--ack-write-quiescence (every write is refused, retryably, while the copies are verified)");
            }
            throw new UsageException("finalize needs both acknowledgements; missing: " + String.join("; ", missing)
                    + "; nothing was done");
        }
    }

    @Override
    int run(DynamoMigration migration, MigrationSummary summary) {
        BackfillPage last = backfill(migration, summary);
        if (!last.done()) {
            return fail(
                    summary,
                    "backfill-incomplete",
                    "--max-pages " + maxPages + " stopped the backfill before the end"
                            + " of the legacy table; run again to continue and finalize",
                    DynamoMigrateCommand.BACKFILL_INCOMPLETE);
        }
        FinalizeResult result = migration.finalizeMigration(pageSize);
        result.parity().ifPresent(summary::verification);
        return switch (result.outcome()) {
            case FINALIZED -> done(summary.status(migration.status()), "finalized");
            case ALREADY_FINALIZED -> done(summary.status(migration.status()), "already-finalized");
            case VERIFICATION_FAILED ->
                fail(
                        summary,
                        "verification-failed",
                        "the verification found "
                                + result.parity().orElseThrow().differenceCount()
                                + " differing key(s) (listed in the summary, most"
                                + " likely written by a store still in mode V1); nothing was published, the barrier was released and"
                                + " the backfill was sent back to the start: stop every V1 writer, then run this command again (the"
                                + " backfill repairs the v2 copies, then it finalizes)",
                        DynamoMigrateCommand.VERIFICATION_FAILED);
            default ->
                fail(
                        summary,
                        "backfill-incomplete",
                        "the backfill has not reached the end of the legacy table",
                        DynamoMigrateCommand.BACKFILL_INCOMPLETE);
        };
    }
}
