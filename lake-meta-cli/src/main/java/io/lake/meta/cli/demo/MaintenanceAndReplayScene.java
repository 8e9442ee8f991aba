package io.lake.meta.cli.demo;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.fenced.FencedMetaStore;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.lease.LeaseRecord;
import io.lake.meta.maintenance.FencedTableLocks;
import io.lake.meta.maintenance.MaintenanceAction;
import io.lake.meta.maintenance.MaintenanceLimits;
import io.lake.meta.maintenance.MaintenanceSweeper;
import io.lake.meta.maintenance.TableMaintainer;
import io.lake.meta.maintenance.TickStatistics;
import io.lake.meta.ops.BeginResult;
import io.lake.meta.ops.IdempotencyConflictException;
import io.lake.meta.ops.OperationJournal;
import io.lake.meta.ops.OperationRecord;
import io.lake.meta.registry.TableId;
import io.lake.meta.registry.TableRegistration;
import io.lake.meta.registry.TableRegistry;
import io.lake.meta.registry.TableSpec;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A maintenance sweeper walks the registry one small page per tick, each table under its own
 * fenced lock, and cleans up a dropped table; then a client's "create table" request runs once
 * through the operation journal and its retry is answered from the record.
 */
final class MaintenanceAndReplayScene implements DemoScene {

    private static final int PAGE_SIZE = 3;
    private static final int MAX_TICKS = 100;
    private static final TableId EVENTS = TableId.of("ops", "events");
    private static final TableId FORECASTS = TableId.of(Tables.SALES, "forecasts");
    private static final MetaKey LEASE = MetaKey.of("lease/catalog-api");

    @Override
    public String title() {
        return "Paged maintenance and a replayed operation";
    }

    @Override
    public void play(DemoContext demo) {
        sweep(demo);
        replay(demo);
    }

    private void sweep(DemoContext demo) {
        MetaStore store = demo.store();
        TableRegistry registry = TableRegistry.over(store, demo.clock());
        TableRegistration events = registry.get(EVENTS).orElseThrow();
        TableRegistration tombstone = registry.drop(events).registration().orElseThrow();
        demo.step(
                "drop " + EVENTS.key(),
                "tombstone, " + tombstone.state().wireName() + ", generation " + tombstone.generation());
        demo.check(tombstone.isDropped(), EVENTS + " to become a tombstone");

        demo.say("A sweeper reads one registry page of " + PAGE_SIZE + " per tick and keeps only the page token.");
        demo.say("Each table is re-read under its fenced lock (lock/tbl/<namespace>/<name>): the maintainer");
        demo.say("records a compaction; the tombstone's files are deleted, then the tombstone itself.");
        List<String> handled = new ArrayList<>();
        TableMaintainer maintainer = new TableMaintainer() {
            @Override
            public MaintenanceAction maintain(TableRegistration table) {
                handled.add(table.id() + " maintained");
                return MaintenanceAction.updateSpec(table.spec().withProperty("compacted", "yes"));
            }

            @Override
            public void cleanUp(TableRegistration dropped) {
                handled.add(dropped.id() + " cleaned up (" + dropped.location() + ")");
            }
        };
        int scanned = 0;
        int updated = 0;
        int purged = 0;
        try (FencedTableLocks locks = FencedTableLocks.builder()
                .store(store)
                .holderId("sweeper-1")
                .leaseDuration(Duration.ofSeconds(30))
                .clock(demo.clock())
                .ticker(demo.clock())
                .build()) {
            MaintenanceSweeper sweeper = MaintenanceSweeper.builder()
                    .registryStore(store)
                    .locks(locks)
                    .maintainer(maintainer)
                    .limits(MaintenanceLimits.of(Duration.ofSeconds(60), PAGE_SIZE))
                    .clock(demo.clock())
                    .build();
            for (int tick = 1; ; tick++) {
                demo.check(tick <= MAX_TICKS, "a pass over the registry to end within " + MAX_TICKS + " ticks");
                handled.clear();
                TickStatistics stats = sweeper.tick();
                demo.check(stats.scanned() <= PAGE_SIZE, "a tick to read at most " + PAGE_SIZE + " registrations");
                demo.step(
                        "tick " + tick,
                        "scanned " + stats.scanned() + ", updated " + stats.updated() + ", purged " + stats.purged()
                                + (stats.wrapped() ? ", wrapped" : ""));
                handled.forEach(line -> demo.say("    " + line));
                scanned += stats.scanned();
                updated += stats.updated();
                purged += stats.purged();
                if (stats.wrapped()) {
                    break;
                }
            }
        }
        demo.check(
                scanned == Tables.ALL.size() && updated == Tables.ALL.size() - 1 && purged == 1,
                "one pass to scan every table, update the " + (Tables.ALL.size() - 1) + " live ones and purge the"
                        + " tombstone; got scanned " + scanned + ", updated " + updated + ", purged " + purged);
        demo.check(registry.get(EVENTS).isEmpty(), EVENTS + "'s tombstone to be deleted after its cleanup");
        TableRegistration orders = registry.get(Tables.ORDERS).orElseThrow();
        demo.step("get " + Tables.ORDERS_KEY, Tables.describe(orders));
        demo.check("yes".equals(orders.properties().get("compacted")), "orders to record its compaction");
        LeaseRecord lock = LeaseRecord.decode(
                FencedTableLocks.lockKey(Tables.ORDERS),
                store.get(FencedTableLocks.lockKey(Tables.ORDERS)).orElseThrow());
        demo.step(
                "get " + FencedTableLocks.lockKey(Tables.ORDERS),
                (lock.isVacant() ? "vacant" : "held") + ", epoch " + lock.epoch());
        demo.check(lock.isVacant() && lock.epoch() == 1, "the lock to be released, keeping epoch 1");
        demo.say("A restarted sweeper starts again at the first page: the token lived in memory only.");
    }

    private void replay(DemoContext demo) {
        MetaStore store = demo.store();
        String request = "{\"create\":\"" + FORECASTS + "\",\"location\":\"s3://lake/" + FORECASTS + "\"}";
        String digest = sha256(request);
        demo.say("Now a client asks the catalog service to create " + FORECASTS
                + ", idempotency key 'create-forecasts'.");
        demo.say("The service leads " + LEASE + "; every journal and registry write is fenced by that lease.");
        try (LeaderElection election = LeaderElection.builder()
                .store(store)
                .leaseKey(LEASE)
                .candidateId("catalog-1")
                .leaseDuration(Duration.ofSeconds(30))
                .clock(demo.clock())
                .ticker(demo.clock())
                .build()) {
            election.campaignOnce();
            demo.check(election.currentGuard().isPresent(), "catalog-1 to lead");
            MetaStore fenced = FencedMetaStore.over(store, election);
            OperationJournal journal = OperationJournal.builder()
                    .store(fenced)
                    .authority(election)
                    .clock(demo.clock())
                    .build();

            BeginResult first = journal.begin("acme", "create-forecasts", digest);
            demo.step("begin acme/create-forecasts", first.kind().name().toLowerCase(Locale.ROOT));
            demo.check(first.isStarted(), "the first attempt to start the operation");
            boolean registered = TableRegistry.over(fenced, demo.clock())
                    .register(FORECASTS, TableSpec.of("s3://lake/" + FORECASTS, "iceberg"))
                    .isApplied();
            demo.step("  register " + FORECASTS.key(), registered ? "applied" : "conflict");
            demo.check(registered, FORECASTS + " to be registered once");
            String outcome = "{\"table\":\"" + FORECASTS + "\",\"generation\":1}";
            boolean completed = journal.complete(first.record(), outcome).isApplied();
            demo.step("  complete with its outcome", completed ? "applied" : "conflict");
            demo.check(completed, "the operation to complete");

            demo.say("The answer never reached the client, which retries with the same key and payload:");
            MetaValue recorded = store.get(first.record().id().key()).orElseThrow();
            BeginResult retry = journal.begin("acme", "create-forecasts", digest);
            Optional<String> answer = retry.record().outcome();
            demo.step(
                    "begin acme/create-forecasts again",
                    retry.kind().name().toLowerCase(Locale.ROOT) + ", outcome " + answer.orElse("none"));
            demo.check(
                    retry.kind() == BeginResult.Kind.COMPLETED && answer.equals(Optional.of(outcome)),
                    "the retry to be answered with the recorded outcome");
            demo.check(
                    store.get(first.record().id().key()).orElseThrow().equals(recorded), "the replay to write nothing");

            String other = sha256(request.replace("forecasts", "budgets"));
            String refused;
            try {
                journal.begin("acme", "create-forecasts", other);
                refused = "started";
            } catch (IdempotencyConflictException e) {
                refused = "refused: IdempotencyConflictException, nothing written";
            }
            demo.step("begin acme/create-forecasts, another payload", refused);
            demo.check(refused.startsWith("refused"), "a different payload under the same key to be refused");
            OperationRecord stands = journal.get("acme", "create-forecasts").orElseThrow();
            demo.check(stands.storedValue().equals(recorded), "the recorded operation to stand unchanged");
        }
        demo.say("The table was created once; the retry got the first answer, and the key stays bound to");
        demo.say("its payload until the journal's retention collects the record.");
    }

    private static String sha256(String text) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return "sha256:" + HexFormat.of().formatHex(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
