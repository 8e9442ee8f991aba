package io.lake.meta.reliability.linearizability;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.GuardedMutation;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaStoreException;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.fenced.FencedMetaStore;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.lease.LeadershipStatus;
import io.lake.meta.lease.LeaseRecord;
import io.lake.meta.reliability.DynamoFaults;
import io.lake.meta.reliability.DynamoStores;
import io.lake.meta.reliability.Runs;
import io.lake.meta.rocks.RocksDbMetaStore;
import io.lake.meta.testkit.InMemoryMetaStore;
import io.lake.meta.testkit.history.Call;
import io.lake.meta.testkit.history.CheckResult;
import io.lake.meta.testkit.history.History;
import io.lake.meta.testkit.history.HistoryRecorder;
import io.lake.meta.testkit.history.LinearizabilityChecker;
import io.lake.meta.testkit.history.Operation;
import io.lake.meta.testkit.history.Outcome;
import io.lake.meta.testkit.lease.ManualClock;
import io.lake.meta.testkit.lease.ManualTicker;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Histories of the lease recipe: three candidates campaign in rounds on one store (all at once,
 * each on its own thread) and, while they believe they lead, write a target key through their
 * fenced store; between rounds a shared manual wall clock moves on, and so do the candidates'
 * manual tickers — except a paused one's, which then believes its lease lasts longer than it
 * does (a GC pause, a slow clock). On DynamoDB the server injects faults of every plan.
 *
 * <p>Checked on the recorded history of the raw store: it is linearizable (so no guarded write
 * applied while the lease held other bytes); along the chain of lease records that applied, at
 * most one holder per epoch and epochs strictly increasing at every change of holder; every
 * fenced write that applied carried a lease record naming its own sender, whose term is on the
 * chain; and no two candidates were ever told {@code Leader} for the same epoch.
 */
class LeaseHistoriesTest {

    private static final MetaKey LEASE = MetaKey.of("lease/writer");
    private static final MetaKey TARGET = MetaKey.of("rel/leased");
    private static final Duration LEASE_DURATION = Duration.ofSeconds(10);
    private static final Duration RENEW = Duration.ofSeconds(3);
    private static final int CANDIDATES = 3;

    @TempDir
    Path work;

    @Test
    void model_leaseHistories() throws Exception {
        run("lease-model", h -> InMemoryMetaStore.create(), null);
    }

    @Test
    void rocksDb_leaseHistories() throws Exception {
        run(
                "lease-rocksdb",
                h -> RocksDbMetaStore.builder()
                        .directory(work.resolve("lease-" + h))
                        .build(),
                null);
    }

    @Test
    void dynamoDb_underFaults_leaseHistories() throws Exception {
        DynamoDbTestServer server = DynamoStores.target().requireInProcessServer();
        try (DynamoDbClient client = DynamoStores.quickRetryingClient()) {
            run("lease-dynamodb", h -> DynamoStores.newStore(client, "lease", 2), server);
        } finally {
            server.faults().clear();
        }
    }

    private interface StoreFactory {
        MetaStore open(int history) throws Exception;
    }

    private void run(String area, StoreFactory stores, DynamoDbTestServer faults) throws Exception {
        long seed = Runs.seed(area);
        int histories = Runs.size("leaseHistories", 3, 100);
        int rounds = Runs.size("leaseRounds", 40, 60);
        Random seeds = new Random(seed);
        List<String> violations = new ArrayList<>();
        long operations = 0;
        long terms = 0;
        long fencedApplied = 0;
        long fencedRefused = 0;
        ExecutorService pool = Executors.newFixedThreadPool(CANDIDATES, r -> new Thread(r));
        try {
            for (int h = 0; h < histories && violations.size() < 3; h++) {
                HistoryRun run = new HistoryRun(stores.open(h), new Random(seeds.nextLong()), faults, pool);
                run.play(rounds);
                operations += run.history.size();
                terms += run.leaders.size();
                fencedApplied += run.fencedApplied;
                fencedRefused += run.fencedRefused;
                for (String v : run.check()) {
                    violations.add("history " + h + ": " + v);
                }
            }
        } finally {
            pool.shutdownNow();
        }
        Runs.figures(
                area,
                "histories=" + histories + ", rounds each=" + rounds + ", store operations=" + operations
                        + ", terms led=" + terms + ", fenced writes applied=" + fencedApplied
                        + ", fenced writes refused="
                        + fencedRefused + ", violations=" + violations.size());
        assertThat(violations)
                .as("lease histories breaking a rule (seed above)")
                .isEmpty();
    }

    private static final class HistoryRun {
        final MetaStore raw;
        final Random r;
        final DynamoDbTestServer faults;
        final ExecutorService pool;
        final HistoryRecorder recorder = new HistoryRecorder();
        final ManualClock wall = new ManualClock(1_767_225_600_000L);
        final List<ManualTicker> tickers = new ArrayList<>();
        final List<LeaderElection> elections = new ArrayList<>();
        final List<MetaStore> fenced = new ArrayList<>();
        /** epoch → the candidates told Leader in it. */
        final Map<Long, Set<String>> leaders = new HashMap<>();

        History history;
        Optional<MetaValue> finalLease;
        long fencedApplied;
        long fencedRefused;
        String table;

        HistoryRun(MetaStore raw, Random r, DynamoDbTestServer faults, ExecutorService pool) {
            this.raw = raw;
            this.r = r;
            this.faults = faults;
            this.pool = pool;
        }

        void play(int rounds) throws Exception {
            MetaStore recorded = recorder.recording(raw);
            table = faults == null ? null : DynamoStores.tableOf(raw);
            for (int c = 0; c < CANDIDATES; c++) {
                ManualTicker ticker = new ManualTicker();
                LeaderElection e = LeaderElection.builder()
                        .store(recorded)
                        .leaseKey(LEASE)
                        .candidateId("cand" + c)
                        .leaseDuration(LEASE_DURATION)
                        .renewInterval(RENEW)
                        .clock(wall)
                        .ticker(ticker)
                        .build();
                tickers.add(ticker);
                elections.add(e);
                fenced.add(FencedMetaStore.over(recorded, e));
            }
            try {
                for (int round = 0; round < rounds; round++) {
                    List<Future<?>> running = new ArrayList<>();
                    for (int c = 0; c < CANDIDATES; c++) {
                        int candidate = c;
                        long candidateSeed = r.nextLong();
                        running.add(pool.submit(() -> {
                            Thread.currentThread().setName("cand" + candidate);
                            turn(candidate, new Random(candidateSeed));
                            return null;
                        }));
                    }
                    for (Future<?> f : running) {
                        f.get(2, TimeUnit.MINUTES);
                    }
                    advanceTime();
                }
            } finally {
                if (faults != null) {
                    faults.faults().clear();
                }
                elections.forEach(e -> {
                    try {
                        e.close();
                    } catch (MetaStoreException ignored) {
                        // closing resigns; an unknown outcome is resolved by the final read
                    }
                });
                finalLease = raw.get(LEASE);
                raw.close();
            }
            history = recorder.history();
        }

        /** One candidate's round: maybe a fault armed; a campaign, a resignation or silence; a few fenced writes. */
        private void turn(int c, Random cr) {
            if (faults != null && cr.nextInt(3) == 0) {
                DynamoFaults.EVERYTHING.armOne(faults.faults(), table, cr);
            }
            try {
                int action = cr.nextInt(20);
                if (action < 6) {
                    // silent this round (stalled, partitioned): its lease may run out while it still writes
                } else if (action == 6) {
                    elections.get(c).resign();
                } else {
                    campaign(c);
                }
            } catch (MetaStoreException e) {
                // recorded; the next round resolves it
            }
            fencedWrites(c, cr);
        }

        private void campaign(int c) {
            LeadershipStatus status = elections.get(c).campaignOnce();
            if (status instanceof LeadershipStatus.Leader leader) {
                synchronized (leaders) {
                    leaders.computeIfAbsent(leader.epoch(), e -> new HashSet<>())
                            .add("cand" + c);
                }
            }
        }

        private void fencedWrites(int c, Random cr) {
            for (int w = 0, n = cr.nextInt(3); w < n; w++) {
                try {
                    Optional<MetaValue> seen = fenced.get(c).get(TARGET);
                    MetaValue next = MetaValue.utf8("cand" + c + "-" + cr.nextLong());
                    boolean applied = seen.isEmpty()
                            ? fenced.get(c).create(TARGET, next).isApplied()
                            : fenced.get(c).update(TARGET, seen.get(), next).isApplied();
                    synchronized (this) {
                        fencedApplied += applied ? 1 : 0;
                    }
                } catch (MetaStoreException e) {
                    synchronized (this) {
                        fencedRefused++;
                    }
                }
            }
        }

        /** The wall clock moves on; every ticker with it, except a paused candidate's. */
        private void advanceTime() {
            Duration step = Duration.ofMillis(r.nextInt((int) (LEASE_DURATION.toMillis() * 6 / 10)));
            wall.advance(step);
            int paused = r.nextInt(5) == 0 ? r.nextInt(CANDIDATES) : -1;
            for (int c = 0; c < CANDIDATES; c++) {
                if (c != paused) {
                    tickers.get(c).advance(step);
                }
            }
        }

        List<String> check() {
            List<String> problems = new ArrayList<>();
            CheckResult result = new LinearizabilityChecker().check(history, Map.of());
            if (!result.isLinearizable()) {
                problems.add("the store's history is not linearizable: " + result);
            }
            leaders.forEach((epoch, who) -> {
                if (who.size() > 1) {
                    problems.add("epoch " + epoch + " had several leaders: " + who);
                }
            });
            List<LeaseRecord> chain = leaseChain(problems);
            Map<Long, String> holderOfEpoch = new HashMap<>();
            LeaseRecord previous = null;
            for (LeaseRecord record : chain) {
                if (record.holder().isPresent()) {
                    String before = holderOfEpoch.putIfAbsent(
                            record.epoch(), record.holder().get());
                    if (before != null && !before.equals(record.holder().get())) {
                        problems.add("epoch " + record.epoch() + " held by " + before + " and "
                                + record.holder().get());
                    }
                }
                if (previous != null) {
                    boolean holderChanged =
                            record.holder().isPresent() && !record.holder().equals(previous.holder());
                    if (record.epoch() < previous.epoch() || (holderChanged && record.epoch() <= previous.epoch())) {
                        problems.add("epoch went from " + previous + " to " + record);
                    }
                }
                previous = record;
            }
            for (Operation op : history.operations()) {
                if (op.call() instanceof Call.Guarded g && applied(op.outcome())) {
                    GuardedMutation m = g.mutation();
                    LeaseRecord term = LeaseRecord.decode(LEASE, m.expectedGuard());
                    if (!term.holder().equals(Optional.of(op.client()))) {
                        problems.add("a fenced write of " + op.client() + " applied under " + term);
                    }
                    if (!term.holder().get().equals(holderOfEpoch.get(term.epoch()))) {
                        problems.add("a fenced write applied under a term not on the lease chain: " + term);
                    }
                }
            }
            return problems;
        }

        private static boolean applied(Outcome outcome) {
            return outcome instanceof Outcome.GuardedWritten w && w.result().isApplied();
        }

        /**
         * The lease records in the order they were installed: a path of writes from "absent" to
         * the record read at the end, each write's expected bytes the record before it, through
         * every lease write that answered applied and any of those with an unknown outcome. Lease
         * bytes are never reused (each record carries a nonce), so at most one such path exists.
         */
        private List<LeaseRecord> leaseChain(List<String> problems) {
            List<Mutation> applied = new ArrayList<>();
            List<Mutation> maybe = new ArrayList<>();
            for (Operation op : history.operations()) {
                if (op.call() instanceof Call.Write w && w.mutation().key().equals(LEASE)) {
                    if (op.outcome() instanceof Outcome.Written written
                            && written.result().isApplied()) {
                        applied.add(w.mutation());
                    } else if (op.outcome() instanceof Outcome.Unknown) {
                        maybe.add(w.mutation());
                    }
                }
            }
            List<Mutation> path = new ArrayList<>();
            if (!findPath(Optional.empty(), applied, maybe, path, new HashSet<>())) {
                problems.add("no order of the lease writes leads from absent to the final record " + finalLease
                        + " through every applied one (" + applied.size() + " applied, " + maybe.size() + " unknown)");
                return List.of();
            }
            List<LeaseRecord> chain = new ArrayList<>();
            for (Mutation m : path) {
                m.newValue().ifPresent(v -> chain.add(LeaseRecord.decode(LEASE, v)));
            }
            return chain;
        }

        private boolean findPath(
                Optional<MetaValue> current,
                List<Mutation> applied,
                List<Mutation> maybe,
                List<Mutation> path,
                Set<Mutation> used) {
            if (current.equals(finalLease) && path.containsAll(applied)) {
                return true;
            }
            for (List<Mutation> candidates : List.of(applied, maybe)) {
                for (Mutation m : candidates) {
                    if (!used.contains(m) && m.preconditionHolds(current)) {
                        used.add(m);
                        path.add(m);
                        if (findPath(m.newValue(), applied, maybe, path, used)) {
                            return true;
                        }
                        path.remove(path.size() - 1);
                        used.remove(m);
                    }
                }
            }
            return false;
        }
    }
}
