package io.lake.meta.dynamo.metrics;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.dynamo.BackfillPage;
import io.lake.meta.dynamo.BackfillPage.BackfillTotals;
import io.lake.meta.dynamo.DynamoMigration;
import io.lake.meta.dynamo.FinalizeResult;
import io.lake.meta.dynamo.MigrationStatus;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToDoubleFunction;

/**
 * Micrometer meters for one {@link DynamoMigration}'s progress, all tagged {@code legacy_table}
 * and {@code table}:
 * <ul>
 *   <li>{@code lake.meta.migration.items} (function counter; tag {@code kind}: {@code scanned},
 *       {@code copied}, {@code already_equal}, {@code reloaded}): the backfill's durable totals,
 *       as its cursor records them, so a restarted job goes on from where the last one stopped;</li>
 *   <li>{@code lake.meta.migration.pages} (function counter): backfill pages completed;</li>
 *   <li>{@code lake.meta.migration.backfill.done} (gauge): 1 once the backfill reached the end
 *       of the legacy table, else 0;</li>
 *   <li>{@code lake.meta.migration.finalizations} (counter; tag {@code outcome}: {@code finalized},
 *       {@code already_finalized}, {@code backfill_incomplete}, {@code verification_failed}):
 *       every finalize this process ran.</li>
 * </ul>
 * The migration reports results rather than events, so hand each one over as it comes; the
 * calls return their argument:
 * <pre>{@code
 * MigrationMetrics metrics = MigrationMetrics.forTables("meta-v1", "meta");
 * metrics.bindTo(meterRegistry);
 * metrics.record(migration.status());          // where a restarted job begins
 * while (!metrics.record(migration.backfillPage(500)).done()) { }
 * metrics.record(migration.finalizeMigration(500));
 * }</pre>
 * Thread-safe. Micrometer is an optional dependency of {@code lake-meta-dynamo}: only this
 * package uses it.
 *
 * @since 0.1.0
 */
public final class MigrationMetrics implements MeterBinder {

    private final Tags tags;
    private final AtomicReference<BackfillTotals> totals =
            new AtomicReference<>(new BackfillTotals(0, 0, 0, 0, 0, false));
    private final AtomicReference<MeterRegistry> registry = new AtomicReference<>();

    private MigrationMetrics(Tags tags) {
        this.tags = tags;
    }

    /**
     * Meters for the migration from {@code legacyTable} to {@code table} (the names become tags).
     *
     * @throws InvalidArgumentException if either is null or blank
     */
    public static MigrationMetrics forTables(String legacyTable, String table) {
        return new MigrationMetrics(
                Tags.of("legacy_table", required(legacyTable, "legacyTable"), "table", required(table, "table")));
    }

    /**
     * {@inheritDoc}
     *
     * @throws InvalidArgumentException if {@code registry} is null
     * @throws IllegalStateException if these meters are already bound to a registry
     */
    @Override
    public void bindTo(MeterRegistry registry) {
        if (registry == null) {
            throw new InvalidArgumentException("registry must not be null");
        }
        if (!this.registry.compareAndSet(null, registry)) {
            throw new IllegalStateException("these migration meters are already bound to a registry");
        }
        items(registry, "scanned", BackfillTotals::scanned);
        items(registry, "copied", BackfillTotals::copied);
        items(registry, "already_equal", BackfillTotals::alreadyEqual);
        items(registry, "reloaded", BackfillTotals::reloaded);
        FunctionCounter.builder(
                        "lake.meta.migration.pages", totals, t -> current(t).pages())
                .description("backfill pages completed (the durable cursor's total)")
                .tags(tags)
                .register(registry);
        Gauge.builder(
                        "lake.meta.migration.backfill.done",
                        totals,
                        t -> current(t).done() ? 1 : 0)
                .description("1 once the backfill reached the end of the legacy table")
                .tags(tags)
                .strongReference(true)
                .register(registry);
    }

    /**
     * Takes the backfill's totals from {@code status} (for a process that resumes a migration).
     *
     * @return {@code status}
     * @throws InvalidArgumentException if {@code status} is null
     */
    public MigrationStatus record(MigrationStatus status) {
        if (status == null) {
            throw new InvalidArgumentException("status must not be null");
        }
        advance(status.backfill());
        return status;
    }

    /**
     * Takes the totals after {@code page}.
     *
     * @return {@code page}
     * @throws InvalidArgumentException if {@code page} is null
     */
    public BackfillPage record(BackfillPage page) {
        if (page == null) {
            throw new InvalidArgumentException("page must not be null");
        }
        advance(page.totals());
        return page;
    }

    /**
     * Counts {@code result} by its outcome.
     *
     * @return {@code result}
     * @throws InvalidArgumentException if {@code result} is null
     * @throws IllegalStateException if these meters are not bound to a registry yet
     */
    public FinalizeResult record(FinalizeResult result) {
        if (result == null) {
            throw new InvalidArgumentException("result must not be null");
        }
        MeterRegistry bound = registry.get();
        if (bound == null) {
            throw new IllegalStateException("bind these migration meters to a registry before recording a finalize");
        }
        Counter.builder("lake.meta.migration.finalizations")
                .description("finalize runs, by outcome")
                .tags(tags)
                .tag("outcome", result.outcome().name().toLowerCase(Locale.ROOT))
                .register(bound)
                .increment();
        return result;
    }

    /** Totals only grow: a result read before a later one (two threads) cannot move them back. */
    private void advance(BackfillTotals next) {
        totals.accumulateAndGet(next, (current, offered) -> offered.pages() >= current.pages() ? offered : current);
    }

    private void items(MeterRegistry registry, String kind, ToDoubleFunction<BackfillTotals> total) {
        FunctionCounter.builder("lake.meta.migration.items", totals, t -> total.applyAsDouble(current(t)))
                .description("legacy items the backfill handled, by kind (the durable cursor's totals)")
                .tags(tags)
                .tag("kind", kind)
                .register(registry);
    }

    /** The totals; the reference starts with zeros and is only ever set to a record. */
    private static BackfillTotals current(AtomicReference<BackfillTotals> totals) {
        return Objects.requireNonNull(totals.get());
    }

    private static String required(String name, String what) {
        if (name == null || name.isBlank()) {
            throw new InvalidArgumentException(
                    what + " must be a table name, got " + (name == null ? "null" : "'" + name + "'"));
        }
        return name;
    }

    @Override
    public String toString() {
        return "MigrationMetrics" + tags;
    }
}
