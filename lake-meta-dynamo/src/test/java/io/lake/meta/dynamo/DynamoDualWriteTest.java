package io.lake.meta.dynamo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.Condition;
import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.TransactionResult;
import io.lake.meta.WriteBarrierException;
import io.lake.meta.WriteResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Mode DUAL beyond the contract, for either authority: both copies change together, a second copy
 * holding other bytes is a divergence (never overwritten, never a plain conflict), a held barrier
 * refuses every write, and a transaction takes at most 49 keys. Runs on every target (the copies
 * are read straight from the tables).
 */
class DynamoDualWriteTest extends DynamoTestSupport {

    private static final MetaKey K = MetaKey.of("tbl/ns1/orders");
    private static final MetaKey J = MetaKey.of("tbl/ns1/users");
    private static final MetaKey GUARD = MetaKey.of("lease/leader");
    private static final MetaValue A = MetaValue.utf8("a");
    private static final MetaValue B = MetaValue.utf8("b");
    private static final MetaValue X = MetaValue.utf8("written to one table only");

    private MetaStore store;
    private CopyReader copies;
    private boolean v1Authority;

    private void open(ModeFixture.TestedMode mode) {
        DynamoDbClient client = client();
        ModeFixture.Opened opened = ModeFixture.open(client, TARGET, mode, Optional.of(4), "dual");
        store = track(opened.store());
        copies = new CopyReader(client, opened.legacyTable(), opened.table(), new V2Layout(4));
        v1Authority = mode == ModeFixture.TestedMode.DUAL_V1_AUTHORITY;
    }

    private void assertCopies(MetaKey key, Optional<MetaValue> expected) {
        assertThat(copies.legacyCopy(key)).as("legacy copy of %s", key).isEqualTo(expected);
        assertThat(copies.v2Copy(key)).as("v2 copy of %s", key).isEqualTo(expected);
    }

    /** Makes the non-authority copy of {@code key} hold {@code value}, as a writer of that table alone would. */
    private void putOtherCopy(MetaKey key, MetaValue value) {
        if (v1Authority) {
            copies.putV2Copy(key, value);
        } else {
            copies.putLegacyCopy(key, value);
        }
    }

    private Optional<MetaValue> otherCopy(MetaKey key) {
        return v1Authority ? copies.v2Copy(key) : copies.legacyCopy(key);
    }

    private Optional<MetaValue> authorityCopy(MetaKey key) {
        return v1Authority ? copies.legacyCopy(key) : copies.v2Copy(key);
    }

    @ParameterizedTest
    @EnumSource(
            value = ModeFixture.TestedMode.class,
            names = {"DUAL_V1_AUTHORITY", "DUAL_V2_AUTHORITY"})
    void everyWrite_changesBothCopies(ModeFixture.TestedMode mode) {
        open(mode);
        assertThat(store.create(K, A)).isEqualTo(WriteResult.applied());
        assertCopies(K, Optional.of(A));
        assertThat(store.update(K, A, B)).isEqualTo(WriteResult.applied());
        assertCopies(K, Optional.of(B));
        assertThat(store.transact(
                        List.of(Condition.absent(GUARD)), List.of(Mutation.update(K, B, A), Mutation.create(J, B))))
                .isEqualTo(TransactionResult.applied());
        assertCopies(K, Optional.of(A));
        assertCopies(J, Optional.of(B));
        store.create(GUARD, A);
        assertThat(store.applyGuarded(new GuardedMutation(GUARD, A, Mutation.delete(J, B))))
                .isEqualTo(GuardedResult.applied());
        assertCopies(J, Optional.empty());
        assertThat(store.delete(K, A)).isEqualTo(WriteResult.applied());
        assertCopies(K, Optional.empty());
    }

    @ParameterizedTest
    @EnumSource(
            value = ModeFixture.TestedMode.class,
            names = {"DUAL_V1_AUTHORITY", "DUAL_V2_AUTHORITY"})
    void aWriteWhoseSecondCopyIsMissing_writesIt(ModeFixture.TestedMode mode) {
        open(mode);
        store.create(K, A);
        if (v1Authority) {
            copies.deleteV2Copy(K); // not backfilled yet
        } else {
            copies.putLegacyCopy(K, A);
        }
        assertThat(store.update(K, A, B)).isEqualTo(WriteResult.applied());
        assertCopies(K, Optional.of(B));
    }

    /**
     * Before finalization (the v1 authority, no completion marker) the v2 copy is derived data: a V1
     * writer during the rollout may have changed the legacy copy alone, so a dual write rewrites
     * the v2 copy from the write instead of calling it a divergence.
     */
    @Test
    void beforeFinalization_aV2CopyHoldingOtherBytes_isRepairedByTheNextWrite() {
        open(ModeFixture.TestedMode.DUAL_V1_AUTHORITY);
        store.create(K, A);
        store.create(J, A);
        putOtherCopy(K, X);

        assertThat(store.update(K, A, B)).isEqualTo(WriteResult.applied());
        assertCopies(K, Optional.of(B));
        putOtherCopy(K, X);
        assertThat(store.transact(List.of(), List.of(Mutation.update(J, A, B), Mutation.delete(K, B)))
                        .isApplied())
                .isTrue();
        assertCopies(K, Optional.empty());
        assertCopies(J, Optional.of(B));
        MetaKey fresh = MetaKey.of("tbl/ns1/fresh");
        putOtherCopy(fresh, X);
        assertThat(store.create(fresh, A)).isEqualTo(WriteResult.applied());
        assertCopies(fresh, Optional.of(A));
    }

    /** After finalization both copies are kept exactly equal: a difference is a divergence, never overwritten. */
    @ParameterizedTest
    @EnumSource(
            value = ModeFixture.TestedMode.class,
            names = {"DUAL_V2_AUTHORITY"})
    void aSecondCopyHoldingOtherBytes_isADivergenceNamingTheKey_andNothingMoves(ModeFixture.TestedMode mode) {
        open(mode);
        store.create(K, A);
        store.create(J, A);
        putOtherCopy(K, X);

        for (Runnable write : List.<Runnable>of(
                () -> store.update(K, A, B),
                () -> store.delete(K, A),
                () -> store.transact(List.of(), List.of(Mutation.update(J, A, B), Mutation.update(K, A, B))))) {
            assertThatThrownBy(write::run)
                    .isInstanceOf(CopiesDivergedException.class)
                    .hasMessageContaining("'" + K + "'")
                    .hasMessageContaining("nothing was written")
                    .satisfies(e ->
                            assertThat(((CopiesDivergedException) e).keys()).containsExactly(K))
                    .satisfies(e -> assertThat(((CopiesDivergedException) e).retryable())
                            .isFalse());
            assertThat(authorityCopy(K)).contains(A);
            assertThat(otherCopy(K)).contains(X);
            assertCopies(J, Optional.of(A));
        }
        MetaKey fresh = MetaKey.of("tbl/ns1/fresh");
        putOtherCopy(fresh, X);
        assertThatThrownBy(() -> store.create(fresh, A))
                .isInstanceOf(CopiesDivergedException.class)
                .hasMessageContaining("'" + fresh + "'");
        assertThat(authorityCopy(fresh)).isEmpty();
        assertThat(otherCopy(fresh)).contains(X);
    }

    @ParameterizedTest
    @EnumSource(
            value = ModeFixture.TestedMode.class,
            names = {"DUAL_V1_AUTHORITY", "DUAL_V2_AUTHORITY"})
    void staleBytesOnBothCopies_areAPlainConflict(ModeFixture.TestedMode mode) {
        open(mode);
        store.create(K, A);

        assertThat(store.update(K, B, X)).isEqualTo(WriteResult.conflict(Optional.of(A)));
        assertThat(store.create(K, X)).isEqualTo(WriteResult.conflict(Optional.of(A)));
        assertThat(store.delete(MetaKey.of("tbl/absent"), A)).isEqualTo(WriteResult.conflict(Optional.empty()));
        assertCopies(K, Optional.of(A));
    }

    @ParameterizedTest
    @EnumSource(
            value = ModeFixture.TestedMode.class,
            names = {"DUAL_V1_AUTHORITY", "DUAL_V2_AUTHORITY"})
    void aHeldBarrier_refusesEveryWrite_retryably_andNothingMoves(ModeFixture.TestedMode mode) {
        open(mode);
        store.create(K, A);
        copies.installBarrier("finalizer-1");

        List<Runnable> writes = List.of(
                () -> store.update(K, A, B),
                () -> store.create(J, A),
                () -> store.delete(K, A),
                () -> store.transact(List.of(), List.of(Mutation.update(K, A, B), Mutation.create(J, B))),
                () -> store.applyGuarded(new GuardedMutation(K, A, Mutation.create(J, B))));
        for (Runnable write : writes) {
            assertThatThrownBy(write::run)
                    .isInstanceOf(WriteBarrierException.class)
                    .hasMessageContaining("write barrier")
                    .hasMessageContaining("nothing was written")
                    .satisfies(e ->
                            assertThat(((WriteBarrierException) e).retryable()).isTrue());
        }
        assertCopies(K, Optional.of(A));
        assertCopies(J, Optional.empty());

        copies.removeBarrier();
        assertThat(store.update(K, A, B)).isEqualTo(WriteResult.applied());
        assertCopies(K, Optional.of(B));
    }

    @ParameterizedTest
    @EnumSource(
            value = ModeFixture.TestedMode.class,
            names = {"DUAL_V1_AUTHORITY", "DUAL_V2_AUTHORITY"})
    void aTransaction_takesAtMost49Keys(ModeFixture.TestedMode mode) {
        open(mode);
        assertThat(store.maxTransactionKeys()).isEqualTo(49);
        List<Mutation> creates = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            creates.add(Mutation.create(MetaKey.of("tbl/many/k" + i), A));
        }

        assertThatThrownBy(() -> store.transact(List.of(), creates))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("at most 49 keys");
        assertCopies(creates.get(0).key(), Optional.empty());
        assertThat(store.transact(List.of(), creates.subList(0, 49)))
                .as("49 keys: 99 items")
                .isEqualTo(TransactionResult.applied());
        assertCopies(creates.get(48).key(), Optional.of(A));
    }
}
