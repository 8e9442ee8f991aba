package io.lake.meta.testkit.lease;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.GuardedMutation;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.WriteResult;
import io.lake.meta.fenced.FencedMetaStore;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.testkit.ContractGroup;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** Part of {@link LeaseFencingSuite}: every kind of mutation is fenced. */
@ContractGroup("mutation coverage")
abstract class FencedMutationCoverageContract extends PausedLeaderContract {

    private static final MetaKey TARGET = MetaKey.of("tbl/ns1/orders");

    /** Every write entry point of the fenced store reaches the backend as one guarded mutation, never a plain one. */
    @Test
    void everyFencedWrite_reachesTheBackendAsAGuardedMutation() {
        ManualTicker ticker = new ManualTicker();
        LeaderElection a = candidate("node-a", ticker);
        a.campaignOnce();
        CountingMetaStore counting = new CountingMetaStore(store);
        FencedMetaStore fenced = FencedMetaStore.over(counting, a);
        MetaKey k2 = MetaKey.of("tbl/ns1/k2");
        List<Function<FencedMetaStore, WriteResult>> writes = List.of(
                f -> f.create(TARGET, value("v1")),
                f -> f.update(TARGET, value("v1"), value("v2")),
                f -> f.apply(Mutation.create(k2, value("w1"))),
                f -> f.apply(Mutation.update(k2, value("w1"), value("w2"))),
                f -> f.apply(Mutation.update(k2, value("stale"), value("w3"))), // conflict: still sent guarded
                f -> f.apply(Mutation.delete(k2, value("w2"))),
                f -> f.delete(TARGET, value("v2")));
        List<Mutation> expectedTargets = List.of(
                Mutation.create(TARGET, value("v1")),
                Mutation.update(TARGET, value("v1"), value("v2")),
                Mutation.create(k2, value("w1")),
                Mutation.update(k2, value("w1"), value("w2")),
                Mutation.update(k2, value("stale"), value("w3")),
                Mutation.delete(k2, value("w2")),
                Mutation.delete(TARGET, value("v2")));

        for (int i = 0; i < writes.size(); i++) {
            if (i == 3) { // a renewal in the middle: later writes must carry the new bytes
                ticker.advance(RENEW);
                a.campaignOnce();
            }
            MetaValue leaseNow = leaseBytes();
            var unused = writes.get(i).apply(fenced); // what reached the backend is checked, not the answer
            GuardedMutation sent = counting.guardedWrites().get(i);
            assertThat(sent.guardKey()).isEqualTo(LEASE_KEY);
            assertThat(sent.expectedGuard())
                    .as("write %d carries the current lease bytes", i)
                    .isEqualTo(leaseNow);
            assertThat(sent.target()).isEqualTo(expectedTargets.get(i));
        }
        assertThat(counting.guardedWrites()).hasSize(writes.size());
        assertThat(counting.plainWrites()).as("no write bypassed the guard").isEmpty();
        assertThat(store.get(TARGET)).isEmpty();
        assertThat(store.get(k2)).isEmpty();
    }
}
