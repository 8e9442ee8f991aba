package io.lake.meta.registry;

import java.util.List;
import java.util.Optional;

/**
 * One store page of registrations, decoded: at most the request's limit, tombstones included
 * (see {@link TableRegistration#isDropped()}), with the store's continuation token unchanged. A page
 * may hold fewer registrations, even none, while a token is still returned: loop on the token.
 *
 * @param registrations the registrations, in the store's order
 * @param nextToken the store's token for the next page; empty when the selection is exhausted
 */
public record TablePage(List<TableRegistration> registrations, Optional<String> nextToken) {

    public TablePage {
        registrations = List.copyOf(Arguments.notNull(registrations, "registrations"));
        Arguments.notNull(nextToken, "nextToken");
    }

    /** Whether another page may follow. */
    public boolean hasMore() {
        return nextToken.isPresent();
    }
}
