package io.lake.meta.rocks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.Entry;
import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.InvalidPageTokenException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.Limits;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.Page;
import io.lake.meta.PageCost;
import io.lake.meta.PageRequest;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionFailure;
import io.lake.meta.TransactionResult;
import io.lake.meta.WriteResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** RocksDB-specific behaviour of reads, conditional writes and pages. */
class RocksStoreOperationsTest {

    @TempDir
    Path dir;

    private MetaStore store;

    @BeforeEach
    void open() {
        store = RocksDbMetaStore.builder().directory(dir).build();
    }

    @AfterEach
    void close() {
        store.close();
    }

    private static MetaKey key(String text) {
        return MetaKey.of(text);
    }

    private static MetaValue value(String text) {
        return MetaValue.utf8(text);
    }

    @Test
    void casLifecycle_reportsCurrentValueOnConflict() {
        MetaKey k = key("tbl/a");
        assertThat(store.get(k)).isEmpty();
        assertThat(store.create(k, value("1"))).isEqualTo(WriteResult.applied());
        assertThat(store.create(k, value("x"))).isEqualTo(WriteResult.conflict(Optional.of(value("1"))));
        assertThat(store.update(k, value("0"), value("2"))).isEqualTo(WriteResult.conflict(Optional.of(value("1"))));
        assertThat(store.update(k, value("1"), value("2"))).isEqualTo(WriteResult.applied());
        assertThat(store.get(k)).contains(value("2"));
        assertThat(store.delete(k, value("1"))).isEqualTo(WriteResult.conflict(Optional.of(value("2"))));
        assertThat(store.delete(k, value("2"))).isEqualTo(WriteResult.applied());
        assertThat(store.get(k)).isEmpty();
        assertThat(store.update(k, value("2"), value("3"))).isEqualTo(WriteResult.conflict(Optional.empty()));
        assertThat(store.delete(k, value("2"))).isEqualTo(WriteResult.conflict(Optional.empty()));
    }

    /**
     * A transaction of many creates is checked by walking its keys' span (SpanReads), past stored
     * keys nobody asked for, after a reopen so that the committer remembers none of them.
     */
    @Test
    void bulkTransaction_withOneStoredKeyAmongItsCreates_isRefusedOnThatKeyAlone_andWritesNothing() {
        store.create(key("bulk/t-057"), value("stored"));
        store.create(key("bulk/t-0305"), value("not asked")); // sorts between t-030 and t-031
        store.create(key("bulk/t-0405"), value("not asked"));
        store.close();
        store = RocksDbMetaStore.builder().directory(dir).build();

        Transaction.Builder bulk = Transaction.builder();
        for (int i = 0; i < 100; i++) {
            bulk.create(key(String.format(Locale.ROOT, "bulk/t-%03d", i)), value("new"));
        }
        TransactionResult refused = store.transact(bulk.build());

        assertThat(refused)
                .isEqualTo(TransactionResult.notApplied(
                        List.of(TransactionFailure.found(key("bulk/t-057"), Optional.of(value("stored"))))));
        assertThat(store.page(PageRequest.first(KeyPrefix.of("bulk/"), 1000)).entries())
                .extracting(Entry::key)
                .containsExactly(key("bulk/t-0305"), key("bulk/t-0405"), key("bulk/t-057"));

        Transaction.Builder fresh = Transaction.builder();
        for (int i = 100; i < 200; i++) {
            fresh.create(key(String.format(Locale.ROOT, "bulk/t-%03d", i)), value("new"));
        }
        assertThat(store.transact(fresh.build()).isApplied()).isTrue();
        assertThat(store.get(key("bulk/t-199"))).contains(value("new"));
    }

    @Test
    void emptyValue_isPresentAndDistinctFromAbsent() {
        MetaKey k = key("tbl/empty");
        assertThat(store.create(k, MetaValue.empty()).isApplied()).isTrue();
        assertThat(store.get(k)).contains(MetaValue.empty());
        assertThat(store.create(k, MetaValue.empty())).isEqualTo(WriteResult.conflict(Optional.of(MetaValue.empty())));
    }

    @Test
    void guarded_appliesOnlyWhileGuardHoldsExactBytes() {
        MetaKey lease = key("lease/leader");
        MetaKey target = key("tbl/t");
        store.create(lease, value("epoch-1"));
        store.create(target, value("v1"));

        GuardedResult stale = store.applyGuarded(
                new GuardedMutation(lease, value("epoch-0"), Mutation.update(target, value("v1"), value("v2"))));
        assertThat(stale).isEqualTo(GuardedResult.guardRejected());
        assertThat(store.get(target)).contains(value("v1"));
        assertThat(store.get(lease)).contains(value("epoch-1"));

        GuardedResult missingGuard = store.applyGuarded(new GuardedMutation(
                key("lease/none"), value("epoch-1"), Mutation.update(target, value("v1"), value("v2"))));
        assertThat(missingGuard).isEqualTo(GuardedResult.guardRejected());

        GuardedResult conflict = store.applyGuarded(
                new GuardedMutation(lease, value("epoch-1"), Mutation.update(target, value("v0"), value("v2"))));
        assertThat(conflict).isEqualTo(GuardedResult.targetConflict(WriteResult.conflict(Optional.of(value("v1")))));

        GuardedResult applied = store.applyGuarded(
                new GuardedMutation(lease, value("epoch-1"), Mutation.update(target, value("v1"), value("v2"))));
        assertThat(applied).isEqualTo(GuardedResult.applied());
        assertThat(store.get(target)).contains(value("v2"));
        assertThat(store.get(lease)).contains(value("epoch-1"));

        assertThat(store.applyGuarded(
                        new GuardedMutation(lease, value("epoch-1"), Mutation.delete(target, value("v2")))))
                .isEqualTo(GuardedResult.applied());
        assertThat(store.get(target)).isEmpty();
    }

    @Test
    void nullArguments_areInvalidArguments() {
        assertThatThrownBy(() -> store.get(null)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> store.apply(null)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> store.applyGuarded(null)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> store.page(null)).isInstanceOf(InvalidArgumentException.class);
    }

    @Test
    void pages_walkThePrefixInByteOrder_boundedAndResumable() {
        List<String> keys = List.of("tbl/ns/a", "tbl/ns/b", "tbl/ns/c", "tbl/ns/d", "tbl/ns/e");
        for (String k : keys) {
            store.create(key(k), value(k));
        }
        // neighbours on both sides of the prefix, including the byte just past '/'
        store.create(key("tbl/nr"), value("before"));
        store.create(key("tbl/ns0"), value("after"));
        store.create(key("tbm/ns/a"), value("other family"));

        KeyPrefix prefix = KeyPrefix.of("tbl/ns/");
        List<String> seen = new ArrayList<>();
        PageRequest request = PageRequest.first(prefix, 2);
        List<Page> pages = new ArrayList<>();
        while (request != null) {
            Page page = store.page(request);
            pages.add(page);
            assertThat(page.entries()).hasSizeLessThanOrEqualTo(2);
            page.entries()
                    .forEach(e -> assertThat(e.value()).isEqualTo(value(e.key().toString())));
            seen.addAll(page.entries().stream().map(e -> e.key().toString()).collect(Collectors.toList()));
            request = request.next(page).orElse(null);
        }
        assertThat(seen).containsExactlyElementsOf(keys);
        assertThat(pages).hasSize(3);
        assertThat(pages.get(0).cost()).isEqualTo(PageCost.items(3));
        assertThat(pages.get(1).cost()).isEqualTo(PageCost.items(3));
        assertThat(pages.get(2).cost()).isEqualTo(PageCost.items(1));
        assertThat(pages.get(2).hasMore()).isFalse();
    }

    @Test
    void page_exactlyFullWithNothingAfter_hasNoToken() {
        store.create(key("tbl/a"), value("a"));
        store.create(key("tbl/b"), value("b"));
        store.create(key("tbm/x"), value("x"));
        Page page = store.page(KeyPrefix.of("tbl/"), 2);
        assertThat(page.entries()).extracting(Entry::key).containsExactly(key("tbl/a"), key("tbl/b"));
        assertThat(page.nextToken()).isEmpty();
        assertThat(page.cost()).isEqualTo(PageCost.items(2));
    }

    /**
     * A page copies its keys and values out through scratch arrays that it reuses and grows: each
     * comes back whole and byte-exact, whether it is longer than anything read before (the
     * scratch grows), or shorter (only its own bytes are copied), or empty.
     */
    @Test
    void page_returnsEachKeyAndValueWhole_longerOrShorterThanTheOneBefore() {
        // whole lengths in bytes, around the scratch arrays' first sizes (256 for keys, 1024 for values)
        int[] keyLengths = {8, 255, 256, 257, 10, 600, 8, Limits.MAX_KEY_BYTES, 40, 9};
        int[] valueSizes = {0, 1, 1023, 1024, 1025, 7, 4097, Limits.MAX_VALUE_BYTES, 0, 300};
        List<Entry> written = new ArrayList<>();
        for (int i = 0; i < keyLengths.length; i++) {
            String head = String.format(Locale.ROOT, "len/%02d-", i);
            MetaKey k = key(head + "k".repeat(keyLengths[i] - head.length()));
            byte[] bytes = new byte[valueSizes[i]];
            new Random(i).nextBytes(bytes);
            assertThat(store.create(k, MetaValue.of(bytes)).isApplied()).isTrue();
            written.add(new Entry(k, MetaValue.of(bytes)));
        }
        assertThat(store.page(KeyPrefix.of("len/"), 100).entries()).containsExactlyElementsOf(written);
    }

    @Test
    void page_ofEmptyPrefix_isEmptyWithoutToken() {
        store.create(key("tbm/x"), value("x"));
        Page page = store.page(KeyPrefix.of("tbl/"), 10);
        assertThat(page.entries()).isEmpty();
        assertThat(page.nextToken()).isEmpty();
        assertThat(page.cost()).isEqualTo(PageCost.items(0));
    }

    @Test
    void page_resumesAfterTheLastKeyEvenWhenItWasDeleted() {
        for (String k : List.of("tbl/a", "tbl/b", "tbl/c")) {
            store.create(key(k), value(k));
        }
        Page first = store.page(KeyPrefix.of("tbl/"), 1);
        store.delete(key("tbl/a"), value("tbl/a"));
        Page second = store.page(
                PageRequest.after(KeyPrefix.of("tbl/"), first.nextToken().orElseThrow(), 1));
        assertThat(second.entries()).extracting(Entry::key).containsExactly(key("tbl/b"));
    }

    @Test
    void page_whoseLastKeyEqualsThePrefix_resumesAfterIt() {
        for (String k : List.of("tbl/ns/t", "tbl/ns/t/1", "tbl/ns/tt", "tbl/ns/u")) {
            store.create(key(k), value(k));
        }
        KeyPrefix prefix = KeyPrefix.of("tbl/ns/t");
        Page first = store.page(prefix, 1);
        assertThat(first.entries()).extracting(Entry::key).containsExactly(key("tbl/ns/t"));
        Page rest = store.page(PageRequest.after(prefix, first.nextToken().orElseThrow(), 10));
        assertThat(rest.entries()).extracting(Entry::key).containsExactly(key("tbl/ns/t/1"), key("tbl/ns/tt"));
        assertThat(rest.nextToken()).isEmpty();
    }

    @Test
    void page_tokenOfAnotherPrefix_isRejected() {
        store.create(key("tbl/a/1"), value("1"));
        store.create(key("tbl/a/2"), value("2"));
        String token = store.page(KeyPrefix.of("tbl/a/"), 1).nextToken().orElseThrow();
        assertThatThrownBy(() -> store.page(PageRequest.after(KeyPrefix.of("tbl/"), token, 1)))
                .isInstanceOf(InvalidPageTokenException.class);
    }

    @Test
    void page_keysWithMultiByteUtf8_orderByUnsignedBytes() {
        List<String> keys = List.of("tbl/z", "tbl/\u00e9", "tbl/\u4e2d", "tbl/\ud83d\ude00");
        for (String k : keys) {
            store.create(key(k), value(k));
        }
        List<String> seen = new ArrayList<>();
        PageRequest request = PageRequest.first(KeyPrefix.of("tbl/"), 1);
        while (request != null) {
            Page page = store.page(request);
            page.entries().forEach(e -> seen.add(e.key().toString()));
            request = request.next(page).orElse(null);
        }
        assertThat(seen).containsExactlyElementsOf(keys);
    }

    @Test
    void formatMarker_isInvisibleToPagesAndReads() {
        // The marker lives below every public key; a page over the lowest family never meets it.
        Page page = store.page(KeyPrefix.of("0/"), 10);
        assertThat(page.entries()).isEmpty();
        assertThat(store.get(key("0/lake-meta/format"))).isEmpty();
    }

    @Test
    void page_ofLargeValues_stopsAtItsByteBudget_andTheTokenResumesWithNothingLostOrRepeated() {
        byte[] quarterMiB = new byte[256 * 1024];
        List<MetaKey> written = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            quarterMiB[0] = (byte) i;
            MetaKey k = key(String.format("big/%02d", i));
            store.create(k, MetaValue.of(quarterMiB));
            written.add(k);
        }
        Page first = store.page(PageRequest.first(KeyPrefix.of("big/"), 20));
        // 16 values of 256 KiB reach the 4 MiB budget: the page stops there although the limit is 20
        assertThat(first.entries()).hasSize(16);
        assertThat(first.nextToken()).isPresent();
        Page second = store.page(
                PageRequest.after(KeyPrefix.of("big/"), first.nextToken().get(), 20));
        assertThat(second.nextToken()).isEmpty();
        List<MetaKey> seen = new ArrayList<>();
        first.entries().forEach(e -> seen.add(e.key()));
        second.entries().forEach(e -> seen.add(e.key()));
        assertThat(seen).containsExactlyElementsOf(written);
    }
}
