package io.lake.meta.reliability.recipes;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.FencedException;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStoreException;
import io.lake.meta.MetaValue;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.WriteResult;
import io.lake.meta.fenced.FencedMetaStore;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.lease.LeadershipListener;
import io.lake.meta.lease.LeaseGuard;
import io.lake.meta.lease.LeaseRecord;
import io.lake.meta.lock.FencedLock;
import io.lake.meta.lock.LockHold;
import io.lake.meta.ops.BeginResult;
import io.lake.meta.ops.JournalWriteResult;
import io.lake.meta.ops.OperationJournal;
import io.lake.meta.ops.OperationRecord;
import io.lake.meta.ops.OperationState;
import io.lake.meta.reliability.Runs;
import io.lake.meta.testkit.FaultyStore;
import io.lake.meta.testkit.FaultyStore.Call;
import io.lake.meta.testkit.FaultyStore.Fault;
import io.lake.meta.testkit.InMemoryMetaStore;
import io.lake.meta.testkit.lease.ManualClock;
import io.lake.meta.testkit.lease.ManualTicker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Seeded explorers of the recipes' state machines (issue 23): the election with the fenced store
 * (pinned and unpinned views), the fenced lock, and the operation journal. Each run draws a random
 * sequence of steps (rounds, renewals, releases, ticker and wall-clock moves up to the edge of the
 * safety margin, paused nodes, lost answers that applied or never arrived, listeners that call back
 * into the recipe) and checks a model after every step. Listeners are delivered directly (the
 * deterministic executor): the executor's own ordering is proven in the testkit's
 * ListenerDeliveryTest.
 *
 * <p>Sizes: {@code -Dlake.meta.reliability.explorerRuns=N} and {@code explorerSteps} (20 x 200 by
 * default, 300 x 2 000 under {@code -Ptorture}); the seed is printed and replays a run.
 */
class RecipeExplorersTest {

    private static final MetaKey LEASE_KEY = MetaKey.of("lease/explorer");
    private static final Duration LEASE = Duration.ofSeconds(9);
    private static final Duration MARGIN = Duration.ofSeconds(1);
    private static final Duration RENEW = Duration.ofSeconds(3);
    private static final int RUNS = Runs.size("explorerRuns", 20, 300);
    private static final int STEPS = Runs.size("explorerSteps", 200, 2_000);

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "explorer-scheduler");
        t.setDaemon(true);
        return t;
    });

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    /** One node: its ticker (frozen while it is paused), its network, and what its listener heard. */
    private static final class Node {
        final String id;
        final ManualTicker ticker = new ManualTicker();
        final FaultyStore network;
        final List<String> events = new ArrayList<>();
        long lastGained;
        boolean leadingPerEvents;

        Node(String id, InMemoryMetaStore store) {
            this.id = id;
            this.network = FaultyStore.over(store);
        }

        /** Gained and lost alternate, each epoch gained once and past every earlier one. */
        LeadershipListener recorder(Runnable callBackIn) {
            return new LeadershipListener() {
                @Override
                public void gained(LeaseGuard guard) {
                    assertThat(leadingPerEvents)
                            .as("%s: gained %s without lost %s first (%s)", id, guard.epoch(), lastGained, events)
                            .isFalse();
                    assertThat(guard.epoch())
                            .as("%s: epochs only grow (%s)", id, events)
                            .isGreaterThan(lastGained);
                    events.add("gained " + guard.epoch());
                    lastGained = guard.epoch();
                    leadingPerEvents = true;
                    callBackIn.run();
                }

                @Override
                public void lost(long epoch, String reason) {
                    assertThat(leadingPerEvents)
                            .as("%s: lost %s while not leading (%s)", id, epoch, events)
                            .isTrue();
                    assertThat(epoch)
                            .as("%s: lost the term it gained (%s)", id, events)
                            .isEqualTo(lastGained);
                    events.add("lost " + epoch);
                    leadingPerEvents = false;
                    callBackIn.run();
                }
            };
        }
    }

    @Test
    void election_andFencedStore_keepTheirRules_underRandomSteps() {
        long seed = Runs.seed("recipe-explorer-election");
        long steps = 0;
        long appliedWrites = 0;
        for (int run = 0; run < RUNS; run++) {
            Random random = new Random(seed + run);
            steps += exploreElection(random);
            appliedWrites += lastAppliedWrites;
        }
        Runs.figures(
                "recipe-explorer-election",
                RUNS + " runs, " + steps + " steps, " + appliedWrites + " fenced writes applied");
    }

    private long lastAppliedWrites;

    private int exploreElection(Random random) {
        InMemoryMetaStore store = InMemoryMetaStore.create();
        ManualClock wall = new ManualClock(1_767_225_600_000L);
        Node[] nodes = {new Node("node-a", store), new Node("node-b", store)};
        LeaderElection[] elections = new LeaderElection[2];
        for (int i = 0; i < 2; i++) {
            Node node = nodes[i];
            int me = i;
            elections[i] = LeaderElection.builder()
                    .store(node.network)
                    .leaseKey(LEASE_KEY)
                    .candidateId(node.id)
                    .leaseDuration(LEASE)
                    .safetyMargin(MARGIN)
                    .renewInterval(RENEW)
                    .clock(wall)
                    .ticker(node.ticker)
                    .listenerExecutor(Runnable::run)
                    .listener(node.recorder(() -> {
                        // a listener that calls back in: reads the guard and the record, as "stop my worker" does
                        elections[me].currentGuard();
                        elections[me].status();
                    }))
                    .build();
        }
        List<FencedMetaStore> pinned = new ArrayList<>();
        List<Long> pinnedEpochs = new ArrayList<>();
        List<String> pinnedOwners = new ArrayList<>();
        long highestRecordEpoch = 0;
        long highestAppliedEpoch = 0;
        lastAppliedWrites = 0;
        try {
            for (int step = 0; step < STEPS; step++) {
                int who = random.nextInt(2);
                Node node = nodes[who];
                LeaderElection election = elections[who];
                switch (random.nextInt(9)) {
                    case 0, 1 -> quietly(election::campaignOnce);
                    case 2 -> { // time passes for everyone, up to one renew interval
                        Duration d = Duration.ofMillis(random.nextInt((int) RENEW.toMillis() + 1));
                        wall.advance(d);
                        nodes[0].ticker.advance(d);
                        nodes[1].ticker.advance(d);
                    }
                    case 3 -> { // one node is paused: only the others' time passes, up to the edge of the margin
                        Duration d =
                                random.nextBoolean() ? LEASE.minus(MARGIN) : Duration.ofMillis(random.nextInt(3_000));
                        wall.advance(d);
                        nodes[1 - who].ticker.advance(d);
                    }
                    case 4 ->
                        node.network
                                .heal()
                                .failNext(
                                        Call.WRITE,
                                        random.nextBoolean()
                                                ? Fault.ANSWER_LOST
                                                : Fault.NEVER_ARRIVED); // the next write only
                    case 5 -> quietly(election::resign);
                    case 6 ->
                        election.currentGuard().ifPresent(g -> {
                            pinned.add(FencedMetaStore.over(store, election).pinnedTo(g.epoch()));
                            pinnedEpochs.add(g.epoch());
                            pinnedOwners.add(node.id);
                        });
                    default -> { // a fenced write, pinned or not
                        boolean usePinned = !pinned.isEmpty() && random.nextBoolean();
                        int index = usePinned ? random.nextInt(pinned.size()) : -1;
                        FencedMetaStore via = usePinned ? pinned.get(index) : FencedMetaStore.over(store, election);
                        MetaKey key = MetaKey.of("data/" + random.nextInt(3));
                        try {
                            WriteResult result =
                                    via.apply(io.lake.meta.Mutation.create(key, MetaValue.utf8(node.id + step)));
                            LeaseRecord record = LeaseRecord.decode(
                                    LEASE_KEY, store.get(LEASE_KEY).orElseThrow());
                            if (result.isApplied() || result.isCurrentKnown()) {
                                // the guard was accepted: the record is the writer's, in the pinned term if pinned
                                assertThat(record.holder())
                                        .as("step %s: a fenced write applied for %s", step, node.id)
                                        .contains(usePinned ? pinnedOwners.get(index) : node.id);
                                if (usePinned) {
                                    assertThat(record.epoch())
                                            .as("step %s: a pinned write's term", step)
                                            .isEqualTo(pinnedEpochs.get(index));
                                }
                                assertThat(record.epoch())
                                        .as("step %s: accepted fenced writes' epochs never go back", step)
                                        .isGreaterThanOrEqualTo(highestAppliedEpoch);
                                highestAppliedEpoch = record.epoch();
                                if (result.isApplied()) {
                                    store.delete(key, store.get(key).orElseThrow());
                                    lastAppliedWrites++;
                                }
                            }
                        } catch (FencedException expected) {
                            // refused, nothing written
                        }
                    }
                }
                Optional<MetaValue> bytes = store.get(LEASE_KEY);
                if (bytes.isPresent()) {
                    long epoch = LeaseRecord.decode(LEASE_KEY, bytes.get()).epoch();
                    assertThat(epoch)
                            .as("step %s: the record's epoch never goes back", step)
                            .isGreaterThanOrEqualTo(highestRecordEpoch);
                    highestRecordEpoch = epoch;
                }
                for (int i = 0; i < 2; i++) {
                    Optional<LeaseGuard> guard = elections[i].currentGuard();
                    if (guard.isPresent()) {
                        assertThat(nodes[i].leadingPerEvents)
                                .as(
                                        "step %s: %s holds a guard its listeners heard gained (%s)",
                                        step, nodes[i].id, nodes[i].events)
                                .isTrue();
                        assertThat(guard.get().epoch()).isEqualTo(nodes[i].lastGained);
                    }
                }
            }
            return STEPS;
        } finally {
            elections[0].close();
            elections[1].close();
        }
    }

    @Test
    void lock_keepsItsRules_underRandomSteps() {
        long seed = Runs.seed("recipe-explorer-lock");
        long holds = 0;
        for (int run = 0; run < RUNS; run++) {
            holds += exploreLock(new Random(seed + run));
        }
        Runs.figures("recipe-explorer-lock", RUNS + " runs x " + STEPS + " steps, " + holds + " holds acquired");
    }

    private long exploreLock(Random random) {
        InMemoryMetaStore store = InMemoryMetaStore.create();
        ManualClock wall = new ManualClock(1_767_225_600_000L);
        Node[] nodes = {new Node("node-a", store), new Node("node-b", store)};
        FencedLock[] locks = new FencedLock[2];
        Map<LockHold, Integer> lostHeard = new HashMap<>();
        List<LockHold> holds = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            int me = i;
            locks[i] = FencedLock.builder()
                    .store(nodes[i].network)
                    .key(MetaKey.of("lock/explorer"))
                    .holderId(nodes[i].id)
                    .leaseDuration(LEASE)
                    .safetyMargin(MARGIN)
                    .renewInterval(RENEW)
                    .clock(wall)
                    .ticker(nodes[i].ticker)
                    .scheduler(scheduler)
                    .listenerExecutor(Runnable::run)
                    .listener((hold, reason) -> {
                        lostHeard.merge(hold, 1, Integer::sum);
                        locks[me].currentHold(); // calls back in
                    })
                    .build();
            locks[i].start();
        }
        long highestEpoch = 0;
        long highestWriteEpoch = 0;
        long acquired = 0;
        try {
            for (int step = 0; step < STEPS; step++) {
                int who = random.nextInt(2);
                FencedLock lock = locks[who];
                switch (random.nextInt(8)) {
                    case 0, 1 -> {
                        if (lock.currentHold().isEmpty()) {
                            Optional<LockHold> hold = quietly(lock::tryAcquire).flatMap(h -> h);
                            if (hold.isPresent()) {
                                assertThat(hold.get().epoch())
                                        .as("step %s: every hold's epoch is past every earlier one", step)
                                        .isGreaterThan(highestEpoch);
                                highestEpoch = hold.get().epoch();
                                holds.add(hold.get());
                                acquired++;
                            }
                        }
                    }
                    case 2 -> lock.currentHold().ifPresent(h -> quietly(h::renew));
                    case 3 -> lock.currentHold().ifPresent(h -> quietly(h::release));
                    case 4 -> {
                        Duration d = Duration.ofMillis(random.nextInt((int) RENEW.toMillis() + 1));
                        wall.advance(d);
                        nodes[0].ticker.advance(d);
                        nodes[1].ticker.advance(d);
                    }
                    case 5 -> {
                        Duration d =
                                random.nextBoolean() ? LEASE.minus(MARGIN) : Duration.ofMillis(random.nextInt(3_000));
                        wall.advance(d);
                        nodes[1 - who].ticker.advance(d);
                    }
                    case 6 ->
                        nodes[who]
                                .network
                                .heal()
                                .failNext(
                                        Call.WRITE,
                                        random.nextBoolean()
                                                ? Fault.ANSWER_LOST
                                                : Fault.NEVER_ARRIVED); // the next write only
                    default -> {
                        if (!holds.isEmpty()) { // any hold ever made writes: only a live one may apply
                            LockHold hold = holds.get(random.nextInt(holds.size()));
                            MetaKey key = MetaKey.of("data/x");
                            try {
                                if (hold.store()
                                        .create(key, MetaValue.utf8("w" + step))
                                        .isApplied()) {
                                    assertThat(hold.epoch())
                                            .as("step %s: applied writes' epochs never go back", step)
                                            .isGreaterThanOrEqualTo(highestWriteEpoch);
                                    highestWriteEpoch = hold.epoch();
                                    store.delete(key, store.get(key).orElseThrow());
                                }
                            } catch (FencedException expected) {
                                // refused
                            } catch (OutcomeUnknownException lost) {
                                // a plain data write's lost answer: the explorer's data, not the lock's state
                                store.get(key).ifPresent(v -> store.delete(key, v));
                            }
                        }
                    }
                }
                lostHeard.forEach((hold, times) ->
                        assertThat(times).as("%s heard lost once", hold).isEqualTo(1));
            }
            return acquired;
        } finally {
            locks[0].close();
            locks[1].close();
        }
    }

    @Test
    void journal_keepsItsRules_underRandomSteps() {
        long seed = Runs.seed("recipe-explorer-journal");
        long ended = 0;
        for (int run = 0; run < RUNS; run++) {
            ended += exploreJournal(new Random(seed + run));
        }
        Runs.figures("recipe-explorer-journal", RUNS + " runs x " + STEPS + " steps, " + ended + " operations ended");
    }

    private long exploreJournal(Random random) {
        InMemoryMetaStore store = InMemoryMetaStore.create();
        ManualClock wall = new ManualClock(1_767_225_600_000L);
        Node[] nodes = {new Node("node-a", store), new Node("node-b", store)};
        LeaderElection[] elections = new LeaderElection[2];
        OperationJournal[] journals = new OperationJournal[2];
        for (int i = 0; i < 2; i++) {
            elections[i] = LeaderElection.builder()
                    .store(store)
                    .leaseKey(LEASE_KEY)
                    .candidateId(nodes[i].id)
                    .leaseDuration(LEASE)
                    .safetyMargin(MARGIN)
                    .renewInterval(RENEW)
                    .clock(wall)
                    .ticker(nodes[i].ticker)
                    .listenerExecutor(Runnable::run)
                    .build();
            journals[i] = OperationJournal.builder()
                    .store(FencedMetaStore.over(nodes[i].network, elections[i]))
                    .authority(elections[i])
                    .clock(wall)
                    .build();
        }
        Map<String, OperationRecord> terminal = new HashMap<>();
        List<OperationRecord> inProgress = new ArrayList<>();
        long ended = 0;
        try {
            for (int step = 0; step < STEPS; step++) {
                int who = random.nextInt(2);
                OperationJournal journal = journals[who];
                String op = "op-" + random.nextInt(6);
                try {
                    switch (random.nextInt(8)) {
                        case 0 -> quietly(elections[who]::campaignOnce);
                        case 1 -> {
                            BeginResult begun = journal.begin("acme", op, "sha256:ab");
                            OperationRecord now = journal.get("acme", op).orElseThrow();
                            if (begun.isStarted()) {
                                assertThat(now)
                                        .as("step %s: a started begin's record is the caller's", step)
                                        .isEqualTo(begun.record());
                                inProgress.add(begun.record());
                            }
                        }
                        case 2, 3 -> {
                            if (!inProgress.isEmpty()) {
                                OperationRecord record = inProgress.get(random.nextInt(inProgress.size()));
                                boolean complete = random.nextBoolean();
                                JournalWriteResult result = complete
                                        ? journal.complete(record, "done-" + step)
                                        : journal.abandon(record, "no-" + step);
                                if (result.isApplied()) {
                                    OperationRecord written = result.record().orElseThrow();
                                    assertThat(journal.get("acme", record.id().operationId()))
                                            .contains(written);
                                    assertThat(terminal.putIfAbsent(record.id().operationId(), written))
                                            .as("step %s: an operation ends once", step)
                                            .isNull();
                                    ended++;
                                }
                            }
                        }
                        case 4 -> {
                            Optional<OperationRecord> current = journal.get("acme", op);
                            if (current.isPresent()
                                    && current.get().state() == OperationState.IN_PROGRESS
                                    && elections[who]
                                            .currentGuard()
                                            .map(g -> g.epoch()
                                                    > current.get().owner().epoch())
                                            .orElse(false)) {
                                JournalWriteResult recovered = journal.recover(current.get());
                                if (recovered.isApplied()) {
                                    assertThat(journal.get("acme", op)).isEqualTo(recovered.record());
                                    inProgress.add(recovered.record().orElseThrow());
                                }
                            }
                        }
                        case 5 ->
                            nodes[who]
                                    .network
                                    .heal()
                                    .failNext(
                                            Call.WRITE,
                                            random.nextBoolean()
                                                    ? Fault.ANSWER_LOST
                                                    : Fault.NEVER_ARRIVED); // the next write only
                        case 6 -> {
                            Duration d = Duration.ofMillis(random.nextInt((int) RENEW.toMillis() + 1));
                            wall.advance(d);
                            nodes[0].ticker.advance(d);
                            nodes[1].ticker.advance(d);
                        }
                        default -> {
                            Duration d = random.nextBoolean()
                                    ? LEASE.minus(MARGIN)
                                    : Duration.ofMillis(random.nextInt(3_000));
                            wall.advance(d);
                            nodes[1 - who].ticker.advance(d);
                        }
                    }
                } catch (FencedException | io.lake.meta.InvalidArgumentException expected) {
                    // not leading, or the record is of another epoch: refused, nothing written
                } catch (OutcomeUnknownException e) {
                    // a lost answer is passed on only when the resend was fenced: the term ended while the
                    // answer was out, so the write may or may not have applied (a later leader recovers it)
                    assertThat(e.getSuppressed())
                            .as("step %s: a lost answer resolved unless the term ended meanwhile", step)
                            .anySatisfy(s -> assertThat(s).isInstanceOf(FencedException.class));
                }
                for (Map.Entry<String, OperationRecord> done : terminal.entrySet()) {
                    assertThat(store.get(MetaKey.of("ops/acme/" + done.getKey()))
                                    .orElseThrow())
                            .as("step %s: an ended operation never changes", step)
                            .isEqualTo(done.getValue().storedValue());
                }
            }
            return ended;
        } finally {
            elections[0].close();
            elections[1].close();
        }
    }

    private static <T> Optional<T> quietly(java.util.function.Supplier<T> call) {
        try {
            return Optional.ofNullable(call.get());
        } catch (MetaStoreException e) {
            return Optional.empty(); // a lost answer or a store failure: the next steps resolve it
        }
    }
}
