package io.lake.meta.testkit.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.FencedException;
import io.lake.meta.MetaKey;
import io.lake.meta.fenced.FencedMetaStore;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.lease.LeaseAuthority;
import io.lake.meta.lease.LeaseGuard;
import io.lake.meta.maintenance.MaintenanceAction;
import io.lake.meta.maintenance.MaintenanceSweeper;
import io.lake.meta.maintenance.TableLock;
import io.lake.meta.maintenance.TableMaintainer;
import io.lake.meta.ops.OperationJournal;
import io.lake.meta.registry.TableId;
import io.lake.meta.registry.TableRegistration;
import io.lake.meta.registry.TableRegistry;
import io.lake.meta.registry.TableSpec;
import io.lake.meta.testkit.InMemoryMetaStore;
import io.lake.meta.testkit.lease.ManualClock;
import io.lake.meta.testkit.lease.ManualTicker;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 23 item 10: work decided in one term never goes out under the same node's next term. The
 * node's own term changes between the decision and the write (its deadline passes, it leads again
 * in epoch 2), at the exact moment the write asks for its guard.
 */
class TermPinningTest {

    private static final MetaKey LEASE_KEY = MetaKey.of("lease/orders-writer");
    private static final Duration LEASE = Duration.ofSeconds(10);

    private final InMemoryMetaStore store = InMemoryMetaStore.create();
    private final ManualClock wall = new ManualClock(1_767_225_600_000L);
    private final ManualTicker ticker = new ManualTicker();
    private final LeaderElection election = LeaderElection.builder()
            .store(store)
            .leaseKey(LEASE_KEY)
            .candidateId("node-a")
            .leaseDuration(LEASE)
            .clock(wall)
            .ticker(ticker)
            .listenerExecutor(Runnable::run)
            .build();

    @AfterEach
    void close() {
        election.close();
        store.close();
    }

    /** The election, with a hook run when its guard is asked for the {@code n}th time. */
    private static final class HookedAuthority implements LeaseAuthority {
        private final LeaderElection election;
        private final AtomicInteger calls = new AtomicInteger();
        private final AtomicReference<Runnable> hook = new AtomicReference<>();
        private volatile int hookAt;

        HookedAuthority(LeaderElection election) {
            this.election = election;
        }

        void onCall(int n, Runnable action) {
            calls.set(0);
            hookAt = n;
            hook.set(action);
        }

        @Override
        public MetaKey leaseKey() {
            return election.leaseKey();
        }

        @Override
        public Optional<LeaseGuard> currentGuard() {
            if (calls.incrementAndGet() == hookAt) {
                Runnable action = hook.getAndSet(null);
                if (action != null) {
                    action.run();
                }
            }
            return election.currentGuard();
        }

        @Override
        public void guardRejected(LeaseGuard guard) {
            election.guardRejected(guard);
        }
    }

    /** The node's term 1 ends (deadline passed) and it leads again in term 2. */
    private void nextTermOfTheSameNode() {
        ticker.advance(LEASE);
        wall.advance(LEASE);
        election.campaignOnce();
        assertThat(election.currentGuard().orElseThrow().epoch()).isEqualTo(2);
    }

    @Test
    void pinnedView_followsRenewalsOfItsTerm_andRefusesEveryWriteOnceItEnded() {
        election.campaignOnce();
        FencedMetaStore pinned = FencedMetaStore.over(store, election).pinnedToCurrentTerm();
        assertThat(pinned.pinnedEpoch()).hasValue(1);
        ticker.advance(LEASE.dividedBy(3));
        election.campaignOnce(); // renewal: same term, new bytes
        assertThat(pinned.create(MetaKey.of("data/a"), io.lake.meta.MetaValue.utf8("1"))
                        .isApplied())
                .isTrue();

        nextTermOfTheSameNode();

        assertThatThrownBy(() -> pinned.create(MetaKey.of("data/b"), io.lake.meta.MetaValue.utf8("2")))
                .isInstanceOf(FencedException.class)
                .hasMessageContaining("epoch 1");
        assertThat(store.get(MetaKey.of("data/b"))).isEmpty();
        assertThat(FencedMetaStore.over(store, election)
                        .create(MetaKey.of("data/b"), io.lake.meta.MetaValue.utf8("2"))
                        .isApplied())
                .as("the unpinned store writes in the new term")
                .isTrue();
    }

    @Test
    void journalBegin_decidedInTerm1_isNotWrittenUnderTerm2() {
        election.campaignOnce();
        HookedAuthority authority = new HookedAuthority(election);
        OperationJournal journal = OperationJournal.builder()
                .store(FencedMetaStore.over(store, authority))
                .authority(authority)
                .clock(wall)
                .build();
        authority.onCall(2, this::nextTermOfTheSameNode); // call 1: the journal stamps the owner; call 2: the write

        assertThatThrownBy(() -> journal.begin("acme", "op-1", "sha256:0b1c")).isInstanceOf(FencedException.class);

        assertThat(journal.get("acme", "op-1"))
                .as("nothing stamped epoch 1 was written under epoch 2")
                .isEmpty();
    }

    @Test
    void sweeper_writesWhatItDecidedInTerm1_neverUnderTerm2() {
        election.campaignOnce();
        TableId orders = TableId.of("sales", "orders");
        TableRegistry.over(store, wall).register(orders, TableSpec.of("s3://lake/orders", "iceberg"));
        FencedMetaStore fenced = FencedMetaStore.over(store, election);
        TableMaintainer maintainer = new TableMaintainer() {
            @Override
            public MaintenanceAction maintain(TableRegistration table) {
                nextTermOfTheSameNode(); // the maintenance outlived the term it was decided in
                return MaintenanceAction.updateSpec(table.spec().withLocation("s3://lake/orders-compacted"));
            }

            @Override
            public void cleanUp(TableRegistration tombstone) {}
        };
        MaintenanceSweeper sweeper = MaintenanceSweeper.builder()
                .registryStore(store)
                .locks(table -> Optional.of(new TableLock() {
                    @Override
                    public io.lake.meta.MetaStore store() {
                        return fenced; // the leader's fence, as a single-sweeper deployment uses
                    }

                    @Override
                    public void close() {}
                }))
                .maintainer(maintainer)
                .clock(wall)
                .build();

        assertThatThrownBy(sweeper::tick).isInstanceOf(FencedException.class);

        assertThat(TableRegistry.over(store, wall)
                        .get(orders)
                        .orElseThrow()
                        .spec()
                        .location())
                .isEqualTo("s3://lake/orders");
    }
}
