package io.lake.meta.reliability.storm;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaStoreException;
import io.lake.meta.MetaValue;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.WriteBarrierException;
import io.lake.meta.dynamo.BackfillPage;
import io.lake.meta.dynamo.DynamoLayoutMode;
import io.lake.meta.dynamo.DynamoMetaStore;
import io.lake.meta.dynamo.DynamoMigration;
import io.lake.meta.dynamo.FinalizeResult;
import io.lake.meta.dynamo.ParityReport;
import io.lake.meta.reliability.DynamoFaults;
import io.lake.meta.reliability.DynamoStores;
import io.lake.meta.reliability.Runs;
import io.lake.meta.testkit.dynamo.DynamoTestTarget;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import io.lake.meta.testserver.dynamodb.fault.ArmedFault;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The fault storm through the migration's dual-write phase: a legacy table with content, then the
 * storm's clients (see {@link StormClient}) writing through several {@code DUAL} stores with the
 * v1 authority while a backfill copies the table and a finalize verifies it and publishes the
 * completion marker, then through new {@code DUAL} stores, which take the v2 authority from the
 * marker — all while the server injects faults into both tables (the engine's requests meet them
 * too, and are replayed as an operator would). Held to the storm's invariants over both phases
 * (no acknowledged write lost, none applied twice, no false conflict, errors typed and correctly
 * retryable, a barrier's refusal retryable and moving nothing) and, at the end, to exact parity of
 * the two copies: every dual write is one transaction over both, so even a write whose outcome is
 * unknown left them equal.
 *
 * <p>On an explicit endpoint the same phases run without faults (the reason is printed). Sizes:
 * {@code -Dlake.meta.reliability.dualStormSeconds=N} per phase (4 by default, 60 under
 * {@code -Ptorture}), {@code dualStormLegacyKeys} (300, 3 000).
 */
class DynamoDualWriteStormTest {

    private static final int CLIENTS = 6;
    private static final int STORES = 3;
    private static final int SHARDS = 4;
    private static final int ENGINE_ATTEMPTS = 200;
    private static final int MAX_PENDING_FAULTS = 6;

    @Test
    void dualWrites_v1ThenV2Authority_underEveryFault_loseNothing_andLeaveBothCopiesEqual() throws Exception {
        DynamoDbTestServer server = DynamoStores.requireFaultInjection("dual-storm-every-fault");
        try (DynamoDbClient client = DynamoStores.quickRetryingClient()) {
            Result result = run("dual-storm-every-fault", client, server);
            assertThat(result.faultsFired).as("faults the server injected").isGreaterThan(10);
        } finally {
            server.faults().clear();
        }
    }

    @Test
    void dualWrites_onAnExplicitEndpoint_withoutFaults() throws Exception {
        String endpoint = System.getenv(DynamoTestTarget.ENDPOINT_ENV);
        DynamoDbTestServer own = null;
        if (endpoint == null || endpoint.isBlank()) {
            own = DynamoDbTestServer.create().start();
            endpoint = own.endpoint().toString();
        }
        System.out.println("[reliability] dual-storm-explicit-endpoint: faults skipped: an explicit endpoint ("
                + endpoint + ") cannot be told to inject them");
        try (DynamoDbClient client = DynamoDbClient.builder()
                .endpointOverride(URI.create(endpoint))
                .region(Region.of(
                        own != null
                                ? own.region()
                                : DynamoStores.target().region().id()))
                .credentialsProvider(
                        own != null
                                ? StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test"))
                                : DynamoStores.target().credentials())
                .httpClient(UrlConnectionHttpClient.create())
                .build()) {
            run("dual-storm-explicit-endpoint", client, null);
        } finally {
            if (own != null) {
                own.close();
            }
        }
    }

    private static final class Result {
        final StormLedger ledger = new StormLedger();
        final List<ArmedFault> armed = new CopyOnWriteArrayList<>();
        final AtomicBoolean faultsOn = new AtomicBoolean();
        final Map<String, LongAdder> engineFailures = new ConcurrentHashMap<>();
        final Map<String, String> lastEngineFailure = new ConcurrentHashMap<>();
        final ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        volatile FinalizeResult.Outcome finalized;
        int faultsFired;
    }

    private Result run(String area, DynamoDbClient client, DynamoDbTestServer server) throws Exception {
        long seed = Runs.seed(area);
        int seconds = Runs.size("dualStormSeconds", 4, 60);
        int legacyKeys = Runs.size("dualStormLegacyKeys", 300, 3000);
        Random random = new Random(seed);
        Result result = new Result();
        String legacy = DynamoStores.target().uniqueTableName(area + "-v1");
        String table = DynamoStores.target().uniqueTableName(area + "-v2");
        List<String> tables = List.of(legacy, table);
        try (MetaStore v1 = builder(client, DynamoLayoutMode.V1, legacy, table).build()) {
            for (int i = 0; i < legacyKeys; i++) {
                v1.create(MetaKey.of("legacy/f" + (i % 3) + "/k" + i), MetaValue.utf8("legacy " + i));
            }
        }
        DynamoMigration migration = DynamoMigration.builder()
                .client(client)
                .legacyTableName(legacy)
                .tableName(table)
                .shardCount(SHARDS)
                .createTableIfMissing(true)
                .build();
        Set<MetaKey> touched = StormClient.newTouchedSet();
        Map<String, LongAdder> errors = new ConcurrentHashMap<>();
        List<StormClient> clients = new ArrayList<>();

        // phase 1: DUAL with the v1 authority; the backfill and the finalize run meanwhile
        List<MetaStore> v1Authority = open(client, legacy, table);
        assertThat(v1Authority.get(0).toString()).contains("authority=V1");
        v1Authority.get(0).create(StormClient.GUARD, MetaValue.utf8("guard-initial"));
        for (int c = 0; c < CLIENTS; c++) {
            clients.add(new StormClient(
                    c,
                    new Random(random.nextLong()),
                    v1Authority.get(c % STORES),
                    result.ledger,
                    touched,
                    errors,
                    result.problems));
        }
        Runnable migrate = () -> {
            long deadline = System.nanoTime() + seconds * 1_000_000_000L / 2;
            BackfillPage page = engine(result, "backfill", () -> migration.backfillPage(25));
            while (!page.done()) {
                page = engine(result, "backfill", () -> migration.backfillPage(25));
            }
            while (System.nanoTime() < deadline) {
                pause(); // writers keep writing between the backfill's end and the finalize
            }
            result.finalized = finalizeWithReplays(migration, result);
            if (engine(result, "status", migration::status).barrier().isPresent()) {
                // a finalize that published the marker and lost its answer may leave its barrier: an operator releases
                // it
                result.engineFailures
                        .computeIfAbsent("barrier left and released", k -> new LongAdder())
                        .increment();
                engine(result, "release barrier", migration::releaseBarrier);
            }
        };
        result.faultsOn.set(server != null);
        long phase1Calls = storm(clients, server, tables, random, result, seconds, migrate);
        result.faultsOn.set(false);
        clear(server);
        v1Authority.forEach(MetaStore::close);
        assertThat(result.finalized)
                .as("finalize outcome (already finalized: an attempt published and lost its answer);"
                        + " the engine's failures " + result.engineFailures + ", the last of each "
                        + result.lastEngineFailure)
                .isIn(FinalizeResult.Outcome.FINALIZED, FinalizeResult.Outcome.ALREADY_FINALIZED);

        // phase 2: new DUAL stores, which take the v2 authority from the completion marker
        List<MetaStore> v2Authority = open(client, legacy, table);
        assertThat(v2Authority.get(0).toString())
                .as("the read layout of a DUAL store opened after the marker")
                .contains("authority=V2")
                .contains("layout=dynamodb-v2");
        for (int c = 0; c < CLIENTS; c++) {
            clients.get(c).useStore(v2Authority.get(c % STORES));
        }
        result.faultsOn.set(server != null);
        long phase2Calls = storm(clients, server, tables, random, result, seconds, () -> {});
        result.faultsOn.set(false);
        clear(server);
        result.faultsFired = result.armed.stream().mapToInt(ArmedFault::fired).sum();

        MetaStore reader = v2Authority.get(0);
        Map<MetaKey, MetaValue> finalState = new HashMap<>();
        for (MetaKey key : touched) {
            reader.get(key).ifPresent(v -> finalState.put(key, v));
        }
        List<String> violations = new ArrayList<>(result.problems);
        violations.addAll(result.ledger.check(finalState));
        for (StormClient sc : clients) {
            Optional<Optional<MetaValue>> belief = sc.ephemeralBelief();
            Optional<MetaValue> actual = reader.get(sc.ephemeralKey());
            if (belief.isPresent() && !belief.get().equals(actual)) {
                violations.add(
                        sc.ephemeralKey() + " holds " + actual + " but its only writer's answers say " + belief.get());
            }
        }
        ParityReport parity = migration.verify(500);
        if (!parity.clean()) {
            violations.add("the copies differ after the run: " + parity);
        }
        v2Authority.forEach(MetaStore::close);
        Runs.figures(
                area,
                "seconds per phase=" + seconds + ", clients=" + CLIENTS + " on " + STORES + " DUAL stores, legacy keys="
                        + legacyKeys + ", calls v1 authority=" + phase1Calls + ", calls v2 authority=" + phase2Calls
                        + ", writes recorded="
                        + result.ledger.size() + " (applied " + result.ledger.count(StormLedger.Answer.APPLIED)
                        + ", conflicts "
                        + result.ledger.count(StormLedger.Answer.CONFLICT) + ", refused "
                        + result.ledger.count(StormLedger.Answer.REFUSED)
                        + ", unknown " + result.ledger.count(StormLedger.Answer.UNKNOWN) + " of which applied "
                        + result.ledger.unknownApplied(finalState) + "), faults fired=" + result.faultsFired
                        + ", errors by type=" + errors
                        + ", engine retries=" + result.engineFailures + ", finalize " + result.finalized
                        + ", parity legacy="
                        + parity.legacyItems() + " v2=" + parity.v2Items() + " differences=" + parity.differenceCount()
                        + ", violations=" + violations.size());
        assertThat(violations)
                .as("answers the final state contradicts, or copies that differ (seed above)")
                .isEmpty();
        assertThat(result.ledger.count(StormLedger.Answer.APPLIED)).isPositive();
        return result;
    }

    /** The clients for {@code seconds} (and until {@code alongside} returned), arming faults as they go. */
    private long storm(
            List<StormClient> clients,
            DynamoDbTestServer server,
            List<String> tables,
            Random random,
            Result result,
            int seconds,
            Runnable alongside)
            throws Exception {
        long before = clients.stream().mapToLong(sc -> sc.calls).sum();
        AtomicBoolean alongsideDone = new AtomicBoolean();
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        ExecutorService pool = Executors.newFixedThreadPool(clients.size() + 1);
        try {
            List<Future<?>> running = new ArrayList<>();
            running.add(pool.submit(() -> {
                try {
                    alongside.run();
                } finally {
                    alongsideDone.set(true);
                }
                return null;
            }));
            for (StormClient sc : clients) {
                Random r = new Random(random.nextLong());
                running.add(pool.submit(() -> {
                    while (System.nanoTime() < deadline || !alongsideDone.get()) {
                        if (server != null && result.faultsOn.get() && r.nextInt(3) == 0) {
                            if (server.faults().armed().stream()
                                            .filter(f -> !f.exhausted())
                                            .count()
                                    >= MAX_PENDING_FAULTS) {
                                // Dual writers send only transactions: faults armed for single-item writes wait for
                                // the engine's few requests and would pile up there. Keep a handful pending.
                                server.faults().clear();
                            }
                            String t = tables.get(r.nextInt(tables.size()));
                            result.armed.addAll(DynamoFaults.EVERYTHING.armOne(server.faults(), t, r));
                        }
                        sc.step();
                    }
                    return null;
                }));
            }
            for (Future<?> f : running) {
                f.get(seconds + 300L, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        return clients.stream().mapToLong(sc -> sc.calls).sum() - before;
    }

    /**
     * The finalize as an operator runs it under failures: a typed failure is retried; a barrier
     * left behind by a failed attempt (its own release may have failed too) is released first.
     */
    private static FinalizeResult.Outcome finalizeWithReplays(DynamoMigration migration, Result result) {
        for (int attempt = 0; attempt < ENGINE_ATTEMPTS; attempt++) {
            try {
                FinalizeResult finalized = migration.finalizeMigration(100);
                if (finalized.outcome() == FinalizeResult.Outcome.VERIFICATION_FAILED) {
                    result.problems.add("the finalize's verification found differences: " + finalized.parity());
                }
                return finalized.outcome();
            } catch (WriteBarrierException e) {
                count(result, e);
                engine(result, "release barrier", migration::releaseBarrier);
            } catch (StoreUnavailableException | OutcomeUnknownException e) {
                count(result, e);
            }
        }
        return engine(result, "status", migration::status).completion().isPresent()
                ? FinalizeResult.Outcome.ALREADY_FINALIZED
                : null;
    }

    /** One call of the migration engine, replayed after typed failures (the engine is built to be). */
    private static <T> T engine(Result result, String what, java.util.function.Supplier<T> call) {
        for (int attempt = 0; ; attempt++) {
            try {
                return call.get();
            } catch (StoreUnavailableException | OutcomeUnknownException e) {
                count(result, e);
                if (attempt >= ENGINE_ATTEMPTS) {
                    throw new AssertionError(what + " still failing after " + attempt + " replays", e);
                }
            } catch (MetaStoreException e) {
                result.problems.add(what + " failed with " + e);
                throw e;
            }
        }
    }

    private static void count(Result result, MetaStoreException e) {
        result.engineFailures
                .computeIfAbsent(e.getClass().getSimpleName(), k -> new LongAdder())
                .increment();
        result.lastEngineFailure.put(e.getClass().getSimpleName(), String.valueOf(e.getMessage()));
        if (!e.retryable() && !(e instanceof OutcomeUnknownException)) {
            result.problems.add("the engine's " + e.getClass().getSimpleName() + " says retryable=false");
        }
    }

    private static List<MetaStore> open(DynamoDbClient client, String legacy, String table) {
        List<MetaStore> stores = new ArrayList<>();
        for (int s = 0; s < STORES; s++) {
            stores.add(builder(client, DynamoLayoutMode.DUAL, legacy, table).build());
        }
        return stores;
    }

    private static DynamoMetaStore.Builder builder(
            DynamoDbClient client, DynamoLayoutMode mode, String legacy, String table) {
        DynamoMetaStore.Builder b = DynamoMetaStore.builder()
                .client(client)
                .mode(mode)
                .legacyTableName(legacy)
                .createTableIfMissing(true);
        if (mode != DynamoLayoutMode.V1) {
            b.tableName(table).shardCount(SHARDS);
        }
        return b;
    }

    private static void pause() {
        try {
            Thread.sleep(10);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static void clear(DynamoDbTestServer server) {
        if (server != null) {
            server.faults().clear();
        }
    }
}
