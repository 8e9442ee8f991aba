package io.lake.meta;

import java.util.List;
import java.util.Optional;

/**
 * One bounded page of a prefix. It never holds more entries than the request's limit; it may
 * hold fewer, even none, while a continuation token is still returned. Loop on
 * {@link #nextToken()}, never on the number of entries.
 *
 * @param entries the entries, in the backend's order
 * @param nextToken the token for the next page; empty when the prefix is exhausted
 * @param cost what the page cost the backend
 */
public record Page(List<Entry> entries, Optional<String> nextToken, PageCost cost) {

    public Page {
        entries = List.copyOf(Checks.notNull(entries, "entries"));
        Checks.notNull(nextToken, "nextToken");
        Checks.notNull(cost, "cost");
    }

    /** Whether another page may follow. */
    public boolean hasMore() {
        return nextToken.isPresent();
    }
}
