package io.lake.meta.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.InvalidArgumentException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The one listener list of the recipes (issue 23's delivery rules, kept): events go out in the
 * order posted, only when flushed (never under the poster's lock), on the executor; a slow
 * listener holds up no poster, a re-entrant one no delivery, a failing one no other listener.
 */
class ListenersTest {

    private final ExecutorService thread = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        thread.shutdownNow();
    }

    private static Listeners<Consumer<String>> on(Executor executor) {
        return new Listeners<>("test listener", executor, LoggerFactory.getLogger(ListenersTest.class));
    }

    @Test
    void events_areDeliveredInOrder_onlyOnceFlushed_toTheListenersRegisteredWhenPosted() {
        Listeners<Consumer<String>> listeners = on(Runnable::run);
        List<String> heard = new CopyOnWriteArrayList<>();
        listeners.add(heard::add);
        listeners.post("a", l -> l.accept("a"));
        listeners.post("b", l -> l.accept("b"));
        assertThat(heard)
                .as("nothing runs where the event is posted (under the recipe's lock)")
                .isEmpty();
        listeners.add(e -> heard.add("late " + e));
        listeners.flush();
        assertThat(heard).containsExactly("a", "b");
    }

    @Test
    void aSlowListener_holdsUpNoPoster() throws InterruptedException {
        Listeners<Consumer<String>> listeners = on(thread);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch bothHeard = new CountDownLatch(2);
        listeners.add(e -> {
            if (e.equals("first")) {
                awaitUninterruptibly(release);
            }
            bothHeard.countDown();
        });
        listeners.post("first", l -> l.accept("first"));
        listeners.flush();
        // the listener is blocked on "first": posting and flushing the next event returns at once
        listeners.post("second", l -> l.accept("second"));
        listeners.flush();
        assertThat(bothHeard.getCount()).isEqualTo(2);
        release.countDown();
        assertThat(bothHeard.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aReentrantListener_isDeliveredItsOwnEventAfterTheCurrentOne_notInside() {
        Listeners<Consumer<String>> listeners = on(Runnable::run);
        List<String> heard = new CopyOnWriteArrayList<>();
        listeners.add(e -> {
            heard.add("start " + e);
            if (e.equals("outer")) {
                listeners.post("inner", l -> l.accept("inner"));
                listeners.flush(); // a delivery is under way on this thread: queued, not nested
            }
            heard.add("end " + e);
        });
        listeners.post("outer", l -> l.accept("outer"));
        listeners.flush();
        assertThat(heard).containsExactly("start outer", "end outer", "start inner", "end inner");
    }

    @Test
    void aFailingListener_isSkipped_theOthersHearTheEvent() {
        Listeners<Consumer<String>> listeners = on(Runnable::run);
        List<String> heard = new CopyOnWriteArrayList<>();
        listeners.add(e -> {
            throw new IllegalStateException("listener bug");
        });
        listeners.add(e -> {
            throw new AssertionError("an assert in a listener is that listener's failure");
        });
        listeners.add(heard::add);
        listeners.post("a", l -> l.accept("a"));
        listeners.flush();
        assertThat(heard).containsExactly("a");
    }

    @Test
    void aRefusingExecutor_dropsTheQueuedEvents_andLaterFlushesDeliverAgain() {
        boolean[] refuse = {true};
        List<String> heard = new CopyOnWriteArrayList<>();
        Listeners<Consumer<String>> listeners = on(task -> {
            if (refuse[0]) {
                throw new RejectedExecutionException("shut down");
            }
            task.run();
        });
        listeners.add(heard::add);
        listeners.post("dropped", l -> l.accept("dropped"));
        listeners.flush();
        refuse[0] = false;
        listeners.post("kept", l -> l.accept("kept"));
        listeners.flush();
        assertThat(heard).containsExactly("kept");
    }

    @Test
    void anExecutorThatFailsToTakeTheDelivery_failsNoPoster_andTheNextFlushDeliversTheKeptEvents() {
        boolean[] fail = {true};
        List<String> heard = new CopyOnWriteArrayList<>();
        Listeners<Consumer<String>> listeners = on(task -> {
            if (fail[0]) {
                // not a refusal: an executor's own failure (a pool that cannot start a thread throws
                // OutOfMemoryError, which would also end this test's JVM)
                throw new IllegalStateException("could not start a delivery thread");
            }
            task.run();
        });
        listeners.add(heard::add);
        listeners.post("kept", l -> l.accept("kept"));
        listeners.flush(); // the recipe that flushed (a round that won the lease) is not failed
        fail[0] = false;
        listeners.post("next", l -> l.accept("next"));
        listeners.flush();
        assertThat(heard).containsExactly("kept", "next");
    }

    @Test
    void aVirtualMachineErrorFromAListener_onADirectExecutor_reachesTheFlushingThread_andTheNextFlushDeliversAgain() {
        List<String> heard = new CopyOnWriteArrayList<>();
        Listeners<Consumer<String>> listeners = on(Runnable::run);
        listeners.add(e -> {
            if (e.equals("fatal")) {
                throw new StackOverflowError("the JVM is failing, not a hand-over");
            }
            heard.add(e);
        });
        listeners.post("fatal", l -> l.accept("fatal"));

        assertThatThrownBy(listeners::flush).isInstanceOf(StackOverflowError.class);

        listeners.post("next", l -> l.accept("next"));
        listeners.flush();
        assertThat(heard).containsExactly("next");
    }

    @Test
    void aNullListener_isRefused() {
        assertThatThrownBy(() -> on(Runnable::run).add(null)).isInstanceOf(InvalidArgumentException.class);
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
