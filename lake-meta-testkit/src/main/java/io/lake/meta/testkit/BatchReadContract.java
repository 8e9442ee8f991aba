package io.lake.meta.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.Limits;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Part of {@link MetaStoreSuite}: batch point reads with {@code getAll}. */
@ContractGroup("batch reads")
abstract class BatchReadContract extends TransactionContract {

    @Test
    void presentKeysComeBackWithTheirValues_inTheRequestsOrder_absentOnesAreLeftOut() {
        store.create(key("tbl/ns1/b"), value("vb"));
        store.create(key("tbl/ns1/a"), value("va"));
        store.create(key("lease/l"), MetaValue.empty());

        Map<MetaKey, MetaValue> found =
                store.getAll(List.of(key("tbl/ns1/b"), key("tbl/ns1/missing"), key("lease/l"), key("tbl/ns1/a")));

        assertThat(found)
                .containsExactly(
                        Map.entry(key("tbl/ns1/b"), value("vb")),
                        Map.entry(key("lease/l"), MetaValue.empty()),
                        Map.entry(key("tbl/ns1/a"), value("va")));
        assertThatThrownBy(() -> found.put(key("tbl/ns1/c"), value("x")))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void noKeys_readNothing() {
        assertThat(store.getAll(List.of())).isEmpty();
    }

    @Test
    void manyKeys_acrossFamilies_allComeBack() {
        Map<MetaKey, MetaValue> written = new LinkedHashMap<>();
        List<MetaKey> asked = new ArrayList<>();
        for (int i = 0; i < 250; i++) {
            MetaKey k = key((i % 2 == 0 ? "tbl/ns1/t" : "ops/run") + String.format("%03d", i));
            asked.add(k);
            if (i % 3 != 0) {
                store.create(k, value("v" + i));
                written.put(k, value("v" + i));
            }
        }

        assertThat(store.getAll(asked)).containsExactlyEntriesOf(written);
    }

    @Test
    void theKeyLimit_isRead_andOneKeyMoreIsInvalidArgument() {
        List<Mutation> creates = new ArrayList<>();
        List<MetaKey> asked = new ArrayList<>();
        for (int i = 0; i < Limits.MAX_BATCH_KEYS; i++) {
            MetaKey k = key("tbl/many/k" + i);
            asked.add(k);
            if (i % 1000 == 0) {
                creates.add(Mutation.create(k, value("v" + i)));
            }
        }
        creates.forEach(store::apply);

        assertThat(store.getAll(asked)).hasSize(creates.size());
        asked.add(key("tbl/many/one-more"));
        assertThatThrownBy(() -> store.getAll(asked))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining(String.valueOf(Limits.MAX_BATCH_KEYS));
    }

    @SuppressWarnings("NullAway") // hands null to non-null parameters on purpose: they must be refused
    @Test
    void aKeyNamedTwice_orNull_isInvalidArgument() {
        assertThatThrownBy(() -> store.getAll(List.of(key("tbl/ns1/a"), key("tbl/ns1/a"))))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("tbl/ns1/a");
        assertThatThrownBy(() -> store.getAll(null)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> store.getAll(Arrays.asList(key("tbl/ns1/a"), null)))
                .isInstanceOf(InvalidArgumentException.class);
    }

    @Test
    void aBatchRead_seesEveryWriteThatCompletedBeforeIt() {
        MetaKey a = key("tbl/ns1/a");
        MetaKey b = key("tbl/ns1/b");
        store.create(a, value("1"));
        store.create(b, value("1"));
        store.update(a, value("1"), value("2"));
        store.delete(b, value("1"));

        assertThat(store.getAll(List.of(a, b))).containsExactly(Map.entry(a, value("2")));
    }
}
