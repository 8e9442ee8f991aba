package io.lake.meta.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.StoreClosedException;
import io.lake.meta.Transaction;
import io.lake.meta.spi.KeyFamilies;
import io.lake.meta.spi.TooManyFamiliesException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Part of {@link MetaStoreSuite}: the optional {@link KeyFamilies} capability. A store that has
 * it (found through {@link KeyFamilies#of}) lists exactly the families holding keys, in page
 * order, internal keys never among them. A backend without it is declared without
 * {@link Capability#KEY_FAMILIES}: these tests are then reported as skipped with the reason, never
 * passed; a store that lacks it undeclared, or has it although declared without, fails.
 */
@ContractGroup("key families")
abstract class KeyFamiliesContract extends ConcurrentWriteContract {

    private KeyFamilies families() {
        Optional<KeyFamilies> capability = KeyFamilies.of(store);
        Optional<String> declaredWithout = capabilities().reasonWithout(Capability.KEY_FAMILIES);
        if (declaredWithout.isPresent()) {
            assertThat(capability)
                    .as(
                            "%s was declared without Capability.KEY_FAMILIES (%s), but it implements"
                                    + " KeyFamilies: remove the declaration from the backend's capabilities()",
                            store, declaredWithout.get())
                    .isEmpty();
            Assumptions.abort("declared without Capability.KEY_FAMILIES: " + declaredWithout.get()
                    + "; the store cannot list its families, so a copy of every key refuses it");
        }
        assertThat(capability)
                .as(
                        "%s does not implement KeyFamilies, which the suite expects by default: if the"
                                + " backend cannot list its families, return Capabilities.all().without(Capability.KEY_FAMILIES,"
                                + " \"<why>\") from its BackendFactory's capabilities()",
                        store)
                .isPresent();
        return capability.get();
    }

    @Test
    void anEmptyStore_holdsNoFamily() {
        assertThat(families().families()).isEmpty();
    }

    @Test
    void familiesThatArePrefixesOfOneAnother_areEachListedOnce_inPageOrder() {
        KeyFamilies families = families();
        List<String> keys = List.of(
                "a/1",
                "a/2/deep",
                "ab/1",
                "a-b/x",
                "a_b/x",
                "ab0/x",
                "0/zero",
                "z9/last",
                "a/ünïcødé/名前",
                "ab/ünïcødé",
                "tbl/" + "x".repeat(200));
        keys.forEach(text ->
                assertThat(store.create(key(text), value(text)).isApplied()).isTrue());

        assertThat(families.families()).containsExactlyElementsOf(familiesOf(keys));
        assertThat(families.families()).startsWith("0", "a-b", "a", "a_b", "ab", "ab0");
    }

    @Test
    void aFamilyWithManyKeys_isListedOnce_andTheFamiliesAroundItToo() {
        KeyFamilies families = families();
        List<String> keys = new ArrayList<>(List.of("aa/first", "zz/last"));
        for (int i = 0; i < 250; i++) {
            keys.add("big/" + i);
        }
        writeAll(keys);

        assertThat(families.families()).containsExactly("aa", "big", "zz");
    }

    @Test
    void aFamilyWhoseLastKeyIsDeleted_isNoLongerListed() {
        KeyFamilies families = families();
        writeAll(List.of("keep/1", "gone/1", "gone/2"));
        assertThat(families.families()).containsExactly("gone", "keep");

        store.delete(key("gone/1"), value("gone/1"));
        assertThat(families.families()).containsExactly("gone", "keep");
        store.delete(key("gone/2"), value("gone/2"));
        assertThat(families.families()).containsExactly("keep");
    }

    @Test
    void moreFamiliesThanTheCap_areRefused_notListedInPart() {
        KeyFamilies families = families();
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < KeyFamilies.MAX_FAMILIES; i++) {
            keys.add("f" + i + "/k");
        }
        writeAll(keys);
        assertThat(families.families()).hasSize(KeyFamilies.MAX_FAMILIES);

        store.create(key("one-more/k"), value("one-more/k"));
        assertThatThrownBy(families::families)
                .isInstanceOf(TooManyFamiliesException.class)
                .hasMessageContaining(String.valueOf(KeyFamilies.MAX_FAMILIES));
    }

    @Test
    void listedWhileWritersCreateAndDeleteFamilies_eachOnce_inPageOrder_theStableOnesAlways() throws Exception {
        KeyFamilies families = families();
        List<String> stable = List.of("a", "n", "z");
        writeAll(stable.stream().map(family -> family + "/stable").toList());
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch firstRoundDone = new CountDownLatch(1);
        // families that come and go between the stable ones, as a writer's keys do during a listing
        CompletableFuture<Integer> writer = CompletableFuture.supplyAsync(() -> {
            int rounds = 0;
            while (!stop.get()) {
                MetaKey transientKey = key((rounds % 2 == 0 ? "b" : "p") + (rounds % 5) + "/k");
                store.create(transientKey, value("x"));
                store.delete(transientKey, value("x"));
                rounds++;
                firstRoundDone.countDown();
            }
            return rounds;
        });
        try {
            // the listings overlap the writer: it has started (a fast store could otherwise be listed 100
            // times before the writer's thread first runs)
            assertThat(firstRoundDone.await(Racer.SAFETY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS))
                    .as("the writer's first round")
                    .isTrue();
            for (int listing = 0; listing < 100; listing++) {
                List<String> listed = families.families();
                assertThat(listed)
                        .as("listing %d", listing)
                        .doesNotHaveDuplicates()
                        .isSortedAccordingTo(Comparator.comparing(
                                (String f) -> KeyPrefix.family(f).utf8(), Arrays::compareUnsigned))
                        .containsAll(stable)
                        .allMatch(family -> stable.contains(family) || family.matches("[bp][0-4]"));
            }
        } finally {
            stop.set(true);
        }
        assertThat(writer.get(Racer.SAFETY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS))
                .isPositive();
        assertThat(families.families()).containsExactlyElementsOf(stable);
    }

    @Test
    void afterClose_familiesAreRefused() {
        KeyFamilies families = families();
        store.close();
        assertThatThrownBy(families::families).isInstanceOf(StoreClosedException.class);
    }

    /** Writes {@code keys} (each valued with its own text) in transactions the store accepts. */
    private void writeAll(List<String> keys) {
        int batch = Math.min(store.maxTransactionKeys(), 100);
        for (int from = 0; from < keys.size(); from += batch) {
            Transaction.Builder transaction = Transaction.builder();
            keys.subList(from, Math.min(keys.size(), from + batch))
                    .forEach(text -> transaction.create(key(text), value(text)));
            assertThat(store.transact(transaction.build()).isApplied()).isTrue();
        }
    }

    /** The model: each key's family, distinct, in the unsigned-byte order of {@code family + "/"}. */
    private static List<String> familiesOf(List<String> keys) {
        TreeSet<String> families = new TreeSet<>(
                Comparator.comparing((String family) -> KeyPrefix.family(family).utf8(), Arrays::compareUnsigned));
        keys.forEach(text -> families.add(MetaKey.of(text).family()));
        return List.copyOf(families);
    }
}
