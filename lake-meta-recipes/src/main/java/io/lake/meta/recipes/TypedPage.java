package io.lake.meta.recipes;

import io.lake.meta.internal.Checks;
import java.util.List;
import java.util.Optional;

/**
 * One store page of a recipe's records, decoded: at most the request's limit, with the store's
 * continuation token unchanged. A page may hold fewer records than the limit, even none, while a
 * token is still returned: loop on the token ({@link TypedPageRequest#next(TypedPage)}), never on
 * the number of records.
 *
 * @param items the records, in the store's order
 * @param nextToken the store's token for the next page; empty when the selection is exhausted
 * @param <T> the decoded record type ({@code OperationRecord}, {@code TableRegistration})
 * @since 0.1.0
 */
public record TypedPage<T>(List<T> items, Optional<String> nextToken) {

    /** @throws io.lake.meta.InvalidArgumentException if an argument or an item is null */
    public TypedPage {
        for (T item : Checks.notNull(items, "items")) {
            Checks.notNull(item, "item of a page");
        }
        items = List.copyOf(items);
        Checks.notNull(nextToken, "nextToken");
    }

    /** Whether another page may follow. */
    public boolean hasMore() {
        return nextToken.isPresent();
    }
}
