package io.lake.meta.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.lake.meta.InvalidPageTokenException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.spi.PageCursor;
import io.lake.meta.spi.PageTokenCodec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Part of {@link MetaStoreSuite}: page tokens are bound to their prefix and store, and every
 * malformed, tampered, truncated or foreign token is refused with {@link InvalidPageTokenException}
 * before anything is read.
 */
@ContractGroup("page tokens")
abstract class PageTokenContract extends PageContract {

    private static final List<String> NS1_KEYS = List.of("tbl/ns1/a", "tbl/ns1/b", "tbl/ns1/c");

    private final KeyPrefix ns1 = prefix("tbl/ns1/");
    /** The token of the first page of {@code tbl/ns1/} with limit 1. */
    private String token = ""; // set by fillAndTakeAToken(), as are the next two
    /** The keys of {@code tbl/ns1/} that the first page did not return: what {@link #token} must still yield. */
    private List<String> afterToken = List.of();

    private Map<String, String> before = Map.of();

    /** Each test of this group starts here: keys in and around tbl/ns1/, and the token after its first page. */
    private void fillAndTakeAToken() {
        for (String k : List.of("tbl/ns1/a", "tbl/ns1/b", "tbl/ns1/c", "tbl/ns10/a", "tbl/ns1x/a", "tbl2/ns1/a")) {
            store.create(key(k), value(k));
        }
        Page first = store.page(ns1, 1);
        ContractSupport.checkPage(ns1, 1, first);
        assertThat(first.nextToken())
                .as("a token after the first page of %s with limit 1 (3 keys)", ns1)
                .isPresent();
        token = first.nextToken().get();
        List<String> returned = keysOf(first.entries());
        afterToken = NS1_KEYS.stream().filter(k -> !returned.contains(k)).toList();
        before = contents("tbl/");
    }

    /** The first continuation token of {@code p} read with limit 1 (its first page may be empty). */
    private String firstToken(KeyPrefix p) {
        Page page = store.page(p, 1);
        assertThat(page.nextToken())
                .as("a token after the first page of %s with limit 1", p)
                .isPresent();
        return page.nextToken().get();
    }

    /**
     * Every key read by following {@code start} on {@code p} to the end of the prefix, each page
     * checked. Pages may be empty while a token follows (a sharded layout's are), so this loops
     * on the token, never on the number of entries.
     */
    private List<String> keysFromTokenToTheEnd(KeyPrefix p, String start, int limit) {
        List<String> keys = new ArrayList<>();
        Optional<PageRequest> request = Optional.of(PageRequest.after(p, start, limit));
        for (int pages = 0; request.isPresent(); pages++) {
            assertThat(pages)
                    .as("pages from the token to the end of %s: the continuation tokens loop", p)
                    .isLessThan(ContractSupport.MAX_PAGES_PER_ITERATION);
            Page page = store.page(request.get());
            ContractSupport.checkPage(p, limit, page);
            page.entries().forEach(e -> keys.add(e.key().toString()));
            request = request.get().next(page);
        }
        return keys;
    }

    private void assertRejected(KeyPrefix p, String badToken, String what) {
        // catchThrowable keeps the description when the page is (wrongly) served.
        Throwable thrown = catchThrowable(() -> store.page(PageRequest.after(p, badToken, 10)));
        assertThat(thrown).as("%s: what the page threw", what).isInstanceOf(InvalidPageTokenException.class);
    }

    /** Every other text that Java's base64url decoder reads as the bytes of {@code genuine}. */
    private List<String> sameBytesSpellings(String genuine) {
        byte[] bytes = Base64.getUrlDecoder().decode(genuine);
        String body = genuine.substring(0, genuine.length() - 1);
        List<String> candidates = new ArrayList<>();
        for (char c : "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".toCharArray()) {
            candidates.add(body + c);
        }
        candidates.add(genuine + "=");
        candidates.add(genuine + "==");
        return candidates.stream()
                .filter(c -> !c.equals(genuine) && decodesTo(c, bytes))
                .toList();
    }

    private boolean decodesTo(String text, byte[] bytes) {
        try {
            return Arrays.equals(Base64.getUrlDecoder().decode(text), bytes);
        } catch (IllegalArgumentException notBase64) {
            return false;
        }
    }

    private void assertNothingChanged() {
        assertThat(contents("tbl/")).isEqualTo(before);
        assertThat(keysFromTokenToTheEnd(ns1, token, 10))
                .as(
                        "the genuine token still works: from it to the end of %s, exactly the keys the first page did"
                                + " not return, each once",
                        ns1)
                .containsExactlyInAnyOrderElementsOf(afterToken);
    }

    @Test
    void token_resumesTheSamePrefix() {
        fillAndTakeAToken();
        List<String> resumed = keysFromTokenToTheEnd(ns1, token, 1);

        assertThat(afterToken)
                .as("keys of %s left after a first page of limit 1", ns1)
                .isNotEmpty();
        assertThat(resumed)
                .as(
                        "from the token to the end of %s, exactly the keys the first page did not return,"
                                + " each once (and nothing of tbl/ns10/, tbl/ns1x/ or tbl2/)",
                        ns1)
                .containsExactlyInAnyOrderElementsOf(afterToken);
    }

    @Test
    void token_usedWithAnotherPrefix_isRejected() {
        fillAndTakeAToken();
        for (String other : List.of("tbl/ns10/", "tbl/ns1x/", "tbl/", "tbl/ns1/a", "tbl/ns1", "tbl2/ns1/", "other/")) {
            assertRejected(prefix(other), token, "token of tbl/ns1/ used with " + other);
        }
        assertNothingChanged();
    }

    @Test
    void tokenOfTheWholeFamily_usedWithANarrowerPrefix_isRejected() {
        fillAndTakeAToken();
        String familyToken = firstToken(prefix("tbl/"));

        assertRejected(ns1, familyToken, "token of tbl/ used with tbl/ns1/");
        assertNothingChanged();
    }

    @Test
    void tamperedToken_isRejected_atEveryCharacter() {
        fillAndTakeAToken();
        for (int i = 0; i < token.length(); i++) {
            char original = token.charAt(i);
            char replacement = original == 'A' ? 'B' : 'A';
            String tampered = token.substring(0, i) + replacement + token.substring(i + 1);
            assertRejected(ns1, tampered, "character " + i + " changed");
        }
        assertNothingChanged();
    }

    @Test
    void truncatedToken_isRejected_atEveryLength() {
        fillAndTakeAToken();
        for (int length = 0; length < token.length(); length++) {
            String cut = token.substring(0, length);
            assertRejected(ns1, cut, "token cut to " + length + " characters");
        }
        assertNothingChanged();
    }

    @Test
    void respelledToken_decodingToTheSameBytes_isRejected() {
        fillAndTakeAToken();
        // A token is compared as text: a lenient base64url decoder also reads the issued bytes
        // from the token with other unused low bits in its last character, or with '=' padding.
        List<String> issued = new ArrayList<>(List.of(token));
        Optional<String> next = store.page(prefix("tbl/"), 1).nextToken();
        for (int pages = 0; next.isPresent() && pages < ContractSupport.MAX_PAGES_PER_ITERATION; pages++) {
            issued.add(next.get());
            next = store.page(PageRequest.after(prefix("tbl/"), next.get(), 1)).nextToken();
        }
        int tried = 0;
        for (String genuine : issued) {
            KeyPrefix p = genuine.equals(token) ? ns1 : prefix("tbl/");
            for (String respelled : sameBytesSpellings(genuine)) {
                assertRejected(p, respelled, respelled + ", a respelling of the issued " + genuine);
                tried++;
            }
        }
        assertThat(tried)
                .as(
                        "respellings of %d issued tokens (a token whose length is not a multiple of 4 has some)",
                        issued.size())
                .isPositive();
        assertNothingChanged();
    }

    @Test
    void extendedToken_isRejected() {
        fillAndTakeAToken();
        assertRejected(ns1, token + "A", "one character appended");
        assertRejected(ns1, token + token, "token repeated");
        assertRejected(ns1, token + "AAAA", "four characters appended");
        assertNothingChanged();
    }

    @Test
    void tokenOfAnotherVersion_isRejected() {
        fillAndTakeAToken();
        byte[] raw = Base64.getUrlDecoder().decode(token);
        for (int version : new int[] {0, PageTokenCodec.VERSION + 1, 255}) {
            byte[] other = raw.clone();
            other[0] = (byte) version;
            assertRejected(ns1, Base64.getUrlEncoder().withoutPadding().encodeToString(other), "version " + version);
        }
        assertNothingChanged();
    }

    @Test
    void tokenOfAnotherLayout_isRejected() {
        fillAndTakeAToken();
        // A candidate may be the store's own layout (a 1-shard DynamoDB table is dynamodb-v2/shards=1):
        // that one is skipped, recognised by the layout digest in bytes 1..4 of the genuine token.
        byte[] ownLayout = Arrays.copyOfRange(Base64.getUrlDecoder().decode(token), 1, 5);
        int tried = 0;
        for (String layout : List.of("other-backend", "dynamodb-v2/shards=1", "rocksdb/v0", "memory/v0")) {
            String foreign = new PageTokenCodec(layout, 1).encode(ns1, PageCursor.startOf(0));
            if (Arrays.equals(Arrays.copyOfRange(Base64.getUrlDecoder().decode(foreign), 1, 5), ownLayout)) {
                continue;
            }
            assertRejected(ns1, foreign, "token of layout " + layout);
            tried++;
        }
        assertThat(tried).as("foreign layouts tried").isGreaterThanOrEqualTo(3);
        assertNothingChanged();
    }

    @Test
    void garbageTokens_areRejected() {
        fillAndTakeAToken();
        List<String> garbage = new ArrayList<>(List.of(
                "x",
                "garbage",
                "!!!!",
                "a b c",
                "AAAA",
                "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
                "____",
                "====",
                "null",
                "\u00e9\u00e9",
                "\ud83d\ude00",
                " " + token,
                token + " ",
                "A".repeat(10_000)));
        if (!token.toLowerCase(Locale.ROOT).equals(token)) {
            garbage.add(token.toLowerCase(Locale.ROOT));
        }
        garbage.add(token.replace('-', '+').replace('_', '/') + "+/");
        for (String bad : garbage) {
            assertRejected(ns1, bad, "'" + (bad.length() > 40 ? bad.substring(0, 40) + "..." : bad) + "'");
        }
        assertNothingChanged();
    }

    @Test
    void emptyToken_isRejected() {
        fillAndTakeAToken();
        assertThatThrownBy(() -> store.page(PageRequest.after(ns1, "", 10)))
                .isInstanceOf(InvalidPageTokenException.class);
        assertNothingChanged();
    }
}
