package io.lake.meta.testkit.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.FencedException;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.WriteResult;
import io.lake.meta.fenced.FencedMetaStore;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.lease.LeadershipStatus.Follower;
import io.lake.meta.testkit.ContractGroup;
import io.lake.meta.testkit.PausePoints;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Part of {@link LeaseFencingSuite}: a leader paused past its lease, whose write is then rejected. */
@ContractGroup("paused leader")
abstract class PausedLeaderContract extends FencedWriteContract {

    private static final MetaKey TARGET = MetaKey.of("tbl/ns1/orders");

    /**
     * A leads and builds a write, then pauses (GC, network) with the request in flight
     * until well past its lease. B takes over and writes. When A's request finally reaches
     * the store it is rejected: neither the target nor the lease moves.
     */
    @Test
    void pausedLeader_resumesAfterTakeover_andItsWriteIsRejected() throws Exception {
        ManualTicker tickerA = new ManualTicker();
        LeadershipEvents eventsA = new LeadershipEvents();
        LeaderElection a = candidate("node-a", tickerA, store, b -> b.listener(eventsA));
        LeaderElection b = candidate("node-b", new ManualTicker());
        PausePoints points = new PausePoints();
        FencedMetaStore fencedA = FencedMetaStore.over(new InFlightHooks(store, points), a);
        FencedMetaStore fencedB = FencedMetaStore.over(store, b);
        assertThat(a.campaignOnce().epoch()).isEqualTo(1);
        assertThat(fencedA.create(TARGET, value("v0")).isApplied()).isTrue();
        ExecutorService nodeA = Executors.newSingleThreadExecutor();
        try {
            PausePoints.Pause pause = points.arm(InFlightHooks.BEFORE_GUARDED_WRITE);
            Future<WriteResult> staleWrite = nodeA.submit(() -> fencedA.update(TARGET, value("v0"), value("from-a")));
            pause.awaitArrival(); // A chose its guard and is now paused with the request in flight

            tickerA.advance(LEASE.plus(RENEW));
            wall.advance(LEASE.plus(RENEW));
            assertThat(b.campaignOnce().epoch()).isEqualTo(2);
            assertThat(fencedB.update(TARGET, value("v0"), value("from-b")).isApplied())
                    .isTrue();
            MetaValue leaseOfB = leaseBytes();

            pause.release();

            assertThatThrownBy(staleWrite::get)
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(FencedException.class);
            assertThat(store.get(TARGET)).contains(value("from-b"));
            assertThat(leaseBytes()).isEqualTo(leaseOfB);
            assertThat(leaseRecord().holder()).contains("node-b");
            assertThat(eventsA.events()).containsExactly("gained 1", "lost 1");
        } finally {
            nodeA.shutdownNow();
        }
    }

    @Test
    void campaignRace_theLoserConflictsAndFollows() throws Exception {
        PausePoints points = new PausePoints();
        LeaderElection a = candidate("node-a", new ManualTicker(), new InFlightHooks(store, points), x -> x);
        LeaderElection b = candidate("node-b", new ManualTicker());
        ExecutorService nodeA = Executors.newSingleThreadExecutor();
        try {
            PausePoints.Pause pause = points.arm(InFlightHooks.BEFORE_WRITE);
            Future<?> campaignA = nodeA.submit(a::campaignOnce);
            pause.awaitArrival(); // A read "absent" and is about to create the record

            assertThat(b.campaignOnce().epoch()).isEqualTo(1);
            pause.release();

            assertThat(campaignA.get()).isEqualTo(new Follower("node-b", 1));
            assertThat(a.currentGuard()).isEmpty();
            assertThat(leaseRecord().holder()).contains("node-b");
        } finally {
            nodeA.shutdownNow();
        }
    }
}
