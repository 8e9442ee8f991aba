package io.lake.meta.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.Entry;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.spi.RaceHooks;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the model promises beyond the contract: byte order, full pages, look-ahead, hook placement. */
class InMemoryMetaStoreTest {

    private final InMemoryMetaStore store = InMemoryMetaStore.create();

    private void create(String... keys) {
        for (String k : keys) {
            store.create(MetaKey.of(k), MetaValue.utf8(k));
        }
    }

    private static List<String> keys(Page page) {
        return page.entries().stream().map(e -> e.key().toString()).toList();
    }

    @Test
    void fiveKeysWithLimitTwo_arePagedTwoTwoOne_inKeyOrder() {
        create("tbl/ns1/e", "tbl/ns1/a", "tbl/ns1/d", "tbl/ns1/b", "tbl/ns1/c");
        KeyPrefix prefix = KeyPrefix.of("tbl/ns1/");

        Page first = store.page(prefix, 2);
        Page second = store.page(PageRequest.after(prefix, first.nextToken().orElseThrow(), 2));
        Page third = store.page(PageRequest.after(prefix, second.nextToken().orElseThrow(), 2));

        assertThat(keys(first)).containsExactly("tbl/ns1/a", "tbl/ns1/b");
        assertThat(keys(second)).containsExactly("tbl/ns1/c", "tbl/ns1/d");
        assertThat(keys(third)).containsExactly("tbl/ns1/e");
        assertThat(third.nextToken()).isEmpty();
        assertThat(List.of(
                        first.cost().itemsEvaluated(),
                        second.cost().itemsEvaluated(),
                        third.cost().itemsEvaluated()))
                .as("entries read, look-ahead included")
                .containsExactly(3L, 3L, 1L);
    }

    @Test
    void pageThatExactlyFillsTheLimit_hasNoToken_whenNothingFollows() {
        create("tbl/ns1/a", "tbl/ns1/b", "tbl/ns2/a");

        Page page = store.page(KeyPrefix.of("tbl/ns1/"), 2);

        assertThat(keys(page)).containsExactly("tbl/ns1/a", "tbl/ns1/b");
        assertThat(page.nextToken()).isEmpty();
        assertThat(page.cost().itemsEvaluated())
                .as("the look-ahead found nothing inside the prefix")
                .isEqualTo(2);
    }

    @Test
    void pages_followUnsignedUtf8ByteOrder_notUtf16Order() {
        // U+FFFF is EF BF BF in UTF-8 and sorts before the emoji (F0 9F 98 80), although its
        // UTF-16 unit (FFFF) sorts after the emoji's high surrogate (D83D).
        create("tbl/\ud83d\ude00", "tbl/\uffff", "tbl/z", "tbl/\u00e9", "tbl/Z");

        List<String> order = new ArrayList<>();
        for (Entry e : store.snapshot()) {
            order.add(e.key().toString());
        }

        assertThat(order).containsExactly("tbl/Z", "tbl/z", "tbl/\u00e9", "tbl/\uffff", "tbl/\ud83d\ude00");
        assertThat(keys(store.page(KeyPrefix.of("tbl/"), 10))).containsExactlyElementsOf(order);
    }

    @Test
    void page_readsNothingOutsideThePrefix() {
        create("tbl/ns0/a", "tbl/ns10/a", "tbl/ns2/a", "tbl0/ns1/a");

        Page page = store.page(KeyPrefix.of("tbl/ns1/"), 10);

        assertThat(page.entries()).isEmpty();
        assertThat(page.nextToken()).isEmpty();
        assertThat(page.cost().itemsEvaluated()).isZero();
    }

    @Test
    void commitHook_isReachedOncePerAppliedCommit_afterItsChecks_andNeverOnConflicts() {
        List<String> reached = new ArrayList<>();
        InMemoryMetaStore hooked = InMemoryMetaStore.withHooks(point -> {
            reached.add(point);
        });
        MetaKey k = MetaKey.of("tbl/a");

        hooked.create(k, MetaValue.utf8("1"));
        hooked.create(k, MetaValue.utf8("2"));
        hooked.update(k, MetaValue.utf8("1"), MetaValue.utf8("3"));
        hooked.update(k, MetaValue.utf8("9"), MetaValue.utf8("4"));
        hooked.delete(k, MetaValue.utf8("3"));

        assertThat(reached)
                .containsExactly(RaceHooks.COMMIT_CHECKED, RaceHooks.COMMIT_CHECKED, RaceHooks.COMMIT_CHECKED);
    }

    @Test
    void commitHook_seesTheOldValue_becauseTheWriteIsNotYetVisible() {
        MetaKey k = MetaKey.of("tbl/a");
        List<MetaValue> seenInHook = new ArrayList<>();
        InMemoryMetaStore[] self = new InMemoryMetaStore[1];
        self[0] = InMemoryMetaStore.withHooks(point -> seenInHook.add(
                self[0].snapshot().isEmpty()
                        ? MetaValue.empty()
                        : self[0].snapshot().get(0).value()));

        self[0].create(k, MetaValue.utf8("1"));
        self[0].update(k, MetaValue.utf8("1"), MetaValue.utf8("2"));

        assertThat(seenInHook).containsExactly(MetaValue.empty(), MetaValue.utf8("1"));
        assertThat(self[0].get(k)).contains(MetaValue.utf8("2"));
    }

    @Test
    void withHooks_null_isRejected() {
        assertThatThrownBy(() -> InMemoryMetaStore.withHooks(null)).isInstanceOf(InvalidArgumentException.class);
    }

    @Test
    void size_andSnapshot_reflectTheContents() {
        create("b/1", "a/1");

        assertThat(store.size()).isEqualTo(2);
        assertThat(store.snapshot()).extracting(e -> e.key().toString()).containsExactly("a/1", "b/1");
    }
}
