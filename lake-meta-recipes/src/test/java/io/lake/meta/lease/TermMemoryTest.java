package io.lake.meta.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import org.junit.jupiter.api.Test;

/** The two rules of {@link TermMemory}, without a store; the lease contract suite checks them end to end. */
class TermMemoryTest {

    private static final MetaKey KEY = MetaKey.of("lease/orders");
    private static final long NOW = Long.MAX_VALUE - 1_000; // near the top: comparisons must not overflow

    private final TermMemory terms = new TermMemory(KEY);

    private static LeaseInstallation installation(String bytes, long epoch, long deadlineNanos) {
        return new LeaseInstallation(MetaValue.utf8(bytes), epoch, deadlineNanos);
    }

    @Test
    void nextTerm_goesPastTheRecordAndEverythingSeen() {
        assertThat(terms.nextTerm(0)).isEqualTo(1);
        terms.saw(5);
        assertThat(terms.nextTerm(1))
                .as("a rewound record does not hand back a seen epoch")
                .isEqualTo(6);
        assertThat(terms.nextTerm(9)).isEqualTo(10);
    }

    @Test
    void nextTerm_pastTheMaximumEpoch_failsClosed() {
        assertThatThrownBy(() -> terms.nextTerm(Long.MAX_VALUE)).isInstanceOf(LeaseEpochExhaustedException.class);
        terms.saw(Long.MAX_VALUE);
        assertThatThrownBy(() -> terms.nextTerm(0)).isInstanceOf(LeaseEpochExhaustedException.class);
    }

    @Test
    void ownInstallation_isRenewableOnlyWhileItsTermIsLiveAndItsDeadlineAhead() {
        LeaseInstallation lostRenewal = installation("r1", 1, NOW + 10);
        terms.installed(installation("i1", 1, NOW + 5));
        terms.sent(lostRenewal);
        assertThat(terms.own(MetaValue.utf8("r1"))).isSameAs(lostRenewal);
        assertThat(terms.renewable(lostRenewal, NOW)).isTrue();
        assertThat(terms.renewable(lostRenewal, NOW + 10)).as("deadline passed").isFalse();

        terms.ended(1);

        assertThat(terms.isLive(1)).isFalse();
        assertThat(terms.renewable(lostRenewal, NOW))
                .as("term 1 ended: never led again")
                .isFalse();
        assertThat(terms.nextTerm(1)).isEqualTo(2);
        assertThat(terms.isLive(2)).isTrue();
    }

    @Test
    void installed_resolvesALostWrite_andForgetClearsBoth() {
        LeaseInstallation first = installation("i1", 1, NOW);
        terms.installed(first);
        terms.sent(installation("r1", 1, NOW + 1));

        terms.installed(first); // the record still held the first bytes: the lost write did not apply

        assertThat(terms.unresolved()).isNull();
        assertThat(terms.own(MetaValue.utf8("r1"))).isNull();
        terms.forget();
        assertThat(terms.own(MetaValue.utf8("i1"))).isNull();
    }
}
