package io.lake.meta.testkit.outside;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.StoreClosedException;
import io.lake.meta.spi.ForwardingMetaStore;
import io.lake.meta.testkit.InMemoryMetaStore;

/**
 * The model store with its pages rewritten: checks a page request as the contract asks (no null
 * request, no page after close) before {@link #rewritePage} answers it, and closes the model.
 */
abstract class PageRewritingStore extends ForwardingMetaStore {

    private volatile boolean closed;

    PageRewritingStore(InMemoryMetaStore inner) {
        super(inner);
    }

    /** Answers a checked, non-null request on an open store. */
    abstract Page rewritePage(PageRequest request);

    @Override
    public final Page page(PageRequest request) {
        if (request == null) {
            throw new InvalidArgumentException("page request must not be null");
        }
        if (closed) {
            throw new StoreClosedException(getClass().getSimpleName());
        }
        return rewritePage(request);
    }

    @Override
    public final void close() {
        closed = true;
        super.close();
    }
}
