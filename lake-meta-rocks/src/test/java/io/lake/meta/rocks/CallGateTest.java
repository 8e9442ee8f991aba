package io.lake.meta.rocks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The close's drain check (issue 23, item 7): it must never report "no call inside" while one is.
 * Calls run on threads the test picks by the stripe they use; racing calls are run from a hook
 * the check calls between two stripes, so every interleaving here is exact.
 */
class CallGateTest {

    /** Runs {@code call} on a fresh thread using {@code stripe}, and waits for it. */
    private static <T> T onStripe(CallGate gate, int stripe, Supplier<T> call) throws Exception {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread thread = pick(gate, stripe, () -> result.complete(call.get()));
        thread.start();
        thread.join(TimeUnit.SECONDS.toMillis(30));
        return result.get(0, TimeUnit.SECONDS);
    }

    private static Thread pick(CallGate gate, int stripe, Runnable body) {
        while (true) {
            Thread thread = new Thread(body);
            if (gate.slotOf(thread) == gate.slotOfStripe(stripe)) {
                return thread;
            }
        }
    }

    @Test
    void aCallInside_keepsTheGateUndrained_evenWhileOtherCallsEnterAndLeaveBetweenTheStripesTheCheckReads()
            throws Exception {
        int[] racing = {0};
        CallGate[] self = new CallGate[1];
        IntConsumer betweenStripes = stripe -> {
            // after the check found stripe 0 empty: calls race through both stripes, refused or not
            try {
                for (int s = 0; s < 2; s++) {
                    int slot = onStripe(self[0], s, self[0]::enter);
                    if (slot != CallGate.REFUSED) {
                        onStripe(self[0], s, () -> {
                            self[0].leave(slot);
                            return null;
                        });
                    }
                    racing[0]++;
                }
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        };
        self[0] = new CallGate(2, betweenStripes);
        CallGate gate = self[0];
        int held = onStripe(gate, 1, gate::enter); // a call inside, on the stripe read last
        assertThat(held).isNotEqualTo(CallGate.REFUSED);

        gate.refuseNewCalls();

        assertThat(gate.isDrained()).as("drained while a call is inside").isFalse();
        assertThat(racing[0]).as("racing calls run between the stripes").isEqualTo(2);
        gate.leave(held);
        assertThat(gate.isDrained()).isTrue();
    }

    @Test
    void aCallThatLeavesOnAnotherThreadThanItEntered_leavesByItsOwnStripe() throws Exception {
        CallGate gate = new CallGate(2, stripe -> {});
        int slot = onStripe(gate, 0, gate::enter);
        onStripe(gate, 1, () -> {
            gate.leave(slot);
            return null;
        });

        gate.refuseNewCalls();

        assertThat(gate.isDrained()).isTrue();
    }

    @Test
    void afterRefusal_callsAreRefused_andTheCloseWaitsForTheCallInFlight() throws Exception {
        CallGate gate = new CallGate(8, stripe -> {});
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread call = new Thread(() -> {
            int slot = gate.enter();
            inside.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            gate.leave(slot);
        });
        call.start();
        assertThat(inside.await(30, TimeUnit.SECONDS)).isTrue();

        gate.refuseNewCalls();
        assertThat(gate.enter()).isEqualTo(CallGate.REFUSED);
        Thread closer = new Thread(gate::awaitDrained);
        closer.start();
        while (closer.getState() != Thread.State.WAITING) {
            assertThat(closer.getState())
                    .as("the close waits for the call in flight")
                    .isNotEqualTo(Thread.State.TERMINATED);
            Thread.onSpinWait();
        }
        release.countDown();
        closer.join(TimeUnit.SECONDS.toMillis(30));

        assertThat(closer.getState()).isEqualTo(Thread.State.TERMINATED);
    }
}
