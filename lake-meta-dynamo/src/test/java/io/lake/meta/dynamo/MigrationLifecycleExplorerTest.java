package io.lake.meta.dynamo;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.testkit.lease.ManualClock;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Runs the {@link MigrationLifecycleExplorer}: a short seeded run in the default build, at least
 * 10 000 sequences under {@code -Ptorture}. A failing seed prints its whole step sequence and is
 * replayed alone with {@code -Dlake.meta.dynamo.explorer.seed=N}.
 *
 * <p>Properties: {@value #SEQUENCES_PROPERTY} (30 by default, 10 000 under {@code -Ptorture}), {@value #STEPS_PROPERTY} (30),
 * {@value #WORKERS_PROPERTY} (sequences run in parallel, each worker on a server of its own; 2 in the default build, 4 under
 * {@code -Ptorture}; 1 when run outside Maven),
 * {@value #FIRST_SEED_PROPERTY} (the first seed; 1), {@value #SEED_PROPERTY} (one seed only),
 * {@value #ENDPOINT_PROPERTY} (an explicit DynamoDB endpoint URL instead of an in-process server
 * of its own; faults and the token window are then skipped, with the reason printed; region from
 * {@code AWS_REGION}, credentials from the SDK's default chain, or test/test without them).
 */
class MigrationLifecycleExplorerTest {

    static final String SEQUENCES_PROPERTY = "lake.meta.dynamo.explorer.sequences";
    static final String STEPS_PROPERTY = "lake.meta.dynamo.explorer.steps";
    static final String FIRST_SEED_PROPERTY = "lake.meta.dynamo.explorer.firstSeed";
    static final String SEED_PROPERTY = "lake.meta.dynamo.explorer.seed";
    static final String ENDPOINT_PROPERTY = "lake.meta.dynamo.explorer.endpoint";
    static final String WORKERS_PROPERTY = "lake.meta.dynamo.explorer.workers";
    private static final int LEGACY_KEYS = 14;
    private static final int REPORTED_FAILURES = 5;

    @Test
    void everySequenceOfOperatorActions_keepsEveryAcknowledgedWrite_andAnswersAsDocumented() throws Exception {
        String endpoint = System.getProperty(ENDPOINT_PROPERTY, "").trim();
        int steps = Integer.getInteger(STEPS_PROPERTY, 30);
        int workers = Math.max(1, Integer.getInteger(WORKERS_PROPERTY, 1));
        List<Long> seeds = seeds();
        if (!endpoint.isEmpty()) {
            System.out.println("[explorer] faults and the token window skipped: the explicit endpoint " + endpoint
                    + " cannot be told to inject faults or to move its clock");
        }
        long started = System.nanoTime();
        AtomicInteger next = new AtomicInteger();
        ConcurrentLinkedQueue<MigrationLifecycleExplorer.Outcome> outcomes = new ConcurrentLinkedQueue<>();
        ExecutorService pool = Executors.newFixedThreadPool(workers);
        List<Future<?>> running = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            running.add(pool.submit(() -> {
                // each worker has its own server, clock and client: a seed's faults and clock moves touch no other
                // sequence
                try (Worker worker = new Worker(endpoint, steps)) {
                    for (int i = next.getAndIncrement(); i < seeds.size(); i = next.getAndIncrement()) {
                        outcomes.add(worker.explorer.run(seeds.get(i)));
                        if ((i + 1) % 1000 == 0) {
                            System.out.printf(
                                    "[explorer] %d of %d sequences drawn, %.0f s%n",
                                    i + 1, seeds.size(), (System.nanoTime() - started) / 1e9);
                        }
                    }
                }
                return null;
            }));
        }
        pool.shutdown();
        for (Future<?> f : running) {
            f.get();
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        List<MigrationLifecycleExplorer.Outcome> sorted = new ArrayList<>(outcomes);
        sorted.sort(Comparator.comparingLong(MigrationLifecycleExplorer.Outcome::seed));
        long totalSteps = 0;
        List<MigrationLifecycleExplorer.Outcome> failed = new ArrayList<>();
        Map<String, Integer> counts = new TreeMap<>();
        Map<String, Integer> violationKinds = new TreeMap<>();
        for (MigrationLifecycleExplorer.Outcome outcome : sorted) {
            totalSteps += outcome.stepCount();
            outcome.counts().forEach((k, v) -> counts.merge(k, v, Integer::sum));
            if (!outcome.violations().isEmpty()) {
                failed.add(outcome);
                outcome.violations().forEach(v -> violationKinds.merge(kind(v.what()), 1, Integer::sum));
                if (failed.size() <= REPORTED_FAILURES) {
                    System.out.println("[explorer] " + outcome.report());
                } else {
                    System.out.println("[explorer] seed " + outcome.seed() + ": "
                            + outcome.violations().size() + " violation(s), the first: "
                            + outcome.violations().get(0));
                }
            }
        }
        long violations = failed.stream().mapToLong(o -> o.violations().size()).sum();
        System.out.printf(
                "[explorer] %d sequences (seeds %d..%d), %d steps, %d violations in %d sequences, %.1f s, %d worker(s),"
                        + " on %s%n",
                sorted.size(),
                seeds.get(0),
                seeds.get(seeds.size() - 1),
                totalSteps,
                violations,
                failed.size(),
                seconds,
                workers,
                endpoint.isEmpty() ? "in-process servers with a manual clock and faults" : endpoint);
        System.out.println("[explorer] actions and answers: " + counts);
        if (!violationKinds.isEmpty()) {
            System.out.println("[explorer] violations by kind: " + violationKinds);
            System.out.println("[explorer] failing seeds: "
                    + failed.stream()
                            .map(o -> String.valueOf(o.seed()))
                            .limit(50)
                            .toList());
        }
        assertThat(sorted).hasSize(seeds.size());
        assertThat(failed)
                .as("sequences with violations (the first %d printed above with their steps)", REPORTED_FAILURES)
                .extracting(MigrationLifecycleExplorer.Outcome::seed)
                .isEmpty();
    }

    /** One worker's DynamoDB: an in-process server of its own with a manual clock, or the explicit endpoint. */
    private static final class Worker implements AutoCloseable {
        final DynamoDbTestServer server;
        final DynamoDbClient client;
        final MigrationLifecycleExplorer explorer;

        Worker(String endpoint, int steps) {
            if (endpoint.isEmpty()) {
                ManualClock clock = new ManualClock(1_767_225_600_000L);
                server = DynamoDbTestServer.builder().clock(clock).build().start();
                TokenWindowInterceptor tokenWindow = new TokenWindowInterceptor();
                client = DynamoDbClient.builder()
                        .endpointOverride(server.endpoint())
                        .region(Region.of(server.region()))
                        .credentialsProvider(
                                StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                        .httpClient(UrlConnectionHttpClient.create())
                        .overrideConfiguration(o -> o.addExecutionInterceptor(tokenWindow))
                        .build();
                explorer = new MigrationLifecycleExplorer(client, server, clock, tokenWindow, steps, LEGACY_KEYS);
            } else {
                server = null;
                boolean keys = System.getenv("AWS_ACCESS_KEY_ID") != null;
                client = DynamoDbClient.builder()
                        .endpointOverride(URI.create(endpoint))
                        .region(Region.of(System.getenv().getOrDefault("AWS_REGION", "us-east-1")))
                        .credentialsProvider(
                                keys
                                        ? DefaultCredentialsProvider.builder().build()
                                        : StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                        .httpClient(UrlConnectionHttpClient.create())
                        .build();
                explorer = new MigrationLifecycleExplorer(client, null, null, null, steps, LEGACY_KEYS);
            }
        }

        @Override
        public void close() {
            client.close();
            if (server != null) {
                server.close();
            }
        }
    }

    private static List<Long> seeds() {
        Long one = Long.getLong(SEED_PROPERTY);
        if (one != null) {
            return List.of(one);
        }
        long first = Long.getLong(FIRST_SEED_PROPERTY, 1L);
        int n = Integer.getInteger(SEQUENCES_PROPERTY, 30);
        List<Long> seeds = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            seeds.add(first + i);
        }
        return seeds;
    }

    /** A violation's message without its keys and values, to count them by kind. */
    private static String kind(String what) {
        String k = what.replaceAll("'?lm-explore-[0-9a-f-]+v[12]-[0-9a-f]+'?", "T")
                .replaceAll("store#\\d+", "store#N")
                .replaceAll("[a-z]+/(k|new)\\d+", "K")
                .replaceAll("\\bw\\d+\\b", "w")
                .replaceAll("\\bL\\d+\\b", "L")
                .replaceAll("\\[.*?\\]", "[..]");
        int colon = k.indexOf(": ");
        return colon > 0 && colon < 200
                ? k.substring(0, Math.min(k.length(), 200))
                : k.substring(0, Math.min(k.length(), 200));
    }
}
