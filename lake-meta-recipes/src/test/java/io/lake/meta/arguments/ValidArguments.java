package io.lake.meta.arguments;

import io.lake.meta.*;
import io.lake.meta.Ticker;
import io.lake.meta.counter.MonotonicCounter;
import io.lake.meta.fenced.FencedMetaStore;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.lease.LeaderTask;
import io.lake.meta.lease.LeadershipListener;
import io.lake.meta.lease.LeaseAuthority;
import io.lake.meta.lease.LeaseCandidate;
import io.lake.meta.lease.LeaseGuard;
import io.lake.meta.lease.LeaseRecord;
import io.lake.meta.lock.FencedLock;
import io.lake.meta.lock.LockListener;
import io.lake.meta.maintenance.FencedTableLocks;
import io.lake.meta.maintenance.MaintenanceAction;
import io.lake.meta.maintenance.MaintenanceLimits;
import io.lake.meta.maintenance.MaintenanceSweeper;
import io.lake.meta.maintenance.TableLockProvider;
import io.lake.meta.maintenance.TableMaintainer;
import io.lake.meta.ops.BeginResult;
import io.lake.meta.ops.OperationJournal;
import io.lake.meta.recipes.TypedPage;
import io.lake.meta.registry.TableId;
import io.lake.meta.registry.TableRegistration;
import io.lake.meta.registry.TableRegistry;
import io.lake.meta.registry.TableSpec;
import io.lake.meta.spi.PageCursor;
import io.lake.meta.spi.PageTokenCodec;
import io.lake.meta.watch.WatchListener;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * One valid argument for every parameter of {@link ApiEntryPoints}, so a walk can replace one of
 * them by a bad value and know that the refusal is about that value. A parameter of a type with
 * no sample fails the walk, which is how a new entry point asks for one.
 */
final class ValidArguments {

    private static final MetaKey KEY = MetaKey.of("tbl/k");
    private static final MetaValue VALUE = MetaValue.utf8("v");
    private static final KeyPrefix PREFIX = KeyPrefix.of("tbl/");
    private static final PageTokenCodec CODEC = new PageTokenCodec("memory", 1);
    private static final Entry ENTRY = new Entry(KEY, VALUE);
    private static final MetaKey LEASE_KEY = MetaKey.of("lease/l");
    private static final TableId TABLE = TableId.of("sales", "orders");
    private static final TableSpec SPEC = TableSpec.of("s3://lake/orders", "iceberg");
    private static final ScheduledExecutorService SCHEDULER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "valid-arguments-scheduler");
        t.setDaemon(true);
        return t;
    });

    /** Samples by the parameter's generic type name, valid wherever that type is taken. */
    private static final Map<String, Supplier<Object>> BY_TYPE = Map.ofEntries(
            Map.entry("java.lang.String", () -> "tbl/k"),
            Map.entry("byte[]", () -> "tbl/k".getBytes(StandardCharsets.UTF_8)),
            Map.entry("int", () -> 1),
            Map.entry("long", () -> 1L),
            Map.entry("double", () -> 0.5),
            Map.entry("io.lake.meta.MetaKey", () -> KEY),
            Map.entry("io.lake.meta.MetaValue", () -> VALUE),
            Map.entry("io.lake.meta.KeyPrefix", () -> PREFIX),
            Map.entry("io.lake.meta.Entry", () -> ENTRY),
            Map.entry("io.lake.meta.Mutation", () -> Mutation.create(KEY, VALUE)),
            Map.entry("io.lake.meta.Mutation$Create", () -> Mutation.create(KEY, VALUE)),
            Map.entry("io.lake.meta.Mutation$Update", () -> Mutation.update(KEY, VALUE, VALUE)),
            Map.entry("io.lake.meta.Mutation$Delete", () -> Mutation.delete(KEY, VALUE)),
            Map.entry(
                    "io.lake.meta.GuardedMutation",
                    () -> new GuardedMutation(MetaKey.of("lease/l"), VALUE, Mutation.create(KEY, VALUE))),
            Map.entry("io.lake.meta.WriteResult", () -> WriteResult.conflict(Optional.of(VALUE))),
            Map.entry("io.lake.meta.GuardedResult", GuardedResult::applied),
            Map.entry("io.lake.meta.PageCost", () -> PageCost.items(1)),
            Map.entry("io.lake.meta.Page", () -> new Page(List.of(ENTRY), Optional.of("t"), PageCost.items(1))),
            Map.entry("io.lake.meta.PageRequest", () -> PageRequest.first(PREFIX, 1)),
            Map.entry("java.util.Optional<io.lake.meta.MetaValue>", () -> Optional.of(VALUE)),
            Map.entry("java.util.Optional<java.lang.String>", () -> Optional.of("t")),
            Map.entry("java.util.List<io.lake.meta.Entry>", () -> List.of(ENTRY)),
            Map.entry("io.lake.meta.spi.PageCursor", () -> PageCursor.startOf(0)),
            Map.entry("io.lake.meta.spi.PageTokenCodec", () -> CODEC),
            Map.entry("io.lake.meta.lease.LeaseRecord", () -> LeaseRecord.held("node-a", 1, 1, "n")),
            Map.entry("io.lake.meta.Condition", () -> Condition.absent(MetaKey.of("tbl/other"))),
            Map.entry("io.lake.meta.Condition$Holds", () -> Condition.holds(MetaKey.of("tbl/other"), VALUE)),
            Map.entry("io.lake.meta.Condition$Absent", () -> Condition.absent(MetaKey.of("tbl/other"))),
            Map.entry(
                    "io.lake.meta.Transaction", () -> Transaction.of(List.of(), List.of(Mutation.create(KEY, VALUE)))),
            Map.entry("io.lake.meta.Transaction$Builder", Transaction::builder),
            Map.entry("io.lake.meta.TransactionFailure", () -> TransactionFailure.currentUnknown(KEY)),
            Map.entry("io.lake.meta.TransactionResult", TransactionResult::applied),
            Map.entry(
                    "java.util.List<io.lake.meta.Condition>", () -> List.of(Condition.absent(MetaKey.of("tbl/other")))),
            Map.entry("java.util.List<io.lake.meta.Mutation>", () -> List.of(Mutation.create(KEY, VALUE))),
            Map.entry(
                    "java.util.List<io.lake.meta.TransactionFailure>",
                    () -> List.of(TransactionFailure.currentUnknown(KEY))),
            Map.entry("java.util.Collection<io.lake.meta.MetaKey>", () -> List.of(KEY)),
            Map.entry("boolean", () -> true),
            // the recipe packages
            Map.entry("java.time.Duration", () -> Duration.ofSeconds(1)),
            Map.entry("java.time.Clock", Clock::systemUTC),
            Map.entry("io.lake.meta.MetaStore", AcceptingMetaStore::new),
            Map.entry("io.lake.meta.Ticker", Ticker::system),
            Map.entry("io.lake.meta.lease.LeaseAuthority", ValidArguments::authority),
            Map.entry("io.lake.meta.lease.LeaseGuard", ValidArguments::guard),
            Map.entry("io.lake.meta.lease.LeadershipListener", () -> new LeadershipListener() {
                @Override
                public void gained(LeaseGuard guard) {}

                @Override
                public void lost(long epoch, String reason) {}
            }),
            Map.entry(
                    "io.lake.meta.lease.LeaderElection",
                    () -> LeaderElection.builder()
                            .store(new AcceptingMetaStore())
                            .leaseKey(LEASE_KEY)
                            .candidateId("node-a")
                            .leaseDuration(Duration.ofSeconds(10))
                            .build()),
            Map.entry(
                    "io.lake.meta.lease.LeaseCandidate",
                    () -> LeaseCandidate.builder()
                            .store(new AcceptingMetaStore())
                            .leaseKey(LEASE_KEY)
                            .candidateId("node-a")
                            .leaseDuration(Duration.ofSeconds(10))
                            .build()),
            Map.entry("io.lake.meta.lease.LeaderTask", () -> (LeaderTask) guard -> {}),
            Map.entry("java.util.concurrent.ScheduledExecutorService", () -> SCHEDULER),
            Map.entry("java.util.concurrent.Executor", () -> (Executor) Runnable::run),
            Map.entry("java.util.Map<java.lang.String, java.lang.String>", Map::of),
            Map.entry("java.util.function.BooleanSupplier", () -> (BooleanSupplier) () -> false),
            Map.entry("io.lake.meta.watch.WatchListener", () -> (WatchListener) event -> {}),
            Map.entry("io.lake.meta.lock.LockListener", () -> (LockListener) (hold, reason) -> {}),
            Map.entry("io.lake.meta.lock.FencedLock$Builder", FencedLock::builder),
            Map.entry("io.lake.meta.counter.MonotonicCounter$Builder", MonotonicCounter::builder),
            Map.entry(
                    "io.lake.meta.fenced.FencedMetaStore",
                    () -> FencedMetaStore.over(new AcceptingMetaStore(), authority())),
            Map.entry("io.lake.meta.registry.TableId", () -> TABLE),
            Map.entry("io.lake.meta.registry.TableSpec", () -> SPEC),
            Map.entry(
                    "io.lake.meta.registry.TableRegistration",
                    () -> TableRegistry.over(new AcceptingMetaStore())
                            .register(TABLE, SPEC)
                            .registration()
                            .orElseThrow()),
            Map.entry("io.lake.meta.registry.TableRegistry", () -> TableRegistry.over(new AcceptingMetaStore())),
            Map.entry("io.lake.meta.recipes.TypedPageRequest", () -> TableRegistry.allNamespaces(10)),
            Map.entry(
                    "io.lake.meta.recipes.TypedPageRequest<io.lake.meta.registry.TableRegistration>",
                    () -> TableRegistry.allNamespaces(10)),
            Map.entry(
                    "io.lake.meta.recipes.TypedPageRequest<io.lake.meta.ops.OperationRecord>",
                    () -> OperationJournal.allTenants(10)),
            Map.entry("io.lake.meta.recipes.TypedPage<T>", () -> new TypedPage<>(List.of(), Optional.of("t"))),
            Map.entry("java.util.List<T>", List::of),
            Map.entry("io.lake.meta.ops.OperationJournal", ValidArguments::journal),
            Map.entry("io.lake.meta.ops.OperationJournal$Builder", OperationJournal::builder),
            Map.entry(
                    "io.lake.meta.ops.OperationRecord",
                    () -> journal().begin("acme", "op-1", "sha256:ab").record()),
            Map.entry("io.lake.meta.ops.BeginResult$Kind", () -> BeginResult.Kind.STARTED),
            Map.entry("io.lake.meta.maintenance.MaintenanceLimits", MaintenanceLimits::defaults),
            Map.entry("io.lake.meta.maintenance.TableMaintainer", () -> new TableMaintainer() {
                @Override
                public MaintenanceAction maintain(TableRegistration table) {
                    return MaintenanceAction.none();
                }

                @Override
                public void cleanUp(TableRegistration tombstone) {}
            }),
            Map.entry(
                    "io.lake.meta.maintenance.TableLockProvider", () -> (TableLockProvider) table -> Optional.empty()),
            Map.entry("io.lake.meta.maintenance.MaintenanceSweeper$Builder", MaintenanceSweeper::builder),
            Map.entry(
                    "io.lake.meta.maintenance.MaintenanceSweeper",
                    () -> MaintenanceSweeper.builder()
                            .registryStore(new AcceptingMetaStore())
                            .locks(table -> Optional.empty())
                            .maintainer(new TableMaintainer() {
                                @Override
                                public MaintenanceAction maintain(TableRegistration table) {
                                    return MaintenanceAction.none();
                                }

                                @Override
                                public void cleanUp(TableRegistration tombstone) {}
                            })
                            .build()),
            Map.entry("io.lake.meta.maintenance.FencedTableLocks$Builder", FencedTableLocks::builder),
            Map.entry(
                    "io.lake.meta.maintenance.FencedTableLocks",
                    () -> FencedTableLocks.builder()
                            .store(new AcceptingMetaStore())
                            .holderId("node-a")
                            .leaseDuration(Duration.ofSeconds(10))
                            .scheduler(SCHEDULER)
                            .build()));

    /** A guard of epoch 1 valid for an hour from now. */
    private static LeaseGuard guard() {
        return guard(1);
    }

    private static LeaseGuard guard(long epoch) {
        return new LeaseGuard(
                LEASE_KEY,
                LeaseRecord.held("node-a", epoch, Long.MAX_VALUE, "n").encode(),
                epoch,
                System.nanoTime() + Duration.ofHours(1).toNanos());
    }

    private static TableRegistration dropped() {
        TableRegistry registry = TableRegistry.over(new AcceptingMetaStore());
        return registry.drop(registry.register(TABLE, SPEC).registration().orElseThrow())
                .registration()
                .orElseThrow();
    }

    /** An authority that leads in epoch 1 (a valid guard) on {@code lease/l}. */
    private static LeaseAuthority authority() {
        return authority(1);
    }

    private static LeaseAuthority authority(long epoch) {
        LeaseGuard guard = guard(epoch);
        return new LeaseAuthority() {
            @Override
            public MetaKey leaseKey() {
                return LEASE_KEY;
            }

            @Override
            public Optional<LeaseGuard> currentGuard() {
                return Optional.of(guard);
            }
        };
    }

    private static OperationJournal journal() {
        return journal(1);
    }

    private static OperationJournal journal(long epoch) {
        LeaseAuthority authority = authority(epoch);
        return OperationJournal.builder()
                .store(FencedMetaStore.over(new AcceptingMetaStore(), authority))
                .authority(authority)
                .build();
    }

    /** Samples for one parameter of one entry point ("Owner.member#index"), where the type's sample is not valid there. */
    private static final Map<String, Supplier<Object>> BY_PARAMETER = Map.ofEntries(
            Map.entry("registry.TableId.of#0", () -> "sales"),
            Map.entry("registry.TableId.of#1", () -> "orders"),
            Map.entry("registry.TableId.requireNamespace#0", () -> "sales"),
            Map.entry("registry.TableId.fromKey#0", () -> MetaKey.of("tbl/sales/orders")),
            Map.entry("registry.TableRegistry.inNamespace#0", () -> "sales"),
            Map.entry("registry.TableRegistry.startPurge#0", ValidArguments::dropped),
            Map.entry("registry.TableRegistry.supersede#0", ValidArguments::dropped),
            Map.entry(
                    "registry.TableRegistry.deleteTombstone#0",
                    () -> TableRegistry.over(new AcceptingMetaStore())
                            .startPurge(dropped())
                            .registration()
                            .orElseThrow()),
            Map.entry("ops.OperationId.of#0", () -> "acme"),
            Map.entry("ops.OperationId.of#1", () -> "op-1"),
            Map.entry("ops.OperationId.fromKey#0", () -> MetaKey.of("ops/acme/op-1")),
            Map.entry("ops.OperationJournal.inTenant#0", () -> "acme"),
            Map.entry("ops.OperationId.requireTenant#0", () -> "acme"),
            Map.entry("ops.OperationJournal.begin#0", () -> "acme"),
            Map.entry("ops.OperationJournal.begin#1", () -> "op-1"),
            Map.entry("ops.OperationJournal.begin#2", () -> "sha256:ab"),
            Map.entry("ops.OperationJournal.get#0", () -> "acme"),
            Map.entry("ops.OperationJournal.get#1", () -> "op-1"),
            Map.entry(
                    "ops.OperationJournal.recover#0",
                    () -> journal(0).begin("acme", "op-1", "sha256:ab").record()),
            Map.entry("KeyPrefix.family#0", () -> "tbl"),
            Map.entry("GuardedMutation.<init>#0", () -> MetaKey.of("lease/l")),
            Map.entry("spi.PageCursor.after#0", () -> 0),
            Map.entry("spi.PageTokenCodec.decode#1", () -> CODEC.encode(PREFIX, PageCursor.startOf(0))),
            Map.entry("spi.PageTokenCodec.decodeScanPosition#1", () -> CODEC.encodeScanPosition(PREFIX, "other/k")),
            Map.entry(
                    "lease.LeaseRecord.decode#1",
                    () -> LeaseRecord.held("node-a", 1, 1, "n").encode()),
            Map.entry("Transaction.requireAtMostBytes#0", () -> Limits.MAX_TRANSACTION_BYTES),
            Map.entry("lease.LeaderElection.awaitLeadership#0", () -> Duration.ZERO));

    private ValidArguments() {}

    /** A valid argument for every parameter of {@code point}. */
    static Object[] forAll(Executable point) {
        Type[] types = point.getGenericParameterTypes();
        Object[] args = new Object[types.length];
        for (int i = 0; i < types.length; i++) {
            args[i] = forParameter(point, i);
        }
        return args;
    }

    /** A valid receiver for an instance method of {@code type}. */
    static Object receiver(Class<?> type) {
        Supplier<Object> sample = BY_TYPE.get(type.getTypeName());
        if (sample == null) {
            throw new AssertionError("no sample receiver of " + type.getName() + ": add one to ValidArguments.BY_TYPE");
        }
        return sample.get();
    }

    private static Object forParameter(Executable point, int index) {
        String member = point instanceof Constructor ? "<init>" : point.getName();
        Supplier<Object> sample =
                BY_PARAMETER.get(ApiEntryPoints.ownerName(point.getDeclaringClass()) + "." + member + "#" + index);
        if (sample == null) {
            sample = BY_TYPE.get(point.getGenericParameterTypes()[index].getTypeName());
        }
        if (sample == null) {
            throw new AssertionError(
                    "no valid sample for parameter " + index + " (" + point.getGenericParameterTypes()[index] + ") of "
                            + ApiEntryPoints.describe(point) + ": add one to ValidArguments");
        }
        return sample.get();
    }
}
