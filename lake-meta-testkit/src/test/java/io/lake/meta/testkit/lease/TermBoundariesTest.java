package io.lake.meta.testkit.lease;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Ticker;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.lease.LeadershipStatus;
import io.lake.meta.spi.ForwardingMetaStore;
import io.lake.meta.testkit.InMemoryMetaStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Issue 23 items 11 and 12: where a term ends, on one clock and during a round's read. */
class TermBoundariesTest {

    private static final MetaKey LEASE_KEY = MetaKey.of("lease/writer");
    private static final long START_MILLIS = 1_767_225_600_000L;

    private final InMemoryMetaStore store = InMemoryMetaStore.create();

    @AfterEach
    void close() {
        store.close();
    }

    /** Wall clock and ticker from one nanosecond source, as on one machine whose clocks agree. */
    private static final class OneClock extends Clock implements Ticker {
        final AtomicLong nanos;

        OneClock(long startNanos) {
            nanos = new AtomicLong(startNanos);
        }

        void advance(Duration d) {
            nanos.addAndGet(d.toNanos());
        }

        @Override
        public long read() {
            return nanos.get();
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochSecond(0, nanos.get());
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException();
        }
    }

    private LeaderElection election(
            String id, Clock clock, Ticker ticker, MetaStore via, Duration lease, LeadershipEvents events) {
        return LeaderElection.builder()
                .store(via)
                .leaseKey(LEASE_KEY)
                .candidateId(id)
                .leaseDuration(lease)
                .renewInterval(lease.dividedBy(3))
                .clock(clock)
                .ticker(ticker)
                .listener(events)
                .listenerExecutor(Runnable::run)
                .build();
    }

    /** Item 11: with zero margin on one clock, the holder's view ends no later than anyone may take over. */
    @Test
    void holdersDeadline_isRoundedDown_soNoTwoHoldersOverlapOnOneClock() {
        OneClock clock = new OneClock(START_MILLIS * 1_000_000L + 700_000L); // 0.7 ms into a millisecond
        Duration lease = Duration.ofMillis(10);
        LeaderElection a = election("node-a", clock, clock, store, lease, new LeadershipEvents());
        LeaderElection b = election("node-b", clock, clock, store, lease, new LeadershipEvents());
        a.campaignOnce();
        assertThat(a.isLeader()).isTrue();

        clock.advance(Duration.ofNanos(9_300_000L)); // exactly the record's expiry millisecond
        assertThat(b.campaignOnce()).as("b may take over from here").isEqualTo(new LeadershipStatus.Leader(2));

        assertThat(a.isLeader())
                .as("a's own view ended no later than b's takeover")
                .isFalse();
    }

    /** Item 12: a deadline passing during the round's read ends term 1 audibly before term 2 starts. */
    @Test
    void deadlinePassingDuringTheRoundsRead_announcesLost1_thenGained2() {
        ManualTicker ticker = new ManualTicker();
        ManualClock wall = new ManualClock(START_MILLIS);
        Duration lease = Duration.ofSeconds(10);
        AtomicReference<Runnable> duringNextRead = new AtomicReference<>();
        MetaStore slowReads = new ForwardingMetaStore(store) {
            @Override
            public Optional<MetaValue> get(MetaKey key) {
                Runnable hook = duringNextRead.getAndSet(null);
                if (hook != null) {
                    hook.run();
                }
                return super.get(key);
            }

            @Override
            public void close() {}
        };
        LeadershipEvents events = new LeadershipEvents();
        LeaderElection a = election("node-a", wall, ticker, slowReads, lease, events);
        a.campaignOnce();

        duringNextRead.set(() -> ticker.advance(lease)); // the local deadline passes while the read is out
        LeadershipStatus status = a.campaignOnce();

        assertThat(status).isEqualTo(new LeadershipStatus.Leader(2));
        assertThat(events.events()).containsExactly("gained 1", "lost 1", "gained 2");
    }
}
