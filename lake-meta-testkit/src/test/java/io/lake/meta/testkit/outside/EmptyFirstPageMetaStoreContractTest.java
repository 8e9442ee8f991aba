package io.lake.meta.testkit.outside;

import io.lake.meta.MetaStore;
import io.lake.meta.Page;
import io.lake.meta.PageCost;
import io.lake.meta.PageRequest;
import io.lake.meta.spi.PageCursor;
import io.lake.meta.spi.PageTokenCodec;
import io.lake.meta.testkit.Backend;
import io.lake.meta.testkit.BackendFactory;
import io.lake.meta.testkit.Capabilities;
import io.lake.meta.testkit.Capability;
import io.lake.meta.testkit.InMemoryMetaStore;
import io.lake.meta.testkit.MetaStoreSuite;
import io.lake.meta.testkit.StoreContext;
import java.util.List;
import java.util.Optional;

/**
 * The whole contract on a store that answers every first page with no entries and a token, as
 * a sharded backend may when its first shard is empty. Proves that the suite itself loops on
 * tokens rather than on entry counts, and exercises the inexact page comparison of the
 * model-equivalence properties. It lives in another package than the suite, as a third-party
 * backend's test would.
 */
@Backend(EmptyFirstPageMetaStoreContractTest.EmptyFirstPages.class)
class EmptyFirstPageMetaStoreContractTest extends MetaStoreSuite {

    static final class EmptyFirstPages implements BackendFactory {
        @Override
        public MetaStore open(StoreContext context) {
            return new EmptyFirstPageStore(InMemoryMetaStore.withHooks(context.raceHooks()));
        }

        @Override
        public Capabilities capabilities() {
            return Capabilities.all()
                    .without(Capability.PAGES_MATCH_THE_MODEL, "every first page is empty, with a token");
        }
    }

    private static final class EmptyFirstPageStore extends PageRewritingStore {
        /** The same layout as the model's, so the model's own tokens decode here too. */
        private final PageTokenCodec tokens = new PageTokenCodec(InMemoryMetaStore.LAYOUT, 1);

        EmptyFirstPageStore(InMemoryMetaStore inner) {
            super(inner);
        }

        @Override
        Page rewritePage(PageRequest request) {
            if (request.token().isEmpty()) {
                return new Page(
                        List.of(),
                        Optional.of(tokens.encode(request.prefix(), PageCursor.startOf(0))),
                        PageCost.items(0));
            }
            PageCursor cursor = tokens.decode(request.prefix(), request.token().get());
            return cursor.afterKey(request.prefix()).isEmpty()
                    ? delegate().page(PageRequest.first(request.prefix(), request.limit()))
                    : delegate().page(request);
        }
    }
}
