package io.lake.meta.dynamo;

import io.lake.meta.Page;
import io.lake.meta.PageRequest;

/** One layout's prefix pages over one table: {@link ScanPages} (v1), {@link ShardedPageReader} (v2). */
interface PageReader {

    /**
     * One page of the request's prefix, from its token (issued by this reader) or the start.
     *
     * @throws io.lake.meta.InvalidPageTokenException if the token was not issued by this layout for the prefix
     */
    Page page(PageRequest request);
}
