package io.lake.meta.cli.copy;

import io.lake.meta.cli.ProgressBarOutput;
import io.lake.meta.copy.CopyProgress;
import java.io.PrintWriter;
import java.time.temporal.ChronoUnit;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * The copy's progress bar on stderr: keys read from the source, pages, rate. The contract cannot
 * count a prefix without reading it, so the bar has no total; on a terminal it redraws one line,
 * elsewhere it logs a line every {@link ProgressBarOutput#LOG_INTERVAL}.
 */
final class CopyProgressBar implements AutoCloseable {

    private final ProgressBar bar;

    CopyProgressBar(PrintWriter err, boolean interactive) {
        this.bar = new ProgressBarBuilder()
                .setTaskName("copy")
                .setInitialMax(-1)
                .setUnit(" keys", 1)
                .showSpeed()
                .setSpeedUnit(ChronoUnit.SECONDS)
                .setStyle(ProgressBarStyle.ASCII)
                .setUpdateIntervalMillis(ProgressBarOutput.updateIntervalMillis(interactive))
                .setConsumer(ProgressBarOutput.to(err, interactive))
                .build();
    }

    /** After each page written. */
    void advance(CopyProgress progress) {
        bar.stepTo(progress.read());
        bar.setExtraMessage(progress.prefix() + ": " + progress.pages() + " pages, " + progress.copied() + " copied, "
                + progress.alreadyEqual() + " equal, " + progress.differing() + " differing");
    }

    @Override
    public void close() {
        bar.close();
    }
}
