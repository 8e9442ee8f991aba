package io.lake.meta.lock;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.internal.Listeners;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.Test;
import org.slf4j.helpers.NOPLogger;

/**
 * A seeded explorer of the recipes' listener delivery ({@link Listeners}, and the lock's
 * {@link MutexAwareDelivery} in front of its executor): random sequences of adding listeners
 * (recording, throwing, re-entrant: posting an event or adding a listener from inside a callback;
 * slow: other posters run while it is in its callback), posting events under a recipe lock,
 * flushing, running the executor's queued work, an executor that refuses or fails to take a task,
 * and shutting the executor down. After every step it checks, per listener: events in the order
 * posted, none twice, none posted before the listener was added, none while the poster holds its
 * lock; and at quiescence: every event reached every listener registered when it was posted,
 * except events queued when the executor refused (dropped, as documented) or posted after shutdown.
 *
 * <p>Deterministic: one thread, a manual executor. A failure names its seed; rerun one with
 * {@code -Dlisteners.explorer.seed=<seed>}, and explore longer with
 * {@code -Dlisteners.explorer.millis=<ms>} (default: 2 s).
 */
class ListenerDeliveryExplorerTest {

    private static final int STEPS = 120;
    /** Re-entrant listeners post from inside callbacks: a cap keeps a chain of them finite. */
    private static final int MAX_EVENTS = 400;

    private static final int MAX_LISTENERS = 12;

    @Test
    void randomSequences_keepOrder_loseNothing_andNeverDeliverUnderTheLock() {
        String only = System.getProperty("listeners.explorer.seed");
        if (only != null) {
            new Run(Long.parseLong(only)).explore();
            return;
        }
        long millis = Long.getLong("listeners.explorer.millis", 2_000);
        long end = System.nanoTime() + millis * 1_000_000;
        long seed = new Random().nextLong();
        int runs = 0;
        do {
            new Run(seed).explore();
            seed = seed * 6364136223846793005L + 1442695040888963407L;
            runs++;
        } while (System.nanoTime() < end);
        assertThat(runs).isPositive();
    }

    /** One seeded sequence. */
    private static final class Run {
        private final long seed;
        private final Random random;
        private final List<String> trace = new ArrayList<>();
        /** The executor's accepted, not yet run tasks (a manual executor). */
        private final ArrayDeque<Runnable> queued = new ArrayDeque<>();

        private final ReentrantLock mutex = new ReentrantLock();
        private final Listeners<IntConsumer> listeners;
        private final MutexAwareDelivery deferring;
        /** What a listener saw that it must not (a listener's own assertion would be caught and logged). */
        private final List<String> violations = new ArrayList<>();

        private final List<Recorder> recorders = new ArrayList<>();
        private final boolean direct;
        private final boolean throughMutex;
        /** Events posted so far: index = event id; value = the recorders registered when posted. */
        private final List<List<Recorder>> posted = new ArrayList<>();
        /** Events that may be lost: queued when the executor refused, or posted after it was shut down. */
        private final Set<Integer> mayBeLost = new HashSet<>();

        private boolean shutDown;
        private int refuseNext;
        private int failNext;
        private boolean posterHoldsItsLock;
        private int nesting;

        Run(long seed) {
            this.seed = seed;
            this.random = new Random(seed);
            this.direct = random.nextBoolean();
            this.throughMutex = random.nextBoolean();
            Executor base = task -> {
                if (shutDown || refuseNext > 0) {
                    refuseNext = Math.max(0, refuseNext - 1);
                    note("executor refuses");
                    markUndeliveredAsMayBeLost();
                    throw new RejectedExecutionException("refused");
                }
                if (failNext > 0) {
                    failNext--;
                    note("executor fails");
                    throw new IllegalStateException("could not start a thread");
                }
                if (direct) {
                    task.run();
                } else {
                    queued.add(task);
                }
            };
            this.deferring = throughMutex ? new MutexAwareDelivery(base, mutex) : null;
            this.listeners =
                    new Listeners<>("explored listener", throughMutex ? deferring : base, NOPLogger.NOP_LOGGER);
            note("direct=" + direct + " throughMutex=" + throughMutex);
        }

        void explore() {
            try {
                for (int step = 0; step < STEPS; step++) {
                    randomStep();
                    checkSafety();
                }
                quiesce();
                checkSafety();
                checkNothingLost();
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError(
                        "listener explorer failed with seed " + seed + " (rerun: -Dlisteners.explorer.seed=" + seed
                                + ")\ntrace:\n  " + String.join("\n  ", trace),
                        e);
            }
        }

        private void randomStep() {
            int pick = random.nextInt(100);
            if (pick < 15) {
                if (recorders.size() < MAX_LISTENERS) {
                    addListener();
                }
            } else if (pick < 55) {
                postAndFlush(random.nextInt(3) + 1);
            } else if (pick < 75) {
                runQueued(random.nextInt(3) + 1);
            } else if (pick < 82) {
                refuseNext++;
                note("next hand-over refused");
            } else if (pick < 88) {
                failNext++;
                note("next hand-over fails");
            } else if (pick < 90 && !shutDown) {
                shutDown = true;
                note("executor shut down");
            } else {
                note("flush");
                listeners.flush();
            }
        }

        private void addListener() {
            int kind = random.nextInt(5);
            Recorder r = new Recorder(recorders.size(), kind, posted.size());
            recorders.add(r);
            listeners.add(r);
            note("add listener " + r);
        }

        /** A recipe's transition: events posted under its lock, flushed after releasing it. */
        private void postAndFlush(int events) {
            if (nesting > 0 && posted.size() >= MAX_EVENTS) {
                return; // from inside a callback: keep chains of re-entrant posts finite
            }
            boolean holdMutex = throughMutex && nesting == 0 && random.nextBoolean();
            if (holdMutex) {
                mutex.lock(); // the lock's mutex around the candidate's round
            }
            try {
                posterHoldsItsLock = true;
                for (int i = 0; i < events; i++) {
                    post();
                }
                posterHoldsItsLock = false;
                listeners.flush();
            } finally {
                posterHoldsItsLock = false;
                if (holdMutex) {
                    mutex.unlock();
                    deferring.released();
                }
            }
        }

        private void post() {
            int id = posted.size();
            posted.add(List.copyOf(recorders));
            if (shutDown) {
                mayBeLost.add(id);
            }
            note("post " + id);
            listeners.post("e" + id, l -> l.accept(id));
        }

        private void runQueued(int tasks) {
            for (int i = 0; i < tasks && !queued.isEmpty(); i++) {
                note("executor runs a task");
                queued.poll().run();
            }
        }

        /** Runs everything and flushes until no event is left (a later event's flush retries kept ones). */
        private void quiesce() {
            shutDownOff();
            for (int round = 0; round < 100; round++) {
                listeners.flush();
                while (!queued.isEmpty()) {
                    queued.poll().run();
                }
            }
            assertThat(queued).as("executor idle").isEmpty();
        }

        private void shutDownOff() {
            refuseNext = 0;
            failNext = 0;
            // a shut-down executor stays so: events posted after it are allowed to be lost
        }

        private void markUndeliveredAsMayBeLost() {
            for (int id = 0; id < posted.size(); id++) {
                for (Recorder r : posted.get(id)) {
                    if (!r.heard.contains(id)) {
                        mayBeLost.add(id);
                    }
                }
            }
        }

        private void checkSafety() {
            assertThat(violations).isEmpty();
            for (Recorder r : recorders) {
                int last = -1;
                for (int id : r.heard) {
                    assertThat(id).as("%s: order (heard %s)", r, r.heard).isGreaterThan(last);
                    assertThat(id)
                            .as("%s: an event posted before it was added (heard %s)", r, r.heard)
                            .isGreaterThanOrEqualTo(r.addedAt);
                    assertThat(posted.get(id))
                            .as("%s heard event %d, posted before it was registered", r, id)
                            .contains(r);
                    last = id;
                }
            }
        }

        private void checkNothingLost() {
            for (int id = 0; id < posted.size(); id++) {
                if (mayBeLost.contains(id)) {
                    continue;
                }
                for (Recorder r : posted.get(id)) {
                    assertThat(r.heard).as("%s lost event %d", r, id).contains(id);
                }
            }
        }

        private void note(String what) {
            trace.add(what);
        }

        /** One listener: records what it hears, then acts as its kind says. */
        private final class Recorder implements IntConsumer {
            final int number;
            final int kind;
            final int addedAt;
            final List<Integer> heard = new ArrayList<>();

            Recorder(int number, int kind, int addedAt) {
                this.number = number;
                this.kind = kind;
                this.addedAt = addedAt;
            }

            @Override
            public void accept(int id) {
                if (posterHoldsItsLock) {
                    violations.add(this + " heard " + id + " while the poster holds its lock");
                }
                if (mutex.isHeldByCurrentThread()) {
                    violations.add(this + " heard " + id + " under the lock's mutex");
                }
                heard.add(id);
                note(this + " heard " + id);
                if (nesting > 2) {
                    return;
                }
                nesting++;
                try {
                    switch (kind) {
                        case 1 -> throw new IllegalStateException("listener bug");
                        case 2 -> { // re-entrant: its recipe makes a transition from inside the callback
                            if (random.nextInt(3) == 0 && posted.size() < MAX_EVENTS) {
                                postAndFlush(1);
                            }
                        }
                        case 3 -> { // re-entrant: registers another listener from inside
                            if (random.nextInt(4) == 0 && recorders.size() < MAX_LISTENERS) {
                                addListener();
                            }
                        }
                        case 4 -> { // slow: other posters and the executor go on while it is in here
                            if (random.nextInt(3) == 0) {
                                randomStep();
                            }
                        }
                        default -> {}
                    }
                } finally {
                    nesting--;
                }
            }

            @Override
            public String toString() {
                return "listener " + number + "/"
                        + switch (kind) {
                            case 1 -> "throwing";
                            case 2 -> "posting";
                            case 3 -> "adding";
                            case 4 -> "slow";
                            default -> "plain";
                        };
            }
        }
    }
}
