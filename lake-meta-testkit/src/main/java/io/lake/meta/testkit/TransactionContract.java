package io.lake.meta.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.Condition;
import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.Limits;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionFailure;
import io.lake.meta.TransactionResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Part of {@link MetaStoreSuite}: multi-key transactions, all or nothing, every failure reported. */
@ContractGroup("transactions")
abstract class TransactionContract extends GuardedMutationContract {

    private final MetaKey schema = key("tbl/ns1/_schema");
    private final MetaKey orders = key("tbl/ns1/orders");
    private final MetaKey invoices = key("tbl/ns1/invoices");
    private final MetaKey lease = key("lease/catalog");

    @Test
    void everyConditionHolds_everyMutationApplies() {
        store.create(schema, value("s1"));
        store.create(orders, value("o1"));
        store.create(invoices, value("i1"));

        TransactionResult result = store.transact(Transaction.builder()
                .requireHolds(schema, value("s1"))
                .requireAbsent(key("tbl/ns1/_frozen"))
                .update(orders, value("o1"), value("o2"))
                .delete(invoices, value("i1"))
                .create(key("tbl/ns1/refunds"), value("r1"))
                .build());

        assertThat(result).isEqualTo(TransactionResult.applied());
        assertThat(result.failures()).isEmpty();
        assertThat(contents("tbl/"))
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of("tbl/ns1/_schema", "s1", "tbl/ns1/orders", "o2", "tbl/ns1/refunds", "r1"));
    }

    @Test
    void oneConditionFails_nothingMoves_andTheFailureNamesItsKeyAndWhatWasThere() {
        store.create(schema, value("s2"));
        store.create(orders, value("o1"));
        Map<String, String> before = contents("tbl/");

        TransactionResult result = store.transact(Transaction.builder()
                .requireHolds(schema, value("s1"))
                .update(orders, value("o1"), value("o2"))
                .create(invoices, value("i1"))
                .build());

        assertThat(result.isApplied()).isFalse();
        assertThat(result.failures()).containsExactly(TransactionFailure.found(schema, Optional.of(value("s2"))));
        assertThat(result.failureOf(orders)).isEmpty();
        assertThat(contents("tbl/")).as("nothing moved").isEqualTo(before);
    }

    @Test
    void oneMutationFails_nothingMoves_theOtherWritesIncluded() {
        store.create(orders, value("o1"));
        store.create(invoices, value("i9"));
        Map<String, String> before = contents("tbl/");

        TransactionResult result = store.transact(Transaction.builder()
                .update(orders, value("o1"), value("o2"))
                .delete(invoices, value("i1"))
                .create(key("tbl/ns1/refunds"), value("r1"))
                .build());

        assertThat(result.failures()).containsExactly(TransactionFailure.found(invoices, Optional.of(value("i9"))));
        assertThat(contents("tbl/")).as("nothing moved").isEqualTo(before);
    }

    @Test
    void severalFail_everyFailureIsReported_inTheTransactionsOrder() {
        MetaKey frozen = key("tbl/ns1/_frozen");
        MetaKey refunds = key("tbl/ns1/refunds");
        MetaKey taxes = key("tbl/ns1/taxes");
        store.create(frozen, value("yes"));
        store.create(orders, value("o9"));
        store.create(refunds, value("r1"));
        Map<String, String> before = contents("tbl/");

        TransactionResult result = store.transact(Transaction.builder()
                .requireHolds(schema, value("s1")) // absent: fails
                .requireAbsent(frozen) // present: fails
                .update(orders, value("o1"), value("o2")) // other bytes: fails
                .create(refunds, value("r2")) // present: fails
                .delete(taxes, value("t1")) // absent: fails
                .create(invoices, value("i1")) // would apply
                .build());

        assertThat(result.failures())
                .containsExactly(
                        TransactionFailure.found(schema, Optional.empty()),
                        TransactionFailure.found(frozen, Optional.of(value("yes"))),
                        TransactionFailure.found(orders, Optional.of(value("o9"))),
                        TransactionFailure.found(refunds, Optional.of(value("r1"))),
                        TransactionFailure.found(taxes, Optional.empty()));
        assertThat(contents("tbl/")).as("nothing moved").isEqualTo(before);
    }

    @Test
    void conditionsAreComparedOnExactBytes_andTheEmptyValueIsPresent() {
        MetaKey empty = key("tbl/ns1/_empty");
        store.create(empty, MetaValue.empty());
        store.create(schema, value("s1"));

        assertThat(store.transact(Transaction.builder()
                                .requireHolds(schema, value("s1 "))
                                .create(orders, value("o1"))
                                .build())
                        .failureOf(schema))
                .isPresent();
        assertThat(store.transact(Transaction.builder()
                                .requireAbsent(empty)
                                .create(orders, value("o1"))
                                .build())
                        .failureOf(empty))
                .contains(TransactionFailure.found(empty, Optional.of(MetaValue.empty())));
        assertThat(store.transact(Transaction.builder()
                                .requireHolds(empty, MetaValue.empty())
                                .requireHolds(schema, value("s1"))
                                .create(orders, value("o1"))
                                .build())
                        .isApplied())
                .isTrue();
        assertThat(store.get(orders)).contains(value("o1"));
    }

    @Test
    void aKeyNamedTwice_isInvalidArgument_beforeAnyIo() {
        store.create(orders, value("o1"));
        Map<String, String> before = contents("tbl/");

        assertThatThrownBy(() -> store.transact(
                        List.of(Condition.holds(orders, value("o1"))),
                        List.of(Mutation.update(orders, value("o1"), value("o2")))))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("tbl/ns1/orders");
        assertThatThrownBy(() -> store.transact(
                        List.of(),
                        List.of(Mutation.create(invoices, value("a")), Mutation.create(invoices, value("b")))))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> store.transact(
                        List.of(Condition.absent(schema), Condition.holds(schema, value("s"))),
                        List.of(Mutation.create(invoices, value("a")))))
                .isInstanceOf(InvalidArgumentException.class);

        assertThat(contents("tbl/")).isEqualTo(before);
    }

    @SuppressWarnings("NullAway") // hands null to non-null parameters on purpose: they must be refused
    @Test
    void aTransactionWithoutMutations_orWithNulls_isInvalidArgument() {
        assertThatThrownBy(() -> store.transact(List.of(Condition.absent(schema)), List.of()))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> store.transact((Transaction) null)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> store.transact(null, List.of(Mutation.create(orders, value("o")))))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() ->
                        store.transact(Arrays.asList((Condition) null), List.of(Mutation.create(orders, value("o")))))
                .isInstanceOf(InvalidArgumentException.class);
        assertThat(store.get(orders)).isEmpty();
    }

    @Test
    void theStoresKeyLimit_applies_andOneKeyMoreIsInvalidArgument() {
        int limit = store.maxTransactionKeys();
        assertThat(limit).as("maxTransactionKeys()").isBetween(1, Limits.MAX_TRANSACTION_KEYS);

        assertThat(store.transact(creates("tbl/big/k", limit)).isApplied()).isTrue();
        assertThat(contents("tbl/big/")).hasSize(limit);

        assertThatThrownBy(() -> store.transact(creates("tbl/more/k", limit + 1)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining(String.valueOf(limit));
        assertThat(contents("tbl/more/"))
                .as("nothing of the refused transaction")
                .isEmpty();
    }

    @Test
    void theStoresByteLimit_applies_andOneByteMoreIsInvalidArgument() {
        int limit = store.maxTransactionBytes();
        assertThat(limit).as("maxTransactionBytes()").isBetween(1, Limits.MAX_TRANSACTION_BYTES);
        List<Mutation> atLimit = bigCreates("tbl/bytes/k", limit);
        assertThat(Transaction.of(List.of(), atLimit).sizeBytes()).isEqualTo(limit);

        assertThat(store.transact(List.of(), atLimit).isApplied()).isTrue();
        assertThat(contents("tbl/bytes/")).hasSize(atLimit.size());

        assertThatThrownBy(() -> store.transact(List.of(), bigCreates("tbl/over/k", limit + 1)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining(String.valueOf(limit));
        assertThat(contents("tbl/over/")).isEmpty();
    }

    @Test
    void aRename_movesTheValueAtomically() {
        MetaKey renamed = key("tbl/ns1/orders_v2");
        store.create(orders, value("o1"));

        TransactionResult rename = store.transact(Transaction.builder()
                .delete(orders, value("o1"))
                .create(renamed, value("o1"))
                .build());

        assertThat(rename.isApplied()).isTrue();
        assertThat(store.get(orders)).isEmpty();
        assertThat(store.get(renamed)).contains(value("o1"));

        TransactionResult again = store.transact(Transaction.builder()
                .delete(orders, value("o1"))
                .create(renamed, value("o1"))
                .build());
        assertThat(again.failures())
                .containsExactly(
                        TransactionFailure.found(orders, Optional.empty()),
                        TransactionFailure.found(renamed, Optional.of(value("o1"))));
    }

    @Test
    void guardedMutations_answerExactlyAsTheirOneConditionTransaction() {
        MetaValue held = value("holder=a;epoch=3");
        MetaValue stale = value("holder=a;epoch=2");
        List<String> mismatches = new ArrayList<>();
        for (boolean guardPresent : List.of(true, false)) {
            for (MetaValue expectedGuard : List.of(held, stale)) {
                for (Optional<MetaValue> targetBefore :
                        List.of(Optional.<MetaValue>empty(), Optional.of(value("t1")))) {
                    for (Mutation target : List.of(
                            Mutation.create(orders, value("t2")),
                            Mutation.update(orders, value("t1"), value("t2")),
                            Mutation.delete(orders, value("t1")))) {
                        GuardedMutation guarded = new GuardedMutation(lease, expectedGuard, target);
                        reset(guardPresent ? Optional.of(held) : Optional.empty(), targetBefore);
                        GuardedResult viaGuarded = store.applyGuarded(guarded);
                        Map<String, String> stateViaGuarded = state();
                        reset(guardPresent ? Optional.of(held) : Optional.empty(), targetBefore);
                        GuardedResult viaTransaction = guarded.resultOf(store.transact(guarded.asTransaction()));
                        Map<String, String> stateViaTransaction = state();
                        if (!viaGuarded.equals(viaTransaction) || !stateViaGuarded.equals(stateViaTransaction)) {
                            mismatches.add(guarded + " on guard " + guardPresent + ", target " + targetBefore
                                    + ": guarded " + viaGuarded + " " + stateViaGuarded
                                    + " vs transaction " + viaTransaction + " " + stateViaTransaction);
                        }
                    }
                }
            }
        }
        assertThat(mismatches).isEmpty();
    }

    private void reset(Optional<MetaValue> guard, Optional<MetaValue> target) {
        store.get(lease).ifPresent(v -> store.delete(lease, v));
        store.get(orders).ifPresent(v -> store.delete(orders, v));
        guard.ifPresent(v -> store.create(lease, v));
        target.ifPresent(v -> store.create(orders, v));
    }

    private Map<String, String> state() {
        Map<String, String> state = new java.util.TreeMap<>(contents("tbl/"));
        state.putAll(contents("lease/"));
        return state;
    }

    private Transaction creates(String keyPrefix, int count) {
        List<Mutation> mutations = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            mutations.add(Mutation.create(key(keyPrefix + String.format("%03d", i)), value("v" + i)));
        }
        return Transaction.of(List.of(), mutations);
    }

    /** Creates whose keys and values add up to exactly {@code bytes}, each value at most the value limit. */
    private List<Mutation> bigCreates(String keyPrefix, int bytes) {
        List<Mutation> mutations = new ArrayList<>();
        int left = bytes;
        for (int i = 0; left > 0; i++) {
            MetaKey k = key(keyPrefix + i);
            int valueBytes = Math.min(Limits.MAX_VALUE_BYTES, left - k.utf8Length());
            byte[] filler = new byte[valueBytes];
            Arrays.fill(filler, (byte) ('a' + i % 26));
            mutations.add(Mutation.create(k, MetaValue.of(filler)));
            left -= k.utf8Length() + valueBytes;
        }
        return mutations;
    }
}
