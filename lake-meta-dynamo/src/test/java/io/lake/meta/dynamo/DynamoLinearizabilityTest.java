package io.lake.meta.dynamo;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.GuardedMutation;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaStoreException;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.testkit.history.CheckResult;
import io.lake.meta.testkit.history.HistoryRecorder;
import io.lake.meta.testkit.history.LinearizabilityChecker;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import io.lake.meta.testserver.dynamodb.fault.ArmedFault;
import io.lake.meta.testserver.dynamodb.fault.Fault;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Concurrent get / create / update / delete / guarded writes through the real SDK while the
 * in-process server applies some writes and then answers 500 or drops the response (and refuses,
 * throttles or drops others before applying them). Every history is checked for
 * linearizability, unknown outcomes counting as may-or-may-not-have-applied.
 *
 * <p>The seed fixes each client's operations and the faults it arms; the interleaving of the
 * clients is the scheduler's, and every interleaving must pass. Replay a seed with
 * {@code -Dlake.meta.history.seed=N}.
 *
 * <p>The workload never lets a single-item write land twice (an SDK retry of a write that had
 * applied re-applies it if the key went back to the state it expected): values are never reused,
 * and a target key is created and deleted only by its owner client, so no create is retried
 * across a delete of the same key.
 */
class DynamoLinearizabilityTest extends DynamoTestSupport {

    static final String SEED_PROPERTY = "lake.meta.history.seed";

    private static final int CLIENTS = 4;
    private static final int ROUNDS = 3;
    private static final int STEPS_PER_CLIENT = 50;
    private static final int MAX_ATTEMPTS = 3;

    private static final MetaKey GUARD = MetaKey.of("lease/history");
    private static final List<MetaKey> TARGETS =
            List.of(MetaKey.of("tbl/h/k0"), MetaKey.of("tbl/h/k1"), MetaKey.of("tbl/h/k2"), MetaKey.of("tbl/h/k3"));

    @Test
    void concurrentGetsCasAndGuardedWrites_underApplyThen500AndLostResponses_areLinearizable() throws Exception {
        DynamoDbTestServer server = TARGET.requireInProcessServer();
        long seed = Long.getLong(SEED_PROPERTY, new Random().nextLong());
        System.out.println(
                "DynamoLinearizabilityTest: seed " + seed + " (replay with -D" + SEED_PROPERTY + "=" + seed + ")");
        Random rounds = new Random(seed);
        List<String> violations = new ArrayList<>();
        int faultsFired = 0;
        for (int round = 0; round < ROUNDS; round++) {
            Round r = new Round(server, rounds.nextLong());
            CheckResult result = r.run();
            faultsFired += r.faultsFired;
            System.out.println("  round " + round + ": " + r.faultsFired + " faults fired; "
                    + result.toString().lines().findFirst().orElse(""));
            if (!result.isLinearizable()) {
                violations.add("round " + round + " (seed " + seed + "): " + result);
            }
        }
        assertThat(faultsFired).as("the fault plan hit requests").isGreaterThan(ROUNDS * 10);
        assertThat(violations)
                .as("histories that are not linearizable (seed " + seed + ")")
                .isEmpty();
    }

    /** One fresh table, one client, one recorded history. */
    private final class Round {
        private final DynamoDbTestServer server;
        private final long seed;
        private final List<ArmedFault> armed = new CopyOnWriteArrayList<>();
        private String table;
        private int faultsFired;

        Round(DynamoDbTestServer server, long seed) {
            this.server = server;
            this.seed = seed;
        }

        CheckResult run() throws Exception {
            DynamoDbClient client = track(TARGET.newClient(b ->
                    b.overrideConfiguration(o -> o.retryStrategy(r -> r.maxAttempts(MAX_ATTEMPTS)
                            .backoffStrategy(BackoffStrategy.fixedDelay(Duration.ofMillis(2)))
                            .throttlingBackoffStrategy(BackoffStrategy.fixedDelay(Duration.ofMillis(2)))))));
            DynamoTableStore store = openNew(client, "history", null);
            table = tableOf(store);
            Map<MetaKey, MetaValue> initial = new HashMap<>();
            initial.put(GUARD, MetaValue.utf8("g-init"));
            initial.put(TARGETS.get(0), MetaValue.utf8("k0-init"));
            initial.put(TARGETS.get(1), MetaValue.utf8("k1-init"));
            initial.forEach(store::create);

            HistoryRecorder recorder = new HistoryRecorder();
            MetaStore recorded = recorder.recording(store);
            ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
            CountDownLatch start = new CountDownLatch(1);
            try {
                List<Future<?>> clients = new ArrayList<>();
                for (int c = 0; c < CLIENTS; c++) {
                    Client worker = new Client(c, new Random(seed + c), recorded);
                    clients.add(pool.submit(() -> {
                        start.await();
                        worker.run();
                        return null;
                    }));
                }
                start.countDown();
                for (Future<?> f : clients) {
                    f.get(2, TimeUnit.MINUTES);
                }
            } finally {
                pool.shutdownNow();
                server.faults().clear();
            }
            faultsFired = armed.stream().mapToInt(ArmedFault::fired).sum();
            return new LinearizabilityChecker().check(recorder.history(), initial);
        }

        /** Arms one fault of the plan for the next matching request, whichever client sends it. */
        void armRandomFault(Random r) {
            String single = r.nextBoolean() ? "PutItem" : "DeleteItem";
            String write = r.nextInt(3) == 0 ? "TransactWriteItems" : single;
            switch (r.nextInt(9)) {
                case 0, 1 ->
                    arm(Fault.applyThenInternalServerError().onOperation(write).onAttempt(1));
                case 2 -> arm(Fault.applyThenDropResponse().onOperation(write).onAttempt(1));
                case 3 -> {
                    // the first attempt applies, every later one is answered 500
                    arm(Fault.applyThenInternalServerError().onOperation(write).onAttempt(1));
                    for (int attempt = 2; attempt <= MAX_ATTEMPTS; attempt++) {
                        arm(Fault.internalServerError().onOperation(write).onAttempt(attempt));
                    }
                }
                case 4 -> {
                    // A committed transaction whose answer was lost, then a retry refused instead of
                    // executed. (Only refusals DynamoDB may give in any state are injected: a failed
                    // condition the state does not back would be a lie no store can see through.)
                    arm(Fault.applyThenDropResponse()
                            .onOperation("TransactWriteItems")
                            .onAttempt(1));
                    arm((r.nextBoolean()
                                    ? Fault.transactionConflict(r.nextInt(2))
                                    : Fault.cancellation(r.nextInt(2), "ThrottlingError"))
                            .onOperation("TransactWriteItems")
                            .onAttempt(2));
                }
                case 5 ->
                    arm(Fault.internalServerError()
                            .onOperation(r.nextBoolean() ? "GetItem" : write)
                            .onAttempt(1));
                case 6 ->
                    arm(Fault.dropConnection()
                            .onOperation(r.nextBoolean() ? "GetItem" : write)
                            .onAttempt(1));
                case 7 -> arm(Fault.throttling().onOperation(write).onAttempt(1));
                default ->
                    arm(Fault.transactionConflict(r.nextInt(2))
                            .onOperation("TransactWriteItems")
                            .onAttempt(1));
            }
        }

        private void arm(Fault fault) {
            armed.add(server.faults().arm(fault.onTable(table)));
        }

        /** One client: reads, then writes what it read over with values nobody else writes. */
        private final class Client {
            private final int id;
            private final Random r;
            private final MetaStore store;
            private int written;

            Client(int id, Random r, MetaStore store) {
                this.id = id;
                this.r = r;
                this.store = store;
            }

            void run() {
                for (int step = 0; step < STEPS_PER_CLIENT; step++) {
                    if (r.nextInt(4) == 0) {
                        armRandomFault(r);
                    }
                    try {
                        step();
                    } catch (MetaStoreException e) {
                        // recorded; the next step reads again
                    }
                }
            }

            private void step() {
                int action = r.nextInt(100);
                MetaKey target = TARGETS.get(r.nextInt(TARGETS.size()));
                if (action < 25) {
                    store.get(r.nextInt(5) == 0 ? GUARD : target);
                } else if (action < 50) {
                    Optional<MetaValue> seen = store.get(target);
                    if (seen.isPresent()) {
                        store.update(target, seen.get(), fresh());
                    }
                } else if (action < 70) {
                    Optional<MetaValue> guard = store.get(GUARD);
                    Optional<MetaValue> seen = store.get(target);
                    if (guard.isPresent() && seen.isPresent()) {
                        store.applyGuarded(
                                new GuardedMutation(GUARD, guard.get(), Mutation.update(target, seen.get(), fresh())));
                    }
                } else if (action < 78) {
                    Optional<MetaValue> guard = store.get(GUARD);
                    if (guard.isPresent()) {
                        store.update(GUARD, guard.get(), fresh());
                    }
                } else {
                    ownerStep();
                }
            }

            /** Creates and deletes: only on this client's own key, plain or guarded. */
            private void ownerStep() {
                MetaKey own = TARGETS.get(id % TARGETS.size());
                Optional<MetaValue> seen = store.get(own);
                Mutation m = seen.isEmpty() ? Mutation.create(own, fresh()) : Mutation.delete(own, seen.get());
                if (r.nextBoolean()) {
                    store.apply(m);
                    return;
                }
                Optional<MetaValue> guard = store.get(GUARD);
                if (guard.isPresent()) {
                    store.applyGuarded(new GuardedMutation(GUARD, guard.get(), m));
                }
            }

            private MetaValue fresh() {
                return MetaValue.utf8("c" + id + "-" + (++written));
            }
        }
    }
}
