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
 * @since 0.1.0
 */
public record Page(List<Entry> entries, Optional<String> nextToken, PageCost cost) {

    /**
     * @throws InvalidArgumentException if an argument or an entry is null, or the next token is
     *     empty (an exhausted prefix returns no token, and an empty one could not be followed)
     */
    public Page {
        Checks.notNull(entries, "entries");
        for (Entry entry : entries) {
            Checks.notNull(entry, "entry of a page");
        }
        entries = List.copyOf(entries);
        Checks.notNull(nextToken, "next token");
        if (nextToken.isPresent() && nextToken.get().isEmpty()) {
            throw new InvalidArgumentException("next token is empty: return no token when the prefix is exhausted");
        }
        Checks.notNull(cost, "cost");
    }

    /** Whether another page may follow. */
    public boolean hasMore() {
        return nextToken.isPresent();
    }
}
