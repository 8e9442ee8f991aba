package io.lake.meta.metrics;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.lease.LeadershipListener;
import io.lake.meta.lease.LeaseGuard;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Micrometer meters for one {@link LeaderElection}, all tagged {@code lease} (the lease key) and
 * {@code candidate} (this candidate's id):
 * <ul>
 *   <li>{@code lake.meta.leadership.leader} (gauge): 1 while this candidate holds a valid guard,
 *       else 0; read from {@link LeaderElection#isLeader()}, no I/O;</li>
 *   <li>{@code lake.meta.leadership.epoch} (gauge): the epoch of the current guard, else of the
 *       last term this candidate led (0 before it ever led);</li>
 *   <li>{@code lake.meta.leadership.transitions} (counter; tag {@code event}: {@code gained} or
 *       {@code lost}): leadership events, as the election's listeners hear them.</li>
 * </ul>
 *
 * <pre>{@code
 * new LeaderElectionMetrics(election).bindTo(meterRegistry);
 * }</pre>
 *
 * Bind it once per registry. It adds a listener to the election when bound.
 *
 * @since 0.1.0
 */
public final class LeaderElectionMetrics implements MeterBinder {

    private final LeaderElection election;
    private final AtomicLong lastEpoch = new AtomicLong();

    /**
     * Meters for {@code election}.
     *
     * @throws InvalidArgumentException if {@code election} is null
     */
    public LeaderElectionMetrics(LeaderElection election) {
        if (election == null) {
            throw new InvalidArgumentException("election must not be null");
        }
        this.election = election;
    }

    /**
     * {@inheritDoc}
     *
     * @throws InvalidArgumentException if {@code registry} is null
     */
    @Override
    public void bindTo(MeterRegistry registry) {
        if (registry == null) {
            throw new InvalidArgumentException("registry must not be null");
        }
        Tags tags =
                Tags.of(MeterNames.LEASE, election.leaseKey().toString(), MeterNames.CANDIDATE, election.candidateId());
        Gauge.builder(MeterNames.LEADERSHIP_LEADER, election, e -> e.isLeader() ? 1 : 0)
                .description("1 while this candidate holds a valid lease guard, else 0")
                .tags(tags)
                .strongReference(true)
                .register(registry);
        Gauge.builder(MeterNames.LEADERSHIP_EPOCH, this, LeaderElectionMetrics::epoch)
                .description("the epoch of the current guard, else of the last term this candidate led")
                .tags(tags)
                .strongReference(true)
                .register(registry);
        Counter gained = transitions(registry, tags, "gained");
        Counter lost = transitions(registry, tags, "lost");
        election.addListener(new LeadershipListener() {
            @Override
            public void gained(LeaseGuard guard) {
                lastEpoch.set(guard.epoch());
                gained.increment();
            }

            @Override
            public void lost(long epoch, String reason) {
                lost.increment();
            }
        });
    }

    private static Counter transitions(MeterRegistry registry, Tags tags, String event) {
        return Counter.builder(MeterNames.LEADERSHIP_TRANSITIONS)
                .description("leadership gained and lost, as the election's listeners hear it")
                .tags(tags)
                .tag(MeterNames.EVENT, event)
                .register(registry);
    }

    private double epoch() {
        return election.currentGuard().map(LeaseGuard::epoch).orElse(lastEpoch.get());
    }
}
