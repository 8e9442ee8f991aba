package io.lake.meta.cli.dynamo;

import io.lake.meta.cli.ProgressBarOutput;
import io.lake.meta.dynamo.BackfillPage;
import java.io.PrintWriter;
import java.time.temporal.ChronoUnit;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * The backfill's progress bar on stderr (items copied or found equal, pages, rate, ETA), drawn by
 * the progressbar library. On a terminal it redraws one line; elsewhere (a Kubernetes Job's log,
 * a test) it prints a line every {@link ProgressBarOutput#LOG_INTERVAL}, so a log stays readable. The total is
 * DynamoDB's item count of the legacy table: an estimate, which the bar grows past if needed.
 */
final class MigrationProgress implements AutoCloseable {

    private final ProgressBar bar;

    MigrationProgress(PrintWriter err, boolean interactive, long estimatedItems, BackfillPage.BackfillTotals start) {
        this.bar = new ProgressBarBuilder()
                .setTaskName("backfill")
                .setInitialMax(Math.max(estimatedItems, start.scanned()))
                .setUnit(" items", 1)
                .showSpeed()
                .setSpeedUnit(ChronoUnit.SECONDS)
                .setStyle(ProgressBarStyle.ASCII)
                .setUpdateIntervalMillis(ProgressBarOutput.updateIntervalMillis(interactive))
                .setConsumer(ProgressBarOutput.to(err, interactive))
                .build();
        bar.stepTo(start.scanned());
        bar.setExtraMessage(pages(start));
    }

    /** After each page. */
    void advance(BackfillPage page) {
        BackfillPage.BackfillTotals totals = page.totals();
        if (totals.scanned() > bar.getMax()) {
            bar.maxHint(totals.scanned());
        }
        bar.stepTo(totals.scanned());
        bar.setExtraMessage(pages(totals));
    }

    private static String pages(BackfillPage.BackfillTotals totals) {
        return totals.pages() + " pages, " + totals.copied() + " copied, " + totals.alreadyEqual() + " equal, "
                + totals.reloaded() + " reloaded";
    }

    @Override
    public void close() {
        bar.close();
    }
}
