package io.lake.meta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ResultsTest {

    private final MetaValue v = MetaValue.utf8("v");

    @Test
    void writeResult_applied() {
        WriteResult applied = WriteResult.applied();

        assertThat(applied.isApplied()).isTrue();
        assertThat(applied.isConflict()).isFalse();
        assertThat(applied.isCurrentKnown()).isFalse();
        assertThat(applied.currentValue()).isEmpty();
        assertThat(applied).hasToString("applied");
    }

    @Test
    void writeResult_conflictWithCurrentValue() {
        WriteResult conflict = WriteResult.conflict(Optional.of(v));

        assertThat(conflict.isConflict()).isTrue();
        assertThat(conflict.isCurrentKnown()).isTrue();
        assertThat(conflict.currentValue()).contains(v);
        assertThat(conflict)
                .isEqualTo(WriteResult.conflict(Optional.of(MetaValue.utf8("v"))))
                .hasSameHashCodeAs(WriteResult.conflict(Optional.of(MetaValue.utf8("v"))))
                .isNotEqualTo(WriteResult.conflict(Optional.of(MetaValue.utf8("w"))));
    }

    @Test
    void writeResult_conflictWithKnownAbsent_differsFromUnknownCurrent() {
        WriteResult absent = WriteResult.conflict(Optional.empty());
        WriteResult unknown = WriteResult.conflictWithUnknownCurrent();

        assertThat(absent.isCurrentKnown()).isTrue();
        assertThat(absent.currentValue()).isEmpty();
        assertThat(unknown.isCurrentKnown()).isFalse();
        assertThat(unknown.currentValue()).isEmpty();
        assertThat(absent).isNotEqualTo(unknown).isNotEqualTo(WriteResult.applied());
        assertThat(absent).hasToString("conflict (key absent)");
        assertThat(unknown).hasToString("conflict (current value unknown)");
    }

    @Test
    void writeResult_conflictWithEmptyValue_differsFromAbsent() {
        assertThat(WriteResult.conflict(Optional.of(MetaValue.empty())))
                .isNotEqualTo(WriteResult.conflict(Optional.empty()));
    }

    @Test
    void guardedResult_outcomes() {
        assertThat(GuardedResult.applied().outcome()).isEqualTo(GuardedResult.Outcome.APPLIED);
        assertThat(GuardedResult.applied().isApplied()).isTrue();
        assertThat(GuardedResult.applied().targetResult()).contains(WriteResult.applied());
        assertThat(GuardedResult.guardRejected().outcome()).isEqualTo(GuardedResult.Outcome.GUARD_REJECTED);
        assertThat(GuardedResult.guardRejected().isApplied()).isFalse();
        assertThat(GuardedResult.guardRejected().targetResult()).isEmpty();
        GuardedResult conflict = GuardedResult.targetConflict(WriteResult.conflict(Optional.of(v)));
        assertThat(conflict.outcome()).isEqualTo(GuardedResult.Outcome.TARGET_CONFLICT);
        assertThat(conflict.targetResult()).contains(WriteResult.conflict(Optional.of(v)));
    }

    /** In the Turkish locale "APPLIED".toLowerCase() is "applıed" (a dotless i): the text must not depend on it. */
    @Test
    void guardedResult_text_isTheSameInEveryLocale() {
        Locale before = Locale.getDefault();
        try {
            Locale.setDefault(Locale.forLanguageTag("tr-TR"));
            assertThat(GuardedResult.applied()).hasToString("applied");
            assertThat(GuardedResult.guardRejected()).hasToString("guard rejected");
        } finally {
            Locale.setDefault(before);
        }
    }

    @Test
    void guardedResult_equality() {
        assertThat(GuardedResult.targetConflict(WriteResult.conflict(Optional.of(v))))
                .isEqualTo(GuardedResult.targetConflict(WriteResult.conflict(Optional.of(MetaValue.utf8("v")))))
                .hasSameHashCodeAs(GuardedResult.targetConflict(WriteResult.conflict(Optional.of(MetaValue.utf8("v")))))
                .isNotEqualTo(GuardedResult.targetConflict(WriteResult.conflict(Optional.empty())))
                .isNotEqualTo(GuardedResult.guardRejected())
                .isNotEqualTo(GuardedResult.applied());
        assertThat(GuardedResult.guardRejected())
                .isEqualTo(GuardedResult.guardRejected())
                .hasToString("guard rejected");
    }

    @Test
    void guardedResult_targetConflictNeedsAConflict() {
        assertThatThrownBy(() -> GuardedResult.targetConflict(WriteResult.applied()))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("conflicting WriteResult");
    }

    @Test
    void guardedMutation_guardEqualToTarget_isInvalidArgument() {
        MetaKey k = MetaKey.of("tbl/a");

        assertThatThrownBy(() -> new GuardedMutation(k, v, Mutation.delete(k, v)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("equals the target key");
        assertThatThrownBy(() -> new GuardedMutation(null, v, Mutation.delete(k, v)))
                .isInstanceOf(InvalidArgumentException.class);
    }

    @Test
    void mutations_checkPreconditionsByExactBytes() {
        MetaKey k = MetaKey.of("tbl/a");

        assertThat(Mutation.create(k, v).preconditionHolds(Optional.empty())).isTrue();
        assertThat(Mutation.create(k, v).preconditionHolds(Optional.of(MetaValue.empty())))
                .isFalse();
        assertThat(Mutation.update(k, v, v).preconditionHolds(Optional.of(MetaValue.utf8("v"))))
                .isTrue();
        assertThat(Mutation.update(k, v, v).preconditionHolds(Optional.empty())).isFalse();
        assertThat(Mutation.delete(k, MetaValue.empty()).preconditionHolds(Optional.empty()))
                .isFalse();
        assertThat(Mutation.delete(k, v).newValue()).isEmpty();
        assertThat(Mutation.update(k, v, MetaValue.empty()).newValue()).contains(MetaValue.empty());
    }

    @Test
    void pageRequest_limitsAndTokens() {
        KeyPrefix p = KeyPrefix.of("tbl/");

        assertThat(PageRequest.first(p, 1).limit()).isEqualTo(1);
        assertThat(PageRequest.first(p, Limits.MAX_PAGE_LIMIT).limit()).isEqualTo(10_000);
        for (int bad : new int[] {0, -1, 10_001, Integer.MIN_VALUE, Integer.MAX_VALUE}) {
            assertThatThrownBy(() -> PageRequest.first(p, bad))
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("1 to 10000");
        }
        assertThatThrownBy(() -> PageRequest.after(p, "", 1)).isInstanceOf(InvalidPageTokenException.class);
        assertThatThrownBy(() -> PageRequest.after(p, null, 1)).isInstanceOf(InvalidArgumentException.class);
        Page last = new Page(java.util.List.of(), Optional.empty(), PageCost.items(0));
        Page more = new Page(java.util.List.of(), Optional.of("t"), PageCost.items(1));
        assertThat(PageRequest.first(p, 5).next(last)).isEmpty();
        assertThat(PageRequest.first(p, 5).next(more)).contains(PageRequest.after(p, "t", 5));
    }

    @Test
    void exceptions_sayWhetherARetryMayHelp() {
        assertThat(new InvalidArgumentException("x").retryable()).isFalse();
        assertThat(new InvalidPageTokenException("x")).isInstanceOf(InvalidArgumentException.class);
        assertThat(new StoreClosedException("store").retryable()).isFalse();
        assertThat(new StoreUnavailableException("x").retryable()).isTrue();
        assertThat(new WriteBarrierException("x").retryable()).isTrue();
        assertThat(new OutcomeUnknownException("x", null).retryable()).isFalse();
        assertThat(new FencedException("x").retryable()).isFalse();
    }
}
