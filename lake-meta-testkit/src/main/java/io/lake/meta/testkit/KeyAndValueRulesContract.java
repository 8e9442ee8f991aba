package io.lake.meta.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.GuardedMutation;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.Limits;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.PageRequest;
import io.lake.meta.WriteResult;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * Part of {@link MetaStoreSuite}: every key, prefix and value rule of the contract, at and just
 * past its boundary. Accepted cases are written and read back through the store; rejected cases
 * must fail with {@link InvalidArgumentException} and leave the store as it was.
 */
@ContractGroup("key and value rules")
abstract class KeyAndValueRulesContract extends PageTokenContract {

    private final MetaValue v = value("v");
    private Map<String, String> before = Map.of(); // set by seed()

    /** Each test of this group starts here: one key written, and a snapshot of every family the tests touch. */
    private void seed() {
        store.create(key("tbl/seed"), value("seed"));
        before = snapshot();
    }

    private Map<String, String> snapshot() {
        Map<String, String> all = new java.util.TreeMap<>();
        for (String family : List.of("tbl/", "a/", "f/", "x/", "0/")) {
            all.putAll(contents(family));
        }
        return all;
    }

    /** Asserts the typed error, then that nothing was written. */
    private void assertRejected(ThrowingCallable call, String what) {
        assertThatThrownBy(call).as(what).isInstanceOf(InvalidArgumentException.class);
        assertThat(snapshot()).as("store after rejected %s", what).isEqualTo(before);
    }

    /** Writes {@code text} through the store and reads it back by get and by page. */
    private void assertAcceptedRoundTrip(String text) {
        MetaKey k = MetaKey.of(text);
        assertThat(store.create(k, v)).as("create %s", text).isEqualTo(WriteResult.applied());
        assertThat(store.get(k)).as("get %s", text).contains(v);
        KeyPrefix family = KeyPrefix.family(k.family());
        assertThat(readAll(store, family, 3))
                .as("page of %s", family)
                .anyMatch(e -> e.key().equals(k));
        assertThat(store.delete(k, v)).isEqualTo(WriteResult.applied());
    }

    private void assertRejectedKey(String text, String what) {
        assertRejected(() -> store.create(MetaKey.of(text), v), "key " + what);
    }

    @Test
    void familyOf32Characters_isAccepted_33IsRejected() {
        seed();
        assertAcceptedRoundTrip("f".repeat(Limits.MAX_FAMILY_LENGTH) + "/x");
        assertRejectedKey("f".repeat(Limits.MAX_FAMILY_LENGTH + 1) + "/x", "with a 33-character family");
        assertRejected(
                () -> KeyPrefix.of("f".repeat(Limits.MAX_FAMILY_LENGTH + 1) + "/"),
                "prefix with a 33-character family");
    }

    @Test
    void familyCharacters_lowercaseDigitsUnderscoreDash_areAccepted() {
        seed();
        assertAcceptedRoundTrip("a_b-c9/x");
        assertAcceptedRoundTrip("0/x");
        assertAcceptedRoundTrip("9lives_-/x");
    }

    @Test
    void familyWithOtherCharacters_isRejected() {
        seed();
        for (String family :
                List.of("Tbl", "tbl.x", "tbl x", "tbl:x", "t\u00e9l", "tbl#1", "tbl\\x", "TBL", "tbl\u0000")) {
            assertRejectedKey(family + "/x", "with family '" + family + "'");
        }
    }

    @Test
    void familyStartingWithUnderscoreOrDash_isRejected() {
        seed();
        assertRejectedKey("_tbl/x", "with family starting with '_'");
        assertRejectedKey("-tbl/x", "with family starting with '-'");
        assertRejected(() -> KeyPrefix.of("_internal/"), "prefix with family starting with '_'");
    }

    @Test
    void emptyFamily_missingSlash_andEmptyRest_areRejected() {
        seed();
        assertRejectedKey("/x", "with an empty family");
        assertRejectedKey("tbl", "without '/'");
        assertRejectedKey("", "that is empty");
        assertRejectedKey("tbl/", "with an empty rest");
        assertRejected(() -> KeyPrefix.of("tbl"), "prefix without '/'");
        assertRejected(() -> KeyPrefix.of(""), "empty prefix");
        assertRejected(() -> KeyPrefix.of("/"), "prefix with an empty family");
    }

    @Test
    void restMayHoldSlashesAndAnyCharacter() {
        seed();
        assertAcceptedRoundTrip("tbl//");
        assertAcceptedRoundTrip("tbl/a/b/c/");
        assertAcceptedRoundTrip("tbl/ UPPER case.and:punct#\u0000\u007f");
    }

    @Test
    void loneSurrogates_areRejected() {
        seed();
        assertRejectedKey("tbl/x\ud83d", "ending in a lone high surrogate");
        assertRejectedKey("tbl/\ud83dx", "with a lone high surrogate in the middle");
        assertRejectedKey("tbl/x\ude00", "with a lone low surrogate");
        assertRejectedKey("tbl/\ude00\ud83d", "with surrogates in the wrong order");
        assertRejected(() -> KeyPrefix.of("tbl/\ud83d"), "prefix ending in a lone high surrogate");
    }

    @Test
    void validSurrogatePairs_areAccepted() {
        seed();
        assertAcceptedRoundTrip("tbl/\ud83d\ude00");
        assertAcceptedRoundTrip("tbl/a\ud83d\ude00b\ud800\udc00");
    }

    @Test
    void keyOfExactly1024Utf8Bytes_isAccepted_1025IsRejected() {
        seed();
        String ascii1024 = "tbl/" + "k".repeat(Limits.MAX_KEY_BYTES - 4);
        assertAcceptedRoundTrip(ascii1024);
        assertRejectedKey(ascii1024 + "k", "of 1025 ASCII bytes");
    }

    @Test
    void keyLimit_countsUtf8Bytes_notCharacters() {
        seed();
        String twoByte1024 = "tbl/" + "\u00e9".repeat(510);
        String threeByte1024 = "tbl/" + "\u20ac".repeat(340);
        String fourByte1024 = "tbl/" + "\ud83d\ude00".repeat(255);
        for (String k : List.of(twoByte1024, threeByte1024, fourByte1024)) {
            assertThat(MetaKey.of(k).utf8Length()).isEqualTo(1024);
            assertAcceptedRoundTrip(k);
        }
        assertRejectedKey(twoByte1024 + "x", "of 1025 bytes ending in ASCII");
        assertRejectedKey("tbl/x" + "\u00e9".repeat(510), "of 1025 bytes with two-byte characters");
        assertRejectedKey("tbl/" + "\u20ac".repeat(341), "of 1027 bytes in only 345 characters");
        assertRejectedKey(fourByte1024.substring(0, fourByte1024.length() - 2) + "\u20ac\u20ac", "of 1026 bytes");
    }

    @Test
    void prefixOfOver1024Bytes_isRejected() {
        seed();
        assertThat(KeyPrefix.of("tbl/" + "p".repeat(Limits.MAX_KEY_BYTES - 4)).utf8())
                .hasSize(1024);
        assertRejected(() -> KeyPrefix.of("tbl/" + "p".repeat(Limits.MAX_KEY_BYTES - 3)), "prefix of 1025 bytes");
    }

    @Test
    void prefixesOfTheLongestKeys_pageThemWithTokens() {
        seed();
        String p1023 = "tbl/" + "p".repeat(Limits.MAX_KEY_BYTES - 5);
        String p1024 = p1023 + "q";
        List<String> keys = List.of(p1023, p1023 + "a", p1024, p1023 + "r");
        for (String k : keys) {
            assertThat(store.create(key(k), v))
                    .as("create a key of %d bytes", key(k).utf8Length())
                    .isEqualTo(WriteResult.applied());
        }

        assertThat(keysOf(readAll(store, prefix(p1023), 1)))
                .as("a 1023-byte prefix, limit 1")
                .containsExactlyInAnyOrderElementsOf(keys);
        assertThat(keysOf(readAll(store, prefix(p1024), 1)))
                .as("a 1024-byte prefix equal to its only key")
                .containsExactly(p1024);
        List<String> family = new java.util.ArrayList<>(keys);
        family.add("tbl/seed");
        assertThat(keysOf(readAll(store, prefix("tbl/"), 1)))
                .as("the family, limit 1: tokens hold ~1020-byte positions")
                .containsExactlyInAnyOrderElementsOf(family);
    }

    @Test
    void valueOf256KiB_isAccepted_andRoundTrips() {
        seed();
        byte[] bytes = new byte[Limits.MAX_VALUE_BYTES];
        Arrays.fill(bytes, (byte) 0xa5);
        bytes[0] = 1;
        bytes[bytes.length - 1] = 2;
        MetaValue max = MetaValue.of(bytes);
        MetaKey k = key("tbl/big");

        assertThat(store.create(k, max)).isEqualTo(WriteResult.applied());
        assertThat(store.get(k)).contains(max);
        assertThat(readAll(store, prefix("tbl/big"), 1))
                .singleElement()
                .satisfies(e -> assertThat(e.value()).isEqualTo(max));
        assertThat(store.update(k, max, max)).isEqualTo(WriteResult.applied());
        assertThat(store.delete(k, max)).isEqualTo(WriteResult.applied());
    }

    @Test
    void valueOf256KiBPlusOne_isRejected_andNothingIsWritten() {
        seed();
        byte[] tooBig = new byte[Limits.MAX_VALUE_BYTES + 1];

        assertRejected(() -> store.create(key("tbl/big"), MetaValue.of(tooBig)), "value of 256 KiB + 1");
        assertRejected(
                () -> store.update(key("tbl/seed"), value("seed"), MetaValue.of(tooBig)), "update to 256 KiB + 1");
        assertThat(store.get(key("tbl/big"))).isEmpty();
    }

    @Test
    void valueTextWithALoneSurrogate_isRejected_andNothingIsWritten() {
        seed();
        // Encoding a lone surrogate to UTF-8 would store '?' instead: another value than the caller's.
        assertRejected(
                () -> store.create(key("tbl/text"), MetaValue.utf8("v\ud83d")),
                "value text ending in a lone high surrogate");
        assertRejected(
                () -> store.update(key("tbl/seed"), value("seed"), MetaValue.utf8("\ude00v")),
                "update to value text with a lone low surrogate");
        assertThat(store.get(key("tbl/text"))).isEmpty();
    }

    @Test
    void emptyValue_isAPresentValue() {
        seed();
        MetaKey k = key("tbl/empty");
        store.create(k, MetaValue.empty());

        assertThat(store.get(k)).contains(MetaValue.empty());
        assertThat(readAll(store, prefix("tbl/empty"), 1))
                .singleElement()
                .satisfies(e -> assertThat(e.value().size()).isZero());
    }

    @SuppressWarnings("NullAway") // hands null to non-null parameters on purpose: they must be refused
    @Test
    void nullArguments_areRejected_andNothingIsWritten() {
        seed();
        MetaKey k = key("tbl/k");
        assertRejected(() -> store.get(null), "get(null)");
        assertRejected(() -> store.apply(null), "apply(null)");
        assertRejected(() -> store.applyGuarded(null), "applyGuarded(null)");
        assertRejected(() -> store.transact(null), "transact(null)");
        assertRejected(() -> store.getAll(null), "getAll(null)");
        assertRejected(() -> store.page((PageRequest) null), "page(null)");
        assertRejected(() -> store.page((KeyPrefix) null, 1), "page(null prefix)");
        assertRejected(() -> store.page(PageRequest.after(prefix("tbl/"), null, 1)), "page with a null token");
        assertRejected(() -> store.create(null, v), "create(null key)");
        assertRejected(() -> store.create(k, null), "create(null value)");
        assertRejected(() -> store.update(k, null, v), "update(null expected)");
        assertRejected(() -> store.update(k, v, null), "update(null value)");
        assertRejected(() -> store.delete(k, null), "delete(null expected)");
        assertRejected(() -> store.applyGuarded(new GuardedMutation(null, v, Mutation.create(k, v))), "null guard key");
        assertRejected(
                () -> store.applyGuarded(new GuardedMutation(key("lease/l"), null, Mutation.create(k, v))),
                "null expected guard");
        assertRejected(() -> store.applyGuarded(new GuardedMutation(key("lease/l"), v, null)), "null target");
        assertRejected(() -> MetaKey.of(null), "null key text");
        assertRejected(() -> MetaValue.of(null), "null value bytes");
        assertRejected(() -> KeyPrefix.of(null), "null prefix text");
    }
}
