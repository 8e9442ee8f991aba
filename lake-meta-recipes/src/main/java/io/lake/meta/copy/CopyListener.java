package io.lake.meta.copy;

/**
 * Told after every page a copy wrote, once the page and its resume point are durable in the
 * target; a progress bar draws from it. An exception it throws stops the copy there (the next run
 * resumes after that page), which is how the tests kill a copy at a chosen page.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface CopyListener {

    /** After a page; {@code progress} holds the totals across resumed runs. */
    void pageWritten(CopyProgress progress);
}
