package io.lake.meta.cli.dynamo;

import io.lake.meta.cli.Terminal;
import io.lake.meta.cli.UsageException;
import io.lake.meta.dynamo.BackfillPage;
import io.lake.meta.dynamo.DynamoMigration;
import io.lake.meta.dynamo.MigrationStatus;
import picocli.CommandLine.Option;

/** The actions that backfill ({@code backfill}, and {@code finalize} before it verifies): pages from the cursor. */
abstract class BackfillingAction extends MigrationAction {

    @Option(
            names = "--page-size",
            paramLabel = "N",
            defaultValue = "${env:LAKE_META_MIGRATE_PAGE_SIZE}",
            description = "Legacy items evaluated per backfill page and per verification page, 1..10000; required"
                    + " (env LAKE_META_MIGRATE_PAGE_SIZE).")
    Integer pageSize;

    @Option(
            names = "--max-pages",
            paramLabel = "M",
            defaultValue = "${env:LAKE_META_MIGRATE_MAX_PAGES}",
            description = "Stop the backfill after M pages (default: run to the end of the legacy table; env"
                    + " LAKE_META_MIGRATE_MAX_PAGES).")
    Integer maxPages;

    @Override
    boolean createsTable() {
        return true;
    }

    @Override
    void validate() {
        requirePageSize(pageSize);
        if (maxPages != null && maxPages < 1) {
            throw new UsageException("--max-pages " + maxPages + " is out of range: use 1 or more");
        }
    }

    /** Backfills pages until the end of the legacy table or {@code --max-pages}, with the progress bar; answers the last page. */
    BackfillPage backfill(DynamoMigration migration, MigrationSummary summary) {
        MigrationStatus before = migration.status();
        boolean interactive = Terminal.interactive() && !json;
        long started = System.nanoTime();
        long pages = 0;
        long items = 0;
        BackfillPage last = new BackfillPage(0, 0, 0, 0, before.backfill().done(), before.backfill());
        try (MigrationProgress progress = new MigrationProgress(
                spec.commandLine().getErr(), interactive, before.legacyItemEstimate(), before.backfill())) {
            while (!last.done() && (maxPages == null || pages < maxPages)) {
                last = migration.backfillPage(pageSize);
                pages++;
                items += last.scanned();
                progress.advance(last);
            }
        } finally {
            summary.backfill(last.totals()).run(pages, items, System.nanoTime() - started);
        }
        return last;
    }
}
