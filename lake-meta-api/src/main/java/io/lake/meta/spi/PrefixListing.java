package io.lake.meta.spi;

import io.lake.meta.Entry;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaStore;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import java.util.Optional;
import java.util.function.Consumer;

/** Reads every entry of a prefix through a store's own pages, following the tokens to the end. */
final class PrefixListing {

    /** Entries asked for per page: large enough to list a prefix in few calls, small enough to stay cheap per call. */
    static final int PAGE_LIMIT = 1000;

    private PrefixListing() {}

    static void forEach(MetaStore source, KeyPrefix prefix, Consumer<Entry> each) {
        Optional<PageRequest> request = Optional.of(PageRequest.first(prefix, PAGE_LIMIT));
        while (request.isPresent()) {
            Page page = source.page(request.get());
            page.entries().forEach(each);
            request = request.get().next(page);
        }
    }
}
