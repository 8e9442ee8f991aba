package io.lake.meta.ops;

import io.lake.meta.internal.Checks;
import java.util.Optional;

/**
 * What one bounded page of garbage collection did.
 *
 * @param scanned records on the page
 * @param deleted terminal records past the retention that were deleted
 * @param nextToken where the next page starts; empty when the selection is exhausted
 * @since 0.1.0
 */
public record CollectionPage(int scanned, int deleted, Optional<String> nextToken) {

    public CollectionPage {
        Checks.notNull(nextToken, "nextToken");
    }

    /** Whether a next page follows. */
    public boolean hasMore() {
        return nextToken.isPresent();
    }
}
