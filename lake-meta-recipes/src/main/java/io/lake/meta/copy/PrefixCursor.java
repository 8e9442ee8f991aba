package io.lake.meta.copy;

import io.lake.meta.Entry;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaStore;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import java.util.Iterator;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** The entries of one prefix of a store, in key order, one bounded page in memory at a time. */
final class PrefixCursor {

    private final MetaStore store;
    private Optional<PageRequest> request;
    private Iterator<Entry> entries = java.util.Collections.emptyIterator();

    PrefixCursor(MetaStore store, KeyPrefix prefix, int pageSize) {
        this.store = store;
        this.request = Optional.of(PageRequest.first(prefix, pageSize));
    }

    /** The next entry, or null at the prefix's end. */
    @Nullable
    Entry next() {
        while (!entries.hasNext()) {
            if (request.isEmpty()) {
                return null;
            }
            Page page = store.page(request.get());
            entries = page.entries().iterator();
            request = request.get().next(page);
        }
        return entries.next();
    }
}
