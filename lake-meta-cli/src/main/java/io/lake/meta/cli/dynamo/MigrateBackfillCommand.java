package io.lake.meta.cli.dynamo;

import io.lake.meta.cli.ExitCodeHelp;
import io.lake.meta.cli.VersionProvider;
import io.lake.meta.dynamo.BackfillPage;
import io.lake.meta.dynamo.DynamoMigration;
import picocli.CommandLine.Command;

/** {@code dynamo-migrate backfill}: pages from the durable cursor to the end of the legacy table, or {@code --max-pages}. */
@Command(
        name = "backfill",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Copy the legacy table into the v2 table in bounded pages from a durable cursor, to the end of the legacy"
                    + " table (or --max-pages).",
            "Run again after a stop or a kill, it resumes from the cursor (a page is replayed until its cursor is"
                    + " stored). The v2 table is created (on demand) when missing. A progress bar (items, pages, rate,"
                    + " ETA) goes to stderr."
        },
        exitCodeListHeading = ExitCodeHelp.HEADING,
        exitCodeList = {
            "0:the backfill reached the end of the legacy table, or --max-pages",
            "2:invalid usage: a missing or invalid option, the same table twice, a missing legacy table or one of another layout; nothing was done",
            "4:backend unavailable: DynamoDB unreachable, refusing or throttling, or a write's outcome unknown; safe to run again",
            "5:a key's copies diverged",
            "6:a write barrier is held (see status, release-barrier)",
            ExitCodeHelp.INTERNAL_ERROR
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  lake-meta dynamo-migrate backfill --legacy-table meta-v1 --table meta \\",
            "      --page-size 500",
            "  LAKE_META_MIGRATE_LEGACY_TABLE=meta-v1 LAKE_META_MIGRATE_TABLE=meta \\",
            "      lake-meta dynamo-migrate backfill --page-size 500 --max-pages 10"
        })
final class MigrateBackfillCommand extends BackfillingAction {

    @Override
    String summaryName() {
        return "backfill";
    }

    @Override
    int run(DynamoMigration migration, MigrationSummary summary) {
        BackfillPage last = backfill(migration, summary);
        return done(summary, last.done() ? "backfill-done" : "backfill-paused");
    }
}
