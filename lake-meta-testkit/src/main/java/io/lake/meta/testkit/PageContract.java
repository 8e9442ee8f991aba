package io.lake.meta.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.Entry;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.Limits;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Part of {@link MetaStoreSuite}: bounded, resumable prefix pages. Order and page boundaries
 * are backend-defined, so these tests check what every backend owes: no page above its limit,
 * cost bounded by the page, every key that existed throughout exactly once, nothing outside the
 * prefix, and iteration driven by the token, never by the number of entries.
 */
@ContractGroup("pages")
abstract class PageContract extends WatchContract {

    private void createAll(List<String> keys) {
        for (String k : keys) {
            assertThat(store.create(key(k), value("v:" + k)).isApplied())
                    .as("create %s", k)
                    .isTrue();
        }
    }

    private List<String> names(String prefix, int count) {
        return IntStream.range(0, count)
                .mapToObj(i -> prefix + String.format("%03d", i))
                .toList();
    }

    @Test
    void page_fiveKeysLimitTwo_isBoundedAndResumableToTheEnd() {
        List<String> keys = names("tbl/ns1/t", 5);
        createAll(keys);

        List<Entry> seen = new ArrayList<>();
        List<Integer> sizes = new ArrayList<>();
        Optional<PageRequest> request = Optional.of(PageRequest.first(prefix("tbl/ns1/"), 2));
        while (request.isPresent()) {
            Page page = store.page(request.get());
            ContractSupport.checkPage(prefix("tbl/ns1/"), 2, page);
            sizes.add(page.entries().size());
            seen.addAll(page.entries());
            request = request.get().next(page);
            assertThat(sizes).as("page sizes so far").hasSizeLessThan(1000);
        }

        assertThat(keysOf(seen)).containsExactlyElementsOf(keys);
        assertThat(sizes).as("page sizes").allMatch(size -> size <= 2);
        assertThat(sizes.stream().filter(size -> size > 0).count())
                .as("non-empty pages")
                .isGreaterThanOrEqualTo(3);
    }

    @Test
    void page_entriesCarryTheirValues() {
        createAll(List.of("tbl/ns1/a", "tbl/ns1/b"));

        List<Entry> all = readAll(store, prefix("tbl/ns1/"), 10);

        assertThat(all).extracting(e -> e.value().asUtf8()).containsExactlyInAnyOrder("v:tbl/ns1/a", "v:tbl/ns1/b");
        assertThat(all).allMatch(e -> e.value().asUtf8().equals("v:" + e.key()));
    }

    @Test
    void loopOnTokens_returnsEveryKeyExactlyOnce_forAnyLimit() {
        List<String> keys = names("tbl/ns1/t", 57);
        createAll(keys);

        for (int limit : new int[] {1, 2, 7, 56, 57, 58, Limits.MAX_PAGE_LIMIT}) {
            assertThat(keysOf(readAll(store, prefix("tbl/ns1/"), limit)))
                    .as("limit %d", limit)
                    .containsExactlyElementsOf(keys);
        }
    }

    @Test
    void page_ofEmptyPrefix_endsWithNoEntries() {
        createAll(List.of("tbl/ns2/a"));

        assertThat(readAll(store, prefix("tbl/ns1/"), 3)).isEmpty();
        assertThat(readAll(store, prefix("other/"), 3)).isEmpty();
    }

    @Test
    void tokenWhoseRemainingKeysWereDeleted_yieldsEmptyPagesUntilTheEnd() {
        List<String> keys = names("tbl/ns1/t", 6);
        createAll(keys);
        KeyPrefix p = prefix("tbl/ns1/");

        List<Entry> before = new ArrayList<>();
        Optional<PageRequest> request = Optional.of(PageRequest.first(p, 2));
        while (request.isPresent() && before.isEmpty()) {
            Page page = store.page(request.get());
            before.addAll(page.entries());
            request = request.get().next(page);
        }
        assertThat(request)
                .as("a token after the first non-empty page of 6 keys with limit 2")
                .isPresent();
        for (String k : keys) {
            store.delete(key(k), value("v:" + k));
        }

        int pages = 0;
        while (request.isPresent()) {
            Page page = store.page(request.get());
            ContractSupport.checkPage(p, 2, page);
            assertThat(page.entries()).as("entries after every key was deleted").isEmpty();
            request = request.get().next(page);
            assertThat(++pages).as("pages after deletion").isLessThan(1000);
        }
    }

    @Test
    void token_staysValidAcrossWrites_andReturnsNoKeyTwice() {
        List<String> keys = names("tbl/ns1/t", 10);
        createAll(keys);
        KeyPrefix p = prefix("tbl/ns1/");
        List<Entry> seen = new ArrayList<>();
        Optional<PageRequest> request = Optional.of(PageRequest.first(p, 3));
        int pages = 0;
        while (request.isPresent()) {
            Page page = store.page(request.get());
            ContractSupport.checkPage(p, 3, page);
            seen.addAll(page.entries());
            request = request.get().next(page);
            if (pages++ == 0) {
                // Between pages: a key that was never there before, and a rewrite of every key.
                store.create(key("tbl/ns1/t005a"), value("new"));
                for (String k : keys) {
                    store.update(key(k), value("v:" + k), value("w:" + k));
                }
            }
            assertThat(pages).isLessThan(1000);
        }

        List<String> seenKeys = seen.stream().map(e -> e.key().toString()).toList();
        assertThat(seenKeys).as("no key twice").doesNotHaveDuplicates();
        assertThat(seenKeys).as("every key that existed throughout").containsAll(keys);
        assertThat(seenKeys).allMatch(k -> k.equals("tbl/ns1/t005a") || keys.contains(k));
    }

    @Test
    void keysDeletedBetweenPages_hideNoKeyThatExistedThroughout() {
        List<String> keys = names("tbl/ns1/t", 9);
        List<String> seen = new ArrayList<>();
        Optional<PageRequest> request = createAndReadUntilSomeEntries(keys, seen);

        List<String> deleted = List.copyOf(seen);
        for (String k : deleted) {
            assertThat(store.delete(key(k), value("v:" + k)).isApplied())
                    .as("delete %s", k)
                    .isTrue();
        }
        readToTheEnd(request, seen);

        assertThat(seen).as("no key twice").doesNotHaveDuplicates();
        assertThat(seen)
                .as("every key that existed throughout the iteration")
                .containsAll(keys.stream().filter(k -> !deleted.contains(k)).toList());
    }

    @Test
    void keysWrittenBetweenPages_neverAppearTwice() {
        List<String> keys = names("tbl/ns1/t", 9);
        List<String> seen = new ArrayList<>();
        Optional<PageRequest> request = createAndReadUntilSomeEntries(keys, seen);

        // Keys returned already are deleted and written again; new keys sort before and after
        // every existing one (in byte order; other orders place them anywhere).
        List<String> rewritten = List.copyOf(seen);
        for (String k : rewritten) {
            store.delete(key(k), value("v:" + k));
            store.create(key(k), value("again"));
        }
        List<String> added = new ArrayList<>(names("tbl/ns1/a", 5));
        added.addAll(names("tbl/ns1/u", 5));
        createAll(added);
        readToTheEnd(request, seen);

        assertThat(seen)
                .as("no key twice, although keys were written between pages")
                .doesNotHaveDuplicates();
        assertThat(seen)
                .as("every key that existed throughout the iteration")
                .containsAll(keys.stream().filter(k -> !rewritten.contains(k)).toList());
        assertThat(seen).allMatch(k -> keys.contains(k) || added.contains(k));
    }

    @Test
    void familyIsolation_unrelatedKeysAndSiblingPrefixesAreNeverReturned() {
        List<String> wanted = names("tbl/ns1/t", 5);
        createAll(wanted);
        List<String> noise = new ArrayList<>();
        for (String family : List.of("a", "tb", "tbl0", "tbl-x", "tbl_x", "tbl2", "tblz", "zzz", "0")) {
            noise.addAll(names(family + "/ns1/t", 20));
        }
        noise.addAll(names("tbl/ns10/t", 20));
        noise.addAll(names("tbl/ns1x/t", 20));
        noise.addAll(names("tbl/ns0/t", 20));
        noise.addAll(names("tbl/ns2/t", 20));
        noise.add("tbl/ns1");
        noise.add("tbl/ns1.");
        createAll(noise);

        for (int limit : new int[] {1, 2, 5, 100}) {
            assertThat(keysOf(readAll(store, prefix("tbl/ns1/"), limit)))
                    .as("limit %d", limit)
                    .containsExactlyElementsOf(wanted);
        }
        assertThat(keysOf(readAll(store, prefix("tbl/ns10/"), 7))).containsExactlyElementsOf(names("tbl/ns10/t", 20));
        assertThat(keysOf(readAll(store, prefix("tbl/"), 1000))).hasSize(5 + 4 * 20 + 2);
        assertThat(keysOf(readAll(store, prefix("tb/"), 3))).containsExactlyElementsOf(names("tb/ns1/t", 20));
    }

    @Test
    void prefix_mayEndInsideASegment_andIncludesTheKeyEqualToIt() {
        createAll(List.of("tbl/ns1/t", "tbl/ns1/t1", "tbl/ns1/tx/y", "tbl/ns1/u", "tbl/ns1/s", "tbl/ns1/" + "t\u00e9"));

        for (int limit : new int[] {1, 2, 10}) {
            assertThat(keysOf(readAll(store, prefix("tbl/ns1/t"), limit)))
                    .as("limit %d", limit)
                    .containsExactlyInAnyOrder("tbl/ns1/t", "tbl/ns1/t1", "tbl/ns1/tx/y", "tbl/ns1/t\u00e9");
        }
    }

    @Test
    void prefix_endingInAMultiByteCharacter_returnsExactlyTheKeysUnderIt() {
        // Each prefix ends in a character of 2, 3 or 4 UTF-8 bytes. Beside each lie keys made of
        // the characters just before and after it (the next one differs in the last byte or
        // carries into a longer encoding), which a wrong upper bound would let in.
        List<String> ends = List.of("\u00e9", "\u00ff", "\u07ff", "\u20ac", "\uffff", "\ud83d\ude00", "\udbff\udfff");
        List<String> neighbours = new ArrayList<>();
        for (String end : ends) {
            int c = end.codePointAt(0);
            neighbours.add("tbl/ns1/" + Character.toString(c - 1));
            if (c < Character.MAX_CODE_POINT) {
                neighbours.add("tbl/ns1/" + Character.toString(c + 1));
                neighbours.add("tbl/ns1/" + Character.toString(c + 1) + "a");
            }
        }
        createAll(neighbours);
        for (String end : ends) {
            String p = "tbl/ns1/" + end;
            List<String> under = Stream.of(
                            p, p + "a", p + "\u0000", p + "\u00ff", p + "\uffff", p + "\ud83d\ude00", p + end)
                    .distinct()
                    .toList();
            createAll(under);
            for (int limit : new int[] {1, 2, 100}) {
                assertThat(keysOf(readAll(store, prefix(p), limit)))
                        .as("prefix ending in U+%04X, limit %d", end.codePointAt(0), limit)
                        .containsExactlyInAnyOrderElementsOf(under);
            }
            for (String k : under) {
                store.delete(key(k), value("v:" + k));
            }
        }
    }

    @Test
    void multiByteKeys_areAllReturnedOnce() {
        List<String> keys = List.of(
                "tbl/ns1/\u00e9",
                "tbl/ns1/\u20ac",
                "tbl/ns1/\ud83d\ude00",
                "tbl/ns1/z",
                "tbl/ns1/\u0000",
                "tbl/ns1/\u007f",
                "tbl/ns1/\uffff");
        createAll(keys);

        for (int limit : new int[] {1, 3}) {
            assertThat(keysOf(readAll(store, prefix("tbl/ns1/"), limit))).containsExactlyInAnyOrderElementsOf(keys);
        }
    }

    @Test
    void limitOfOne_neverReturnsMoreThanOneEntry() {
        createAll(names("tbl/ns1/t", 20));

        assertThat(readAll(store, prefix("tbl/ns1/"), 1)).hasSize(20); // readAll checks each page's size
    }

    @Test
    void limitsOneAndMaximum_areAccepted() {
        createAll(names("tbl/ns1/t", 3));

        assertThat(store.page(prefix("tbl/ns1/"), 1).entries()).hasSizeLessThanOrEqualTo(1);
        assertThat(store.page(prefix("tbl/ns1/"), Limits.MAX_PAGE_LIMIT).entries())
                .hasSizeLessThanOrEqualTo(3);
    }

    @Test
    void limitsZeroNegativeAndAboveMaximum_areRejected_andNothingChanges() {
        createAll(names("tbl/ns1/t", 3));
        Map<String, String> before = contents("tbl/");
        String token = readFirstToken(prefix("tbl/ns1/"));

        for (int limit : new int[] {0, -1, Integer.MIN_VALUE, Limits.MAX_PAGE_LIMIT + 1, Integer.MAX_VALUE}) {
            assertThatThrownBy(() -> store.page(prefix("tbl/ns1/"), limit))
                    .as("limit %d", limit)
                    .isInstanceOf(InvalidArgumentException.class);
            assertThatThrownBy(() -> store.page(PageRequest.after(prefix("tbl/ns1/"), token, limit)))
                    .as("limit %d with a token", limit)
                    .isInstanceOf(InvalidArgumentException.class);
        }
        assertThat(contents("tbl/")).isEqualTo(before);
    }

    @Test
    void pageCost_isBoundedByTheLimit_evenAmongManyOtherKeys() {
        createAll(names("tbl/ns1/t", 3));
        createAll(names("tbl/ns1x/t", 200));
        createAll(names("tbl2/x/t", 200));

        for (int limit : new int[] {1, 2, 3, 4}) {
            Page page = store.page(prefix("tbl/ns1/"), limit);
            assertThat(page.cost().itemsEvaluated())
                    .as("items evaluated at limit %d", limit)
                    .isLessThanOrEqualTo(limit + 1L);
        }
    }

    /**
     * Creates {@code keys} under {@code tbl/ns1/}, then reads pages of limit 3 until one holds
     * entries; returns the request for the page that follows, which must exist.
     */
    private Optional<PageRequest> createAndReadUntilSomeEntries(List<String> keys, List<String> seen) {
        createAll(keys);
        Optional<PageRequest> next = Optional.of(PageRequest.first(prefix("tbl/ns1/"), 3));
        for (int pages = 0; next.isPresent() && seen.isEmpty(); pages++) {
            assertThat(pages).as("pages before the first entry").isLessThan(1000);
            next = readPage(next.get(), seen);
        }
        assertThat(next)
                .as("a token after the first non-empty page of %d keys with limit 3", keys.size())
                .isPresent();
        return next;
    }

    /** Reads every page from {@code request} on, checking each. */
    private void readToTheEnd(Optional<PageRequest> request, List<String> seen) {
        for (int pages = 0; request.isPresent(); pages++) {
            assertThat(pages).as("pages to the end").isLessThan(1000);
            request = readPage(request.get(), seen);
        }
    }

    private Optional<PageRequest> readPage(PageRequest request, List<String> seen) {
        Page page = store.page(request);
        ContractSupport.checkPage(request.prefix(), request.limit(), page);
        page.entries().forEach(e -> seen.add(e.key().toString()));
        return request.next(page);
    }

    /** Pages from the start until one returns a token; fails if the prefix ends before. */
    private String readFirstToken(KeyPrefix p) {
        Page page = store.page(p, 1);
        assertThat(page.nextToken())
                .as("a token after the first page of 3 keys with limit 1")
                .isPresent();
        return page.nextToken().get();
    }
}
