package io.lake.meta.ops;

import java.util.List;
import java.util.Optional;

/**
 * One store page of operation records, decoded, with the store's continuation token unchanged. It
 * may hold fewer records than the limit, even none, while a token is still returned: loop on the token.
 */
public record OperationPage(List<OperationRecord> records, Optional<String> nextToken) {

    public OperationPage {
        records = List.copyOf(Arguments.notNull(records, "records"));
        Arguments.notNull(nextToken, "nextToken");
    }

    /** Whether more records may follow. */
    public boolean hasMore() {
        return nextToken.isPresent();
    }
}
