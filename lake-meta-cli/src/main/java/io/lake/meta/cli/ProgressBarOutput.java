package io.lake.meta.cli;

import java.io.PrintWriter;
import java.time.Duration;
import me.tongfei.progressbar.DelegatingProgressBarConsumer;
import me.tongfei.progressbar.ProgressBarConsumer;

/**
 * Where the commands' progress bars ({@code copy}, {@code dynamo-migrate}) go: stderr, redrawn in
 * place on a terminal; elsewhere (a Kubernetes Job's log, a test) one line every
 * {@link #LOG_INTERVAL}, so a log stays readable.
 */
public final class ProgressBarOutput {

    /** How often a progress bar logs a line when stderr is not a terminal. */
    public static final Duration LOG_INTERVAL = Duration.ofSeconds(5);

    private static final int WIDTH = 120;

    private ProgressBarOutput() {}

    /** The bar's consumer: redrawing on a terminal ({@code interactive}), else a line per update. */
    public static ProgressBarConsumer to(PrintWriter err, boolean interactive) {
        return interactive
                ? new RedrawingConsumer(err)
                : new DelegatingProgressBarConsumer(
                        line -> {
                            err.println(line);
                            err.flush();
                        },
                        WIDTH);
    }

    /** The update interval that goes with {@link #to}: 0.2 s on a terminal, else {@link #LOG_INTERVAL}. */
    public static int updateIntervalMillis(boolean interactive) {
        return interactive ? 200 : (int) LOG_INTERVAL.toMillis();
    }

    /** Redraws the bar in place on a terminal: a carriage return, then the line. */
    private static final class RedrawingConsumer implements ProgressBarConsumer {

        private final PrintWriter err;

        RedrawingConsumer(PrintWriter err) {
            this.err = err;
        }

        @Override
        public int getMaxRenderedLength() {
            return WIDTH;
        }

        @Override
        public void accept(String rendered) {
            err.print('\r');
            err.print(rendered);
            err.flush();
        }

        @Override
        public void close() {
            err.println();
            err.flush();
        }
    }
}
