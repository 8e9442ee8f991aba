package io.lake.meta.testkit.lease;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.WriteResult;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.lease.LeaseRecord;
import io.lake.meta.spi.RaceHooks;
import io.lake.meta.testkit.BackendSuite;
import io.lake.meta.testkit.Capability;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The plumbing the lease suite shares: a fresh store of the backend per test, a shared manual wall
 * clock (the store's {@link io.lake.meta.testkit.StoreContext#clock()} too), one manual ticker per
 * candidate, and elections that are closed after each test. Backends do not extend this class:
 * they extend {@link LeaseFencingSuite}.
 *
 * @since 0.1.0
 */
public abstract class LeaseSupport extends BackendSuite {

    protected static final MetaKey LEASE_KEY = MetaKey.of("lease/orders-writer");
    protected static final Duration LEASE = Duration.ofSeconds(10);
    protected static final Duration RENEW = Duration.ofSeconds(3);
    /** 2026-01-01T00:00:00Z: any fixed instant would do. */
    protected static final long START_MILLIS = 1_767_225_600_000L;

    /** The raw store under test; fresh and empty for each test. */
    protected MetaStore store;

    /** The wall clock every candidate reads (the suite's nodes agree on wall time unless a test says otherwise). */
    protected ManualClock wall;

    private final List<LeaderElection> elections = new ArrayList<>();

    /** For the lease and recipe suites. */
    protected LeaseSupport() {}

    @BeforeEach
    final void openLeaseStore() throws Exception {
        wall = new ManualClock(START_MILLIS);
        store = openStore(RaceHooks.NONE, wall);
    }

    @AfterEach
    final void closeLeaseStore() {
        try {
            for (LeaderElection e : elections) {
                e.close();
            }
        } finally {
            if (store != null) {
                store.close();
            }
        }
    }

    /** A candidate on the raw store with the suite's lease settings. */
    protected LeaderElection candidate(String id, ManualTicker ticker) {
        return candidate(id, ticker, store, b -> b);
    }

    /**
     * A candidate campaigning through {@code via} (usually the raw store, or a wrapper around it);
     * {@code extra} may add builder options (a listener, a margin, a scheduler...).
     */
    protected LeaderElection candidate(
            String id, ManualTicker ticker, MetaStore via, UnaryOperator<LeaderElection.Builder> extra) {
        LeaderElection.Builder b = LeaderElection.builder()
                .store(via)
                .leaseKey(LEASE_KEY)
                .candidateId(id)
                .leaseDuration(LEASE)
                .renewInterval(RENEW)
                .clock(wall)
                .ticker(ticker)
                .listenerExecutor(
                        Runnable::run); // events delivered before the round returns: the suite asserts them at once
        LeaderElection e = extra.apply(b).build();
        elections.add(e);
        return e;
    }

    /** The lease record's bytes; fails the test when there is none. */
    protected MetaValue leaseBytes() {
        return store.get(LEASE_KEY).orElseThrow(() -> new AssertionError("no lease record under " + LEASE_KEY));
    }

    /** The lease record, decoded. */
    protected LeaseRecord leaseRecord() {
        return LeaseRecord.decode(LEASE_KEY, leaseBytes());
    }

    /** Writes raw lease bytes, as an older library version or an operator would have. */
    protected void seedLease(String json) {
        assertThat(store.create(LEASE_KEY, MetaValue.utf8(json)).isApplied()).isTrue();
    }

    /**
     * The answers the backend may give to a write conflicting on a key that holds {@code current}:
     * the conflict carrying it, and, when the backend is declared without
     * {@link Capability#CONFLICT_REPORTS_CURRENT_VALUE}, the conflict with the current value unknown.
     */
    final List<WriteResult> conflictsAsDeclared(Optional<MetaValue> current) {
        WriteResult known = WriteResult.conflict(current);
        return capabilities().has(Capability.CONFLICT_REPORTS_CURRENT_VALUE)
                ? List.of(known)
                : List.of(known, WriteResult.conflictWithUnknownCurrent());
    }

    /** The key {@code text} spells. */
    protected static MetaKey key(String text) {
        return MetaKey.of(text);
    }

    /** The UTF-8 bytes of {@code text}. */
    protected static MetaValue value(String text) {
        return MetaValue.utf8(text);
    }
}
