package io.lake.meta.metrics;

import io.lake.meta.FencedException;
import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaStoreException;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionResult;
import io.lake.meta.WriteResult;
import io.lake.meta.spi.ForwardingMetaStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A {@link MetaStore} that records Micrometer meters for every call and forwards it, unchanged, to
 * the store it wraps:
 *
 * <pre>{@code
 * MetaStore store = MeteredMetaStore.builder()
 *         .store(RocksDbMetaStore.builder().directory(dir).build())
 *         .registry(meterRegistry)
 *         .backend("rocksdb")
 *         .build();
 * }</pre>
 *
 * <ul>
 *   <li>{@code lake.meta.operation} (timer; tags {@code backend}, {@code operation} —
 *       {@code get}, {@code get_all}, {@code create}, {@code update}, {@code delete},
 *       {@code apply_guarded}, {@code transact}, {@code page} — and {@code outcome}: {@code found},
 *       {@code absent}, {@code applied}, {@code conflict}, {@code guard_rejected},
 *       {@code target_conflict}, {@code not_applied}, {@code ok} for reads that answered, or
 *       {@code error});</li>
 *   <li>{@code lake.meta.conflicts} (counter; {@code backend}, {@code operation}): compare-and-set
 *       conflicts, target conflicts of guarded mutations and transactions that did not apply;</li>
 *   <li>{@code lake.meta.guard.rejections} (counter; {@code backend}): guarded mutations whose guard
 *       moved;</li>
 *   <li>{@code lake.meta.fenced.refusals} (counter; {@code backend}, {@code operation}): calls
 *       refused with {@link FencedException} (a fenced store without a valid lease);</li>
 *   <li>{@code lake.meta.errors} (counter; {@code backend}, {@code operation}, {@code cause} — the
 *       exception's simple class name — and {@code retryable}): every
 *       {@link MetaStoreException} a call threw, fenced refusals and bad arguments included;</li>
 *   <li>{@code lake.meta.page.items.evaluated} (distribution summary; {@code backend}): items a
 *       page read ({@link io.lake.meta.PageCost#itemsEvaluated()}).</li>
 * </ul>
 *
 * <p>Tags never carry keys or values. Meters are created when first needed and cached by
 * Micrometer; the overhead per call is a few map lookups and a clock read. Closing the metered
 * store closes the wrapped one. Thread-safe when the wrapped store is.
 *
 * @since 0.1.0
 */
public final class MeteredMetaStore extends ForwardingMetaStore {

    private final MeterRegistry registry;
    private final String backend;
    private final DistributionSummary pageItems;
    private final Counter guardRejections;

    private MeteredMetaStore(Builder b) {
        super(Objects.requireNonNull(b.store)); // build() checked the three
        this.registry = Objects.requireNonNull(b.registry);
        this.backend = Objects.requireNonNull(b.backend);
        this.pageItems = DistributionSummary.builder(MeterNames.PAGE_ITEMS_EVALUATED)
                .description("items a page read, look-ahead included")
                .baseUnit("items")
                .tag(MeterNames.BACKEND, backend)
                .register(registry);
        this.guardRejections = Counter.builder(MeterNames.GUARD_REJECTIONS)
                .description("guarded mutations refused because the guard key no longer held the expected bytes")
                .tag(MeterNames.BACKEND, backend)
                .register(registry);
    }

    /** A builder: store, registry and backend are required. */
    public static Builder builder() {
        return new Builder();
    }

    /** {@inheritDoc} Timed as {@code get}, outcome {@code found} or {@code absent}. */
    @Override
    public Optional<MetaValue> get(MetaKey key) {
        return timed("get", () -> super.get(key), found -> found.isPresent() ? "found" : "absent");
    }

    /** {@inheritDoc} Timed as {@code get_all}, outcome {@code ok}. */
    @Override
    public Map<MetaKey, MetaValue> getAll(Collection<MetaKey> keys) {
        return timed("get_all", () -> super.getAll(keys), found -> "ok");
    }

    /** {@inheritDoc} Timed as {@code create}, {@code update} or {@code delete}; conflicts counted. */
    @Override
    public WriteResult apply(Mutation mutation) {
        String operation = mutation instanceof Mutation.Create
                ? "create"
                : mutation instanceof Mutation.Update
                        ? "update"
                        : mutation instanceof Mutation.Delete ? "delete" : "apply";
        return timed(operation, () -> super.apply(mutation), result -> {
            if (result.isConflict()) {
                conflict(operation);
                return "conflict";
            }
            return "applied";
        });
    }

    /** {@inheritDoc} Timed as {@code apply_guarded}; guard rejections and target conflicts counted. */
    @Override
    public GuardedResult applyGuarded(GuardedMutation mutation) {
        return timed("apply_guarded", () -> super.applyGuarded(mutation), result -> {
            switch (result.outcome()) {
                case GUARD_REJECTED:
                    guardRejections.increment();
                    return "guard_rejected";
                case TARGET_CONFLICT:
                    conflict("apply_guarded");
                    return "target_conflict";
                default:
                    return "applied";
            }
        });
    }

    /** {@inheritDoc} Timed as {@code transact}; transactions that did not apply counted as conflicts. */
    @Override
    public TransactionResult transact(Transaction transaction) {
        return timed("transact", () -> super.transact(transaction), result -> {
            if (result.isApplied()) {
                return "applied";
            }
            conflict("transact");
            return "not_applied";
        });
    }

    /** {@inheritDoc} Timed as {@code page}; the items it evaluated recorded. */
    @Override
    public Page page(PageRequest request) {
        return timed("page", () -> super.page(request), page -> {
            pageItems.record((double) page.cost().itemsEvaluated());
            return "ok";
        });
    }

    private <T> T timed(String operation, Supplier<T> call, Function<T, String> outcome) {
        long start = registry.config().clock().monotonicTime();
        String answered = "error";
        try {
            T result = call.get();
            answered = outcome.apply(result);
            return result;
        } catch (MetaStoreException e) {
            failed(operation, e);
            throw e;
        } finally {
            Timer.builder(MeterNames.OPERATION)
                    .description("MetaStore calls, by operation and outcome")
                    .tags(Tags.of(
                            MeterNames.BACKEND,
                            backend,
                            MeterNames.OPERATION_TAG,
                            operation,
                            MeterNames.OUTCOME,
                            answered))
                    .register(registry)
                    .record(
                            registry.config().clock().monotonicTime() - start,
                            java.util.concurrent.TimeUnit.NANOSECONDS);
        }
    }

    private void conflict(String operation) {
        Counter.builder(MeterNames.CONFLICTS)
                .description("compare-and-set conflicts, guarded target conflicts and transactions that did not apply")
                .tags(MeterNames.BACKEND, backend, MeterNames.OPERATION_TAG, operation)
                .register(registry)
                .increment();
    }

    private void failed(String operation, MetaStoreException e) {
        if (e instanceof FencedException) {
            Counter.builder(MeterNames.FENCED_REFUSALS)
                    .description("calls refused because the caller held no valid lease")
                    .tags(MeterNames.BACKEND, backend, MeterNames.OPERATION_TAG, operation)
                    .register(registry)
                    .increment();
        }
        Counter.builder(MeterNames.ERRORS)
                .description("MetaStore exceptions, by cause and whether a retry may succeed")
                .tags(
                        MeterNames.BACKEND,
                        backend,
                        MeterNames.OPERATION_TAG,
                        operation,
                        MeterNames.CAUSE,
                        e.getClass().getSimpleName(),
                        MeterNames.RETRYABLE,
                        String.valueOf(e.retryable()))
                .register(registry)
                .increment();
    }

    /** {@inheritDoc} */
    @Override
    public String toString() {
        return "MeteredMetaStore[" + backend + ", " + delegate() + "]";
    }

    /**
     * Configures a {@link MeteredMetaStore}. A null argument raises {@link InvalidArgumentException},
     * as does a blank backend name; setting an option twice or building without a required one
     * raises {@link IllegalStateException}. Not thread-safe.
     */
    public static final class Builder {
        private @Nullable MetaStore store;
        private @Nullable MeterRegistry registry;
        private @Nullable String backend;

        private Builder() {}

        /** The store to meter; closing the metered store closes it. */
        public Builder store(MetaStore store) {
            this.store = set(this.store, store, "store");
            return this;
        }

        /** The registry the meters are registered in. */
        public Builder registry(MeterRegistry registry) {
            this.registry = set(this.registry, registry, "registry");
            return this;
        }

        /** The {@code backend} tag's value, such as {@code rocksdb} or {@code dynamodb}: a few lower-case words. */
        public Builder backend(String backend) {
            String name = set(this.backend, backend, "backend");
            if (name.isBlank()) {
                throw new InvalidArgumentException(
                        "backend must not be blank: name the store, such as rocksdb or dynamodb");
            }
            this.backend = name;
            return this;
        }

        /**
         * The metered store.
         *
         * @throws IllegalStateException if store, registry or backend is missing
         */
        public MeteredMetaStore build() {
            required(store, "store");
            required(registry, "registry");
            required(backend, "backend");
            return new MeteredMetaStore(this);
        }

        private static <T> T set(@Nullable T current, T value, String name) {
            if (value == null) {
                throw new InvalidArgumentException(name + " must not be null");
            }
            if (current != null) {
                throw new IllegalStateException(name + " was already set");
            }
            return value;
        }

        private static void required(@Nullable Object value, String name) {
            if (value == null) {
                throw new IllegalStateException(name + " is required: call " + name + "(...) before build()");
            }
        }
    }
}
