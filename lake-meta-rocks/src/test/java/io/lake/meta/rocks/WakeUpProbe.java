package io.lake.meta.rocks;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Not a test: measures what waking a parked thread costs on this machine, the price the group
 * commit pays for every writer of a batch. Two threads hand a turn back and forth with
 * park/unpark; the round trip is two wake-ups. Run once on a quiet machine and once with
 * {@code busy} (a third thread keeps the CPUs from idling), to see how much of a wake-up is the
 * CPU coming out of idle.
 *
 * <pre>{@code
 * java -cp <test classpath> io.lake.meta.rocks.WakeUpProbe [busy]
 * }</pre>
 */
public final class WakeUpProbe {

    private static volatile int turn;

    private WakeUpProbe() {}

    public static void main(String[] args) throws Exception {
        boolean busy = args.length > 0 && args[0].equals("busy");
        AtomicBoolean stop = new AtomicBoolean();
        Thread spinner = new Thread(
                () -> {
                    long x = 0;
                    while (!stop.get()) {
                        x += System.nanoTime() & 1; // keeps a CPU out of idle
                    }
                    if (x == 42) {
                        System.out.print("");
                    }
                },
                "busy-spinner");
        if (busy) {
            spinner.setDaemon(true);
            spinner.start();
        }
        int rounds = 20_000;
        Thread[] players = new Thread[2];
        for (int p = 0; p < 2; p++) {
            int me = p;
            players[p] = new Thread(
                    () -> {
                        for (int i = 0; i < rounds; i++) {
                            while (turn != me) {
                                LockSupport.park();
                            }
                            turn = 1 - me;
                            LockSupport.unpark(players[1 - me]);
                        }
                    },
                    "player-" + p);
        }
        long start = System.nanoTime();
        players[0].start();
        players[1].start();
        players[0].join();
        players[1].join();
        double micros = (System.nanoTime() - start) / 1e3 / rounds;
        stop.set(true);
        System.out.printf(
                "%s: %.1f us per round trip (two wake-ups), %.1f us per wake-up%n",
                busy ? "other CPU kept busy" : "quiet", micros, micros / 2);
    }
}
