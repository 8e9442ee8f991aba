package io.lake.meta.testkit.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.FencedException;
import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionFailure;
import io.lake.meta.TransactionResult;
import io.lake.meta.fenced.FencedMetaStore;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.testkit.Capability;
import io.lake.meta.testkit.ContractGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Part of {@link LeaseFencingSuite}: transactions through a fenced store carry the lease as one
 * more condition, so a deposed leader's transaction moves nothing; a guarded mutation with the
 * caller's own guard is such a transaction, checked against both guards at once.
 */
@ContractGroup("fenced transactions")
abstract class FencedTransactionContract extends FencedMutationCoverageContract {

    private static final MetaKey ORDERS = MetaKey.of("tbl/ns1/orders");
    private static final MetaKey INVOICES = MetaKey.of("tbl/ns1/invoices");
    private static final MetaKey TABLE_LOCK = MetaKey.of("lock/tbl-ns1-orders");

    @Test
    void transaction_whileLeading_appliesAllOrNothing_andReportsOnlyTheCallersFailures() {
        LeaderElection a = candidate("node-a", new ManualTicker());
        a.campaignOnce();
        FencedMetaStore fenced = FencedMetaStore.over(store, a);
        store.create(ORDERS, value("o1"));

        TransactionResult applied = fenced.transact(Transaction.builder()
                .update(ORDERS, value("o1"), value("o2"))
                .create(INVOICES, value("i1"))
                .build());
        TransactionResult failed = fenced.transact(Transaction.builder()
                .requireAbsent(INVOICES)
                .update(ORDERS, value("o2"), value("o3"))
                .build());

        assertThat(applied).isEqualTo(TransactionResult.applied());
        assertThat(failed.failures())
                .isIn(asDeclared(
                        TransactionFailure.found(INVOICES, Optional.of(value("i1"))),
                        TransactionFailure.currentUnknown(INVOICES)));
        assertThat(store.get(ORDERS)).contains(value("o2"));
        assertThat(a.currentGuard())
                .as("a failed condition is not a loss of leadership")
                .isPresent();
    }

    @Test
    void deposedLeadersTransaction_isFenced_andMovesNothing() {
        LeaderElection a = candidate("node-a", new ManualTicker());
        LeaderElection b = candidate("node-b", new ManualTicker());
        a.campaignOnce();
        FencedMetaStore fencedA = FencedMetaStore.over(store, a);
        store.create(ORDERS, value("o1"));
        wall.advance(LEASE);
        b.campaignOnce();

        assertThatThrownBy(() -> fencedA.transact(Transaction.builder()
                        .update(ORDERS, value("o1"), value("o2"))
                        .create(INVOICES, value("i1"))
                        .build()))
                .isInstanceOf(FencedException.class)
                .hasMessageContaining("epoch 1");

        assertThat(store.get(ORDERS)).contains(value("o1"));
        assertThat(store.get(INVOICES)).isEmpty();
        assertThat(a.currentGuard()).isEmpty();
    }

    @Test
    void guardedMutationWithTheCallersOwnGuard_needsBothGuards() {
        LeaderElection a = candidate("node-a", new ManualTicker());
        LeaderElection b = candidate("node-b", new ManualTicker());
        a.campaignOnce();
        FencedMetaStore fencedA = FencedMetaStore.over(store, a);
        store.create(TABLE_LOCK, value("lock=1"));

        assertThat(fencedA.applyGuarded(
                        new GuardedMutation(TABLE_LOCK, value("lock=1"), Mutation.create(ORDERS, value("o1")))))
                .isEqualTo(GuardedResult.applied());
        assertThat(fencedA.applyGuarded(new GuardedMutation(
                        TABLE_LOCK, value("lock=0"), Mutation.update(ORDERS, value("o1"), value("o2")))))
                .isEqualTo(GuardedResult.guardRejected());
        assertThat(fencedA.applyGuarded(new GuardedMutation(
                        TABLE_LOCK, value("lock=1"), Mutation.update(ORDERS, value("o9"), value("o2")))))
                .isIn(conflictsAsDeclared(Optional.of(value("o1"))).stream()
                        .map(GuardedResult::targetConflict)
                        .toList());
        assertThat(a.currentGuard())
                .as("the caller's guard failing is no loss of leadership")
                .isPresent();

        wall.advance(LEASE);
        b.campaignOnce();
        assertThatThrownBy(() -> fencedA.applyGuarded(new GuardedMutation(
                        TABLE_LOCK, value("lock=1"), Mutation.update(ORDERS, value("o1"), value("o2")))))
                .isInstanceOf(FencedException.class);
        assertThat(store.get(ORDERS)).contains(value("o1"));
    }

    @Test
    void theLeaseKey_cannotBeWrittenOrConditionedThroughTheFencedStore() {
        LeaderElection a = candidate("node-a", new ManualTicker());
        a.campaignOnce();
        CountingMetaStore counting = new CountingMetaStore(store);
        FencedMetaStore fenced = FencedMetaStore.over(counting, a);
        MetaValue lease = leaseBytes();

        assertThatThrownBy(() -> fenced.transact(Transaction.builder()
                        .requireHolds(LEASE_KEY, lease)
                        .create(ORDERS, value("o1"))
                        .build()))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining(LEASE_KEY.toString());
        assertThatThrownBy(() -> fenced.applyGuarded(
                        new GuardedMutation(LEASE_KEY, lease, Mutation.create(ORDERS, value("o1")))))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> fenced.transact(Transaction.builder()
                        .update(LEASE_KEY, lease, value("mine"))
                        .build()))
                .isInstanceOf(InvalidArgumentException.class);
        assertThat(counting.transactions()).isEmpty();
        assertThat(counting.guardedWrites()).isEmpty();
        assertThat(store.get(ORDERS)).isEmpty();
    }

    @Test
    void theFencedStoreHoldsOneKeyFewer_theLeaseIsItsCondition() {
        LeaderElection a = candidate("node-a", new ManualTicker());
        a.campaignOnce();
        FencedMetaStore fenced = FencedMetaStore.over(store, a);
        int limit = fenced.maxTransactionKeys();
        assertThat(limit).isEqualTo(store.maxTransactionKeys() - 1);

        assertThat(fenced.transact(creates("tbl/fenced/k", limit)).isApplied()).isTrue();
        assertThatThrownBy(() -> fenced.transact(creates("tbl/over/k", limit + 1)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining(String.valueOf(limit));
        assertThat(store.get(MetaKey.of("tbl/over/k000"))).isEmpty();
    }

    @SuppressWarnings("NullAway") // hands null to non-null parameters on purpose: they must be refused
    @Test
    void transaction_withoutEverLeading_isFenced_andNothingIsSent() {
        LeaderElection a = candidate("node-a", new ManualTicker());
        CountingMetaStore counting = new CountingMetaStore(store);
        FencedMetaStore fenced = FencedMetaStore.over(counting, a);

        assertThatThrownBy(() -> fenced.transact(
                        Transaction.builder().create(ORDERS, value("o1")).build()))
                .isInstanceOf(FencedException.class)
                .hasMessageContaining("no valid lease");
        assertThat(counting.transactions()).isEmpty();
        assertThatThrownBy(() -> fenced.transact((Transaction) null)).isInstanceOf(InvalidArgumentException.class);
    }

    /**
     * The failures the backend may report: the one with the current value, and, when it is declared
     * without {@link Capability#CONFLICT_REPORTS_CURRENT_VALUE}, the same one without it.
     */
    private List<List<TransactionFailure>> asDeclared(
            TransactionFailure withCurrent, TransactionFailure currentUnknown) {
        return capabilities().has(Capability.CONFLICT_REPORTS_CURRENT_VALUE)
                ? List.of(List.of(withCurrent))
                : List.of(List.of(withCurrent), List.of(currentUnknown));
    }

    private Transaction creates(String keyPrefix, int count) {
        List<Mutation> mutations = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            mutations.add(Mutation.create(MetaKey.of(keyPrefix + String.format("%03d", i)), value("v" + i)));
        }
        return Transaction.of(List.of(), mutations);
    }
}
