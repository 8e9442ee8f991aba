package io.lake.meta.reliability.storm;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
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
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * DynamoDB fault storms: sustained mixed load from several clients (see {@link StormClient})
 * while the in-process server injects faults, then the final state is held to every answer (see
 * {@link StormLedger}): no acknowledged write lost, none applied twice, no false conflict, a
 * transaction all or nothing, every error {@code StoreUnavailableException} (retryable, nothing
 * applied) or {@code OutcomeUnknownException} (not retryable; resolved here by the final state),
 * with the right flag.
 *
 * <ul>
 *   <li>every fault the server knows ({@link DynamoFaults#EVERYTHING});</li>
 *   <li>refusals only (throttling, transaction conflicts and throttled cancellations, latency,
 *       unprocessed batch keys): then nothing may be answered unknown, since DynamoDB executed
 *       nothing it refused — {@code OutcomeUnknownException} only where the outcome is unknown;</li>
 *   <li>an explicit endpoint without faults: {@code LAKE_META_DYNAMO_ENDPOINT} when set, else a
 *       server of its own addressed only by URL, as a user's endpoint would be (faults skipped: an
 *       explicit endpoint cannot be told to inject them).</li>
 * </ul>
 * The migration's dual-write phase has a storm of its own: {@link DynamoDualWriteStormTest}.
 * Sizes: {@code -Dlake.meta.reliability.stormSeconds=N} (5 by default, 120 under {@code -Ptorture}).
 */
class DynamoFaultStormTest {

    private static final int CLIENTS = 6;

    @Test
    void everyFault_losesNothing_appliesNothingTwice_andTypesEveryError() throws Exception {
        DynamoDbTestServer server = DynamoStores.requireFaultInjection("storm-every-fault");
        Storm storm = storm("storm-every-fault", server, List.of(DynamoFaults.EVERYTHING));
        assertThat(storm.faultsFired).as("faults the server injected").isGreaterThan(10);
    }

    @Test
    void refusalsOnly_neverAnswerUnknown() throws Exception {
        DynamoDbTestServer server = DynamoStores.requireFaultInjection("storm-refusals-only");
        Storm storm = storm(
                "storm-refusals-only",
                server,
                List.of(DynamoFaults.THROTTLING, DynamoFaults.TRANSACTION_CONFLICT, DynamoFaults.LATENCY));
        assertThat(storm.ledger.count(StormLedger.Answer.UNKNOWN))
                .as("unknown outcomes where every fault was a refusal before executing")
                .isZero();
        assertThat(storm.faultsFired).isGreaterThan(10);
    }

    @Test
    void explicitEndpoint_withoutFaults_losesNothing() throws Exception {
        String endpoint = System.getenv(DynamoTestTarget.ENDPOINT_ENV);
        DynamoDbTestServer own = null;
        if (endpoint == null || endpoint.isBlank()) {
            own = DynamoDbTestServer.create().start();
            endpoint = own.endpoint().toString();
        }
        System.out.println("[reliability] storm-explicit-endpoint: faults skipped: an explicit endpoint (" + endpoint
                + ") cannot be told to inject them");
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
            run("storm-explicit-endpoint", client, null, List.of());
        } finally {
            if (own != null) {
                own.close();
            }
        }
    }

    private Storm storm(String area, DynamoDbTestServer server, List<DynamoFaults> plans) throws Exception {
        try (DynamoDbClient client = DynamoStores.quickRetryingClient()) {
            return run(area, client, server, plans);
        } finally {
            server.faults().clear();
        }
    }

    private static final class Storm {
        final StormLedger ledger = new StormLedger();
        int faultsFired;
    }

    private Storm run(String area, DynamoDbClient client, DynamoDbTestServer server, List<DynamoFaults> plans)
            throws Exception {
        long seed = Runs.seed(area);
        int seconds = Runs.size("stormSeconds", 5, 120);
        Storm storm = new Storm();
        Set<MetaKey> touched = StormClient.newTouchedSet();
        Map<String, LongAdder> errors = new java.util.concurrent.ConcurrentHashMap<>();
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        List<ArmedFault> armed = new CopyOnWriteArrayList<>();
        List<StormClient> clients = new ArrayList<>();
        long calls = 0;
        try (MetaStore store = DynamoStores.newStore(client, area, 4)) {
            String table = DynamoStores.tableOf(store);
            store.create(StormClient.GUARD, MetaValue.utf8("guard-initial"));
            long deadline = System.nanoTime() + seconds * 1_000_000_000L;
            ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
            try {
                List<Future<?>> running = new ArrayList<>();
                Random seeds = new Random(seed);
                for (int c = 0; c < CLIENTS; c++) {
                    Random r = new Random(seeds.nextLong());
                    StormClient sc = new StormClient(c, r, store, storm.ledger, touched, errors, problems);
                    clients.add(sc);
                    Consumer<Random> arm = server == null
                            ? x -> {}
                            : x -> armed.addAll(
                                    plans.get(x.nextInt(plans.size())).armOne(server.faults(), table, x));
                    running.add(pool.submit(() -> {
                        while (System.nanoTime() < deadline) {
                            if (r.nextInt(3) == 0) {
                                arm.accept(r);
                            }
                            sc.step();
                        }
                        return null;
                    }));
                }
                for (Future<?> f : running) {
                    f.get(seconds + 120L, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
                if (server != null) {
                    server.faults().clear();
                }
            }
            storm.faultsFired = armed.stream().mapToInt(ArmedFault::fired).sum();
            Map<MetaKey, MetaValue> finalState = new HashMap<>();
            for (MetaKey key : touched) {
                store.get(key).ifPresent(v -> finalState.put(key, v));
            }
            List<String> violations = new ArrayList<>(problems);
            violations.addAll(storm.ledger.check(finalState));
            for (StormClient sc : clients) {
                calls += sc.calls;
                Optional<Optional<MetaValue>> belief = sc.ephemeralBelief();
                Optional<MetaValue> actual = store.get(sc.ephemeralKey());
                if (belief.isPresent() && !belief.get().equals(actual)) {
                    violations.add(sc.ephemeralKey() + " holds " + actual + " but its only writer's answers say "
                            + belief.get());
                }
            }
            Runs.figures(
                    area,
                    "seconds=" + seconds + ", clients=" + CLIENTS + ", calls=" + calls + ", writes recorded="
                            + storm.ledger.size() + " (applied " + storm.ledger.count(StormLedger.Answer.APPLIED)
                            + ", conflicts "
                            + storm.ledger.count(StormLedger.Answer.CONFLICT) + ", refused "
                            + storm.ledger.count(StormLedger.Answer.REFUSED)
                            + ", unknown " + storm.ledger.count(StormLedger.Answer.UNKNOWN) + " of which applied "
                            + storm.ledger.unknownApplied(finalState) + "), faults fired=" + storm.faultsFired
                            + ", errors by type="
                            + errors + ", violations=" + violations.size());
            assertThat(violations)
                    .as("answers the final state contradicts (seed above)")
                    .isEmpty();
            assertThat(storm.ledger.count(StormLedger.Answer.APPLIED)).isPositive();
        }
        return storm;
    }
}
