package io.lake.meta.rocks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.StoreClosedException;
import io.lake.meta.Transaction;
import io.lake.meta.spi.KeyFamilies;
import io.lake.meta.spi.TooManyFamiliesException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link KeyFamilies} on the read-only view ({@code buildReadOnly()}) while the primary holds the
 * directory and writes: the view lists what the primary committed before the call, families whose
 * keys were all deleted (tombstones in the log, then in table files) are gone, each family once in
 * page order, and the cap holds.
 */
class ReadOnlyViewFamiliesTest {

    private static final Comparator<String> PAGE_ORDER =
            Comparator.comparing((String family) -> KeyPrefix.family(family).utf8(), Arrays::compareUnsigned);

    @TempDir
    Path directory;

    private static KeyFamilies familiesOf(MetaStore view) {
        return KeyFamilies.of(view).orElseThrow();
    }

    @Test
    void theViewFollowsThePrimarysWritesAndDeletes_beforeAndAfterTheLogIsFlushed() {
        Path dir = directory.resolve("store");
        try (MetaStore primary = RocksDbMetaStore.builder().directory(dir).build();
                MetaStore view = RocksDbMetaStore.builder().directory(dir).buildReadOnly()) {
            assertThat(familiesOf(view).families()).isEmpty();
            for (String key : List.of("a/1", "ab/1", "a-b/1", "a_b/1", "a/2")) {
                primary.create(MetaKey.of(key), MetaValue.utf8(key));
            }
            assertThat(familiesOf(view).families()).containsExactly("a-b", "a", "a_b", "ab");

            primary.delete(MetaKey.of("a/1"), MetaValue.utf8("a/1"));
            assertThat(familiesOf(view).families()).containsExactly("a-b", "a", "a_b", "ab");
            primary.delete(MetaKey.of("a/2"), MetaValue.utf8("a/2"));
            primary.delete(MetaKey.of("a-b/1"), MetaValue.utf8("a-b/1"));
            assertThat(familiesOf(view).families()).containsExactly("a_b", "ab");
        }
        // the primary closed: its log is now in table files, tombstones included
        try (MetaStore view = RocksDbMetaStore.builder().directory(dir).buildReadOnly()) {
            assertThat(familiesOf(view).families()).containsExactly("a_b", "ab");
            try (MetaStore primary = RocksDbMetaStore.builder().directory(dir).build()) {
                primary.create(MetaKey.of("a/3"), MetaValue.utf8("a/3"));
                primary.delete(MetaKey.of("ab/1"), MetaValue.utf8("ab/1"));
                assertThat(familiesOf(view).families()).containsExactly("a", "a_b");
            }
        }
    }

    @Test
    void listedWhileThePrimaryWrites_eachFamilyOnce_inPageOrder_theStableOnesAlways() throws Exception {
        Path dir = directory.resolve("store");
        try (MetaStore primary = RocksDbMetaStore.builder().directory(dir).build();
                MetaStore view = RocksDbMetaStore.builder().directory(dir).buildReadOnly()) {
            for (String family : List.of("a", "n", "z")) {
                primary.create(MetaKey.of(family + "/stable"), MetaValue.utf8(family));
            }
            AtomicBoolean stop = new AtomicBoolean();
            CompletableFuture<Integer> writer = CompletableFuture.supplyAsync(() -> {
                int rounds = 0;
                while (!stop.get()) {
                    // transient families between the stable ones, each created then deleted
                    MetaKey key = MetaKey.of((rounds % 2 == 0 ? "b" : "p") + (rounds % 5) + "/k");
                    primary.create(key, MetaValue.utf8("x"));
                    primary.delete(key, MetaValue.utf8("x"));
                    rounds++;
                }
                return rounds;
            });
            try {
                for (int listing = 0; listing < 300; listing++) {
                    List<String> families = familiesOf(view).families();
                    assertThat(families)
                            .as("listing %d", listing)
                            .doesNotHaveDuplicates()
                            .isSortedAccordingTo(PAGE_ORDER)
                            .contains("a", "n", "z");
                    assertThat(families)
                            .as("listing %d", listing)
                            .allMatch(family -> List.of("a", "n", "z").contains(family) || family.matches("[bp][0-4]"));
                }
            } finally {
                stop.set(true);
            }
            assertThat(writer.get()).isPositive();
            assertThat(familiesOf(view).families()).containsExactly("a", "n", "z");
        }
    }

    @Test
    void theCap_onTheView() {
        Path dir = directory.resolve("store");
        try (MetaStore primary = RocksDbMetaStore.builder().directory(dir).build();
                MetaStore view = RocksDbMetaStore.builder().directory(dir).buildReadOnly()) {
            List<String> all = new ArrayList<>();
            Transaction.Builder batch = Transaction.builder();
            for (int i = 0; i < KeyFamilies.MAX_FAMILIES; i++) {
                String family = String.format("f%04d", i);
                all.add(family);
                batch.create(MetaKey.of(family + "/k"), MetaValue.utf8("v"));
                if (i % 90 == 89 || i == KeyFamilies.MAX_FAMILIES - 1) {
                    assertThat(primary.transact(batch.build()).isApplied()).isTrue();
                    batch = Transaction.builder();
                }
            }
            assertThat(familiesOf(view).families()).isEqualTo(all);
            primary.create(MetaKey.of("zz/one-more"), MetaValue.utf8("v"));
            assertThatThrownBy(familiesOf(view)::families)
                    .isInstanceOf(TooManyFamiliesException.class)
                    .hasMessageContaining("read-only");
            primary.delete(MetaKey.of("zz/one-more"), MetaValue.utf8("v"));
            assertThat(familiesOf(view).families()).hasSize(KeyFamilies.MAX_FAMILIES);
        }
    }

    @Test
    void aClosedView_refusesToList() {
        Path dir = directory.resolve("store");
        try (MetaStore primary = RocksDbMetaStore.builder().directory(dir).build()) {
            primary.create(MetaKey.of("a/1"), MetaValue.utf8("1"));
            MetaStore view = RocksDbMetaStore.builder().directory(dir).buildReadOnly();
            KeyFamilies families = familiesOf(view);
            view.close();
            assertThatThrownBy(families::families).isInstanceOf(StoreClosedException.class);
        }
    }
}
