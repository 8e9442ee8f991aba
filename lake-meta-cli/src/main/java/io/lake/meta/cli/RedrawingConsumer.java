package io.lake.meta.cli;

import java.io.PrintWriter;
import me.tongfei.progressbar.ProgressBarConsumer;

/** Redraws the bar in place on a terminal: a carriage return, then the line. */
final class RedrawingConsumer implements ProgressBarConsumer {

    private final PrintWriter err;

    RedrawingConsumer(PrintWriter err) {
        this.err = err;
    }

    @Override
    public int getMaxRenderedLength() {
        return 120;
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
