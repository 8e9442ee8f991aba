package io.lake.meta.testkit.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.FencedException;
import io.lake.meta.GuardedMutation;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.PageRequest;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.Transaction;
import io.lake.meta.fenced.FencedMetaStore;
import io.lake.meta.lease.LeaseAuthority;
import io.lake.meta.lease.LeaseGuard;
import io.lake.meta.metrics.MeteredMetaStore;
import io.lake.meta.spi.ForwardingMetaStore;
import io.lake.meta.testkit.InMemoryMetaStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Every meter MeteredMetaStore records, read back from a SimpleMeterRegistry. */
class MeteredMetaStoreTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final MetaKey k = MetaKey.of("tbl/ns/orders");
    private final MetaValue v1 = MetaValue.utf8("v1");
    private final MetaValue v2 = MetaValue.utf8("v2");

    private MetaStore metered(MetaStore store) {
        return MeteredMetaStore.builder()
                .store(store)
                .registry(registry)
                .backend("memory")
                .build();
    }

    private long timerCount(String operation, String outcome) {
        var timer = registry.find("lake.meta.operation")
                .tags("backend", "memory", "operation", operation, "outcome", outcome)
                .timer();
        return timer == null ? 0 : timer.count();
    }

    private double counter(String name, String... tags) {
        var counter = registry.find(name).tags(tags).counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void timesEveryOperation_byOperationAndOutcome() {
        try (MetaStore store = metered(InMemoryMetaStore.create())) {
            store.get(k);
            store.create(k, v1);
            store.get(k);
            store.update(k, v1, v2);
            store.getAll(List.of(k));
            store.transact(Transaction.builder().delete(k, v2).build());
            store.page(PageRequest.first(KeyPrefix.of("tbl/"), 10));

            assertThat(timerCount("get", "absent")).isEqualTo(1);
            assertThat(timerCount("get", "found")).isEqualTo(1);
            assertThat(timerCount("create", "applied")).isEqualTo(1);
            assertThat(timerCount("update", "applied")).isEqualTo(1);
            assertThat(timerCount("get_all", "ok")).isEqualTo(1);
            assertThat(timerCount("transact", "applied")).isEqualTo(1);
            assertThat(timerCount("page", "ok")).isEqualTo(1);
        }
    }

    @Test
    void countsConflicts_guardRejections_andTargetConflicts() {
        MetaKey guard = MetaKey.of("lease/g");
        try (MetaStore store = metered(InMemoryMetaStore.create())) {
            store.create(k, v1);
            store.create(k, v2); // conflict
            store.update(k, v2, v1); // conflict
            store.create(guard, v1);
            store.applyGuarded(new GuardedMutation(guard, v2, Mutation.update(k, v1, v2))); // guard rejected
            store.applyGuarded(new GuardedMutation(guard, v1, Mutation.update(k, v2, v1))); // target conflict
            store.transact(Transaction.builder()
                    .requireAbsent(k)
                    .create(MetaKey.of("tbl/ns/x"), v1)
                    .build()); // not applied

            assertThat(timerCount("create", "conflict")).isEqualTo(1);
            assertThat(timerCount("update", "conflict")).isEqualTo(1);
            assertThat(timerCount("apply_guarded", "guard_rejected")).isEqualTo(1);
            assertThat(timerCount("apply_guarded", "target_conflict")).isEqualTo(1);
            assertThat(timerCount("transact", "not_applied")).isEqualTo(1);
            assertThat(counter("lake.meta.conflicts", "operation", "create")).isEqualTo(1);
            assertThat(counter("lake.meta.conflicts", "operation", "update")).isEqualTo(1);
            assertThat(counter("lake.meta.conflicts", "operation", "apply_guarded"))
                    .isEqualTo(1);
            assertThat(counter("lake.meta.conflicts", "operation", "transact")).isEqualTo(1);
            assertThat(counter("lake.meta.guard.rejections", "backend", "memory"))
                    .isEqualTo(1);
        }
    }

    @Test
    void countsFencedRefusals_andErrorsByCauseAndRetryable() {
        LeaseAuthority noLease = new LeaseAuthority() {
            @Override
            public MetaKey leaseKey() {
                return MetaKey.of("lease/none");
            }

            @Override
            public Optional<LeaseGuard> currentGuard() {
                return Optional.empty();
            }

            @Override
            public void guardRejected(LeaseGuard rejected) {}
        };
        MetaStore unavailable = new ForwardingMetaStore(InMemoryMetaStore.create()) {
            @Override
            public Optional<MetaValue> get(MetaKey key) {
                throw new StoreUnavailableException("throttled");
            }
        };
        try (MetaStore fenced = metered(FencedMetaStore.over(InMemoryMetaStore.create(), noLease));
                MetaStore failing = metered(unavailable)) {
            assertThatThrownBy(() -> fenced.create(k, v1)).isInstanceOf(FencedException.class);
            assertThatThrownBy(() -> failing.get(k)).isInstanceOf(StoreUnavailableException.class);
            assertThatThrownBy(() -> failing.page(null)).isInstanceOf(InvalidArgumentException.class);

            assertThat(counter("lake.meta.fenced.refusals", "operation", "create"))
                    .isEqualTo(1);
            assertThat(counter(
                            "lake.meta.errors",
                            "operation",
                            "create",
                            "cause",
                            "FencedException",
                            "retryable",
                            "false"))
                    .isEqualTo(1);
            assertThat(counter(
                            "lake.meta.errors",
                            "operation",
                            "get",
                            "cause",
                            "StoreUnavailableException",
                            "retryable",
                            "true"))
                    .isEqualTo(1);
            assertThat(counter(
                            "lake.meta.errors",
                            "operation",
                            "page",
                            "cause",
                            "InvalidArgumentException",
                            "retryable",
                            "false"))
                    .isEqualTo(1);
            assertThat(timerCount("create", "error")).isEqualTo(1);
            assertThat(timerCount("get", "error")).isEqualTo(1);
        }
    }

    @Test
    void recordsTheItemsEachPageEvaluated() {
        try (MetaStore store = metered(InMemoryMetaStore.create())) {
            for (int i = 0; i < 5; i++) {
                store.create(MetaKey.of("tbl/ns/t" + i), v1);
            }
            store.page(PageRequest.first(KeyPrefix.of("tbl/ns/"), 2));
            store.page(PageRequest.first(KeyPrefix.of("tbl/ns/"), 10));

            var summary = registry.find("lake.meta.page.items.evaluated")
                    .tags("backend", "memory")
                    .summary();
            assertThat(summary).isNotNull();
            assertThat(summary.count()).isEqualTo(2);
            assertThat(summary.totalAmount()).isBetween(7.0, 8.0); // 2 (+1 look-ahead) and 5
        }
    }

    @Test
    void tagsNeverCarryKeysOrValues() {
        try (MetaStore store = metered(InMemoryMetaStore.create())) {
            store.create(k, v1);
            store.create(k, v2);
        }
        assertThat(registry.getMeters())
                .allSatisfy(meter -> assertThat(meter.getId().getTags())
                        .noneMatch(tag -> tag.getValue().contains("orders")
                                || tag.getValue().contains("v1")));
    }

    @Test
    void builder_nullsAreInvalidArguments_missingOrTwiceIsIllegalState() {
        assertThatThrownBy(() -> MeteredMetaStore.builder().store(null))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("store");
        assertThatThrownBy(() -> MeteredMetaStore.builder().registry(null))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> MeteredMetaStore.builder().backend(" ")).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> MeteredMetaStore.builder()
                        .registry(registry)
                        .backend("x")
                        .build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("store");
        assertThatThrownBy(() -> MeteredMetaStore.builder().backend("x").backend("y"))
                .isInstanceOf(IllegalStateException.class);
    }
}
