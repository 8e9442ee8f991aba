package io.lake.meta.testkit.outside;

import io.lake.meta.MetaKey;
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
 * The whole contract on a store whose page right after every token it hands out is empty, with a
 * token to the rest: legal (the contract lets any page be empty while a token follows), and what
 * a sharded backend does when a token points at an empty shard. Proves that no part of the suite
 * expects entries on the page after a token; the PageTokens group used to, and failed here.
 */
@Backend(EmptyPageAfterEveryTokenMetaStoreContractTest.EmptyPagesAfterTokens.class)
class EmptyPageAfterEveryTokenMetaStoreContractTest extends MetaStoreSuite {

    static final class EmptyPagesAfterTokens implements BackendFactory {
        @Override
        public MetaStore open(StoreContext context) {
            return new EmptyPageAfterEveryTokenStore(InMemoryMetaStore.withHooks(context.raceHooks()));
        }

        @Override
        public Capabilities capabilities() {
            return Capabilities.all().without(Capability.PAGES_MATCH_THE_MODEL, "the page after every token is empty");
        }
    }

    /**
     * Partition 0 of a token: "answer an empty page, then resume at the same position"; partition 1:
     * "resume". The position is the model's (the last key returned).
     */
    private static final class EmptyPageAfterEveryTokenStore extends PageRewritingStore {
        private static final int OWES_AN_EMPTY_PAGE = 0;
        private static final int RESUMES = 1;

        private final PageTokenCodec tokens = new PageTokenCodec("empty-page-after-every-token", 2);
        private final PageTokenCodec modelTokens = new PageTokenCodec(InMemoryMetaStore.LAYOUT, 1);

        EmptyPageAfterEveryTokenStore(InMemoryMetaStore inner) {
            super(inner);
        }

        @Override
        Page rewritePage(PageRequest request) {
            if (request.token().isEmpty()) {
                return resume(request, Optional.empty());
            }
            PageCursor cursor = tokens.decode(request.prefix(), request.token().get());
            Optional<MetaKey> after = cursor.afterKey(request.prefix());
            if (cursor.partition() == OWES_AN_EMPTY_PAGE) {
                PageCursor same = after.map(k -> PageCursor.after(RESUMES, request.prefix(), k))
                        .orElse(PageCursor.startOf(RESUMES));
                return new Page(List.of(), Optional.of(tokens.encode(request.prefix(), same)), PageCost.items(0));
            }
            return resume(request, after);
        }

        private Page resume(PageRequest request, Optional<MetaKey> after) {
            PageRequest modelRequest = after.map(k -> PageRequest.after(
                            request.prefix(),
                            modelTokens.encode(request.prefix(), PageCursor.after(0, request.prefix(), k)),
                            request.limit()))
                    .orElse(PageRequest.first(request.prefix(), request.limit()));
            Page page = delegate().page(modelRequest);
            Optional<String> next = page.nextToken()
                    .map(t -> tokens.encode(
                            request.prefix(),
                            PageCursor.after(
                                    OWES_AN_EMPTY_PAGE,
                                    request.prefix(),
                                    page.entries()
                                            .get(page.entries().size() - 1)
                                            .key())));
            return new Page(page.entries(), next, page.cost());
        }
    }
}
