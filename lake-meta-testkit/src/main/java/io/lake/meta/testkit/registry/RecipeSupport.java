package io.lake.meta.testkit.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.Entry;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.fenced.FencedMetaStore;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.testkit.PausePoints;
import io.lake.meta.testkit.lease.LeaseSupport;
import io.lake.meta.testkit.lease.ManualTicker;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;

/**
 * The plumbing the recipe suites (registry, maintenance, operation journal, fenced publication)
 * share, on top of the lease suite's: a fresh store per test, manual clocks, leaders that write
 * through fenced stores, a background thread for the racer a test holds at a pause point, and a
 * full read of the store to prove that nothing moved. Backends do not extend this class: extend
 * the suites.
 *
 * @since 0.1.0
 */
public abstract class RecipeSupport extends LeaseSupport {

    private final ExecutorService background = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "recipe-racer");
        t.setDaemon(true);
        return t;
    });

    @AfterEach
    final void stopBackground() throws InterruptedException {
        background.shutdownNow();
        background.awaitTermination(PausePoints.DEFAULT_SAFETY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** A candidate on the raw store that has campaigned and leads (epoch 1 on a fresh store). */
    protected LeaderElection leader(String id, ManualTicker ticker) {
        LeaderElection election = candidate(id, ticker);
        election.campaignOnce();
        assertThat(election.currentGuard()).as("%s leads", id).isPresent();
        return election;
    }

    /** A fenced view of {@code via} for {@code election}. */
    protected static MetaStore fenced(MetaStore via, LeaderElection election) {
        return FencedMetaStore.over(via, election);
    }

    /**
     * Lets the current lease expire by the shared wall clock and has {@code id} take it over; the
     * old leader's own ticker is untouched, so it still believes it leads: only the store's guard
     * check stands between it and the data.
     */
    protected LeaderElection takeOver(String id) {
        wall.advance(LEASE);
        LeaderElection next = candidate(id, new ManualTicker());
        next.campaignOnce();
        assertThat(next.currentGuard()).as("%s took over", id).isPresent();
        return next;
    }

    /** Runs {@code call} on a background thread (a racer the test holds at a pause point). */
    protected <T> Future<T> inBackground(Callable<T> call) {
        return background.submit(call);
    }

    /** Every entry of {@code families}, read page by page on the raw store, in key order. */
    protected Map<MetaKey, MetaValue> contents(String... families) {
        Map<MetaKey, MetaValue> all = new TreeMap<>();
        for (String family : families) {
            Optional<PageRequest> request = Optional.of(PageRequest.first(KeyPrefix.family(family), 100));
            while (request.isPresent()) {
                Page page = store.page(request.get());
                for (Entry entry : page.entries()) {
                    all.put(entry.key(), entry.value());
                }
                request = request.get().next(page);
            }
        }
        return all;
    }
}
