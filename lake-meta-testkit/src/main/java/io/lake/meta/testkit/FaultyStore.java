package io.lake.meta.testkit;

import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionResult;
import io.lake.meta.WriteResult;
import io.lake.meta.spi.ForwardingMetaStore;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A store that fails on cue: the faults a network or a crashing process causes, injected into the
 * calls a test arms; every other call is forwarded. One decorator for every fault the suites need:
 *
 * <pre>{@code
 * FaultyStore network = FaultyStore.over(store);
 * network.failNext(Call.WRITE, Fault.ANSWER_LOST);              // the next write applies; its answer is lost
 * network.failNext(Call.GET, 2, Fault.UNAVAILABLE);             // the next two reads fail; nothing is read
 * network.failNext(Call.DELETE, Fault.thrown(new Crash()));     // the process "dies" before its next delete
 * network.failNext(Call.APPLY, Fault.ANSWER_LOST.meanwhile(() -> rival.next()));  // another writer acts meanwhile
 * }</pre>
 *
 * <p>Faults fire in the order they were armed: a call is decided by the first armed fault it
 * matches, and forwarded when it matches none. The store does not close the store it wraps: that
 * belongs to the test. Thread-safe.
 *
 * @since 0.1.0
 */
public final class FaultyStore extends ForwardingMetaStore {

    /** The calls a fault can be armed on: one method of the store, or a family of them. */
    public enum Call {
        /** {@link MetaStore#get}. */
        GET,
        /** {@link MetaStore#getAll}. */
        GET_ALL,
        /** {@link MetaStore#page(PageRequest)}. */
        PAGE,
        /** Any read: {@code get}, {@code getAll}, {@code page}. */
        READ,
        /** A plain write: {@link MetaStore#apply} (and {@code create}, {@code update}, {@code delete}, which call it). */
        APPLY,
        /** A plain write that deletes. */
        DELETE,
        /** {@link MetaStore#applyGuarded}. */
        APPLY_GUARDED,
        /** {@link MetaStore#transact(Transaction)}. */
        TRANSACT,
        /** Any write: {@code apply}, {@code applyGuarded}, {@code transact}. */
        WRITE,
        /** Any of the above. */
        ANY;

        /** Whether a call of the method {@code method} (never a family) with {@code argument} is one of these. */
        boolean matches(Call method, @Nullable Object argument) {
            return switch (this) {
                case READ -> method == GET || method == GET_ALL || method == PAGE;
                case WRITE -> method == APPLY || method == APPLY_GUARDED || method == TRANSACT;
                case DELETE -> method == APPLY && argument instanceof Mutation.Delete;
                case ANY -> true;
                default -> this == method;
            };
        }
    }

    /** What an armed call does instead of answering. Immutable. */
    public static final class Fault {

        /** Not sent: the caller gets a retryable {@link StoreUnavailableException}, as when the store cannot be reached. */
        public static final Fault UNAVAILABLE = new Fault(
                Kind.BEFORE_SENDING, () -> new StoreUnavailableException("injected: store unavailable"), null);

        /**
         * Sent (a write applies), then the answer is lost: the caller gets
         * {@link OutcomeUnknownException}, as after a network cut.
         */
        public static final Fault ANSWER_LOST = new Fault(
                Kind.AFTER_SENDING,
                () -> new OutcomeUnknownException("injected: the answer was lost after the write", null),
                null);

        /** Never arrives (nothing applies), and the caller gets {@link OutcomeUnknownException}. */
        public static final Fault NEVER_ARRIVED = new Fault(
                Kind.BEFORE_SENDING,
                () -> new OutcomeUnknownException("injected: the answer was lost, the write never arrived", null),
                null);

        /**
         * Sent twice, as a client resends a request whose answer it lost: the caller gets the answer
         * to the second (for a compare-and-set that applied, a conflict carrying the caller's own
         * new bytes).
         */
        public static final Fault RESENT = new Fault(Kind.RESENT, null, null);

        private enum Kind {
            BEFORE_SENDING,
            AFTER_SENDING,
            RESENT
        }

        private final Kind kind;
        /** What the caller gets; null only for {@link Kind#RESENT}, which answers. */
        private final @Nullable Supplier<Throwable> failure;

        private final @Nullable Runnable meanwhile;

        private Fault(Kind kind, @Nullable Supplier<Throwable> failure, @Nullable Runnable meanwhile) {
            this.kind = kind;
            this.failure = failure;
            this.meanwhile = meanwhile;
        }

        /**
         * Not sent: {@code failure} is thrown instead, whatever it is (an {@link Error}, a checked
         * exception, a simulated crash).
         *
         * @throws IllegalArgumentException if {@code failure} is null
         */
        public static Fault thrown(Throwable failure) {
            return new Fault(Kind.BEFORE_SENDING, constant(failure), null);
        }

        /**
         * Sent (a write applies), then {@code failure} is thrown: the process died after the commit.
         *
         * @throws IllegalArgumentException if {@code failure} is null
         */
        public static Fault thrownAfterSending(Throwable failure) {
            return new Fault(Kind.AFTER_SENDING, constant(failure), null);
        }

        /**
         * This fault, with {@code meanwhile} run after the call was sent (or not) and before the
         * caller hears anything: another writer acting while the answer is in flight, so a test
         * decides exactly what the caller finds when it looks again.
         *
         * @throws IllegalArgumentException if {@code meanwhile} is null
         */
        public Fault meanwhile(@Nullable Runnable meanwhile) {
            if (meanwhile == null) {
                throw new IllegalArgumentException("meanwhile must not be null");
            }
            return new Fault(kind, failure, meanwhile);
        }

        private static Supplier<Throwable> constant(@Nullable Throwable failure) {
            if (failure == null) {
                throw new IllegalArgumentException("failure must not be null");
            }
            return () -> failure;
        }

        /** Runs {@code call} as this fault says. */
        <R> R inject(Supplier<R> call) {
            R answer = kind == Kind.BEFORE_SENDING ? null : call.get(); // sent: a write applies
            if (kind == Kind.RESENT) {
                answer = call.get(); // the caller hears the second answer
            }
            if (meanwhile != null) {
                meanwhile.run();
            }
            if (kind == Kind.RESENT && answer != null) {
                return answer;
            }
            throw FaultyStore.<RuntimeException>sneaky(
                    Objects.requireNonNull(failure, "a fault that does not answer fails")
                            .get());
        }

        @Override
        public String toString() {
            return "Fault[" + kind + (failure == null ? "" : ", " + failure.get())
                    + (meanwhile == null ? "" : ", meanwhile") + "]";
        }
    }

    /** One armed fault: the calls it matches, how many to let through first, how many to fail. */
    private static final class Armed {
        final Call call;
        final Fault fault;
        int skip;
        int remaining;

        Armed(Call call, int skip, int remaining, Fault fault) {
            this.call = call;
            this.skip = skip;
            this.remaining = remaining;
            this.fault = fault;
        }
    }

    private final List<Armed> armed = new ArrayList<>();
    /** Calls received per method (never a family). */
    private final Map<Call, Integer> calls = new EnumMap<>(Call.class);

    private int deletes;
    private int injected;

    private FaultyStore(MetaStore store) {
        super(store);
    }

    /**
     * A faulty view of {@code store}, with nothing armed yet.
     *
     * @throws IllegalArgumentException if {@code store} is null
     */
    public static FaultyStore over(MetaStore store) {
        if (store == null) {
            throw new IllegalArgumentException("store must not be null");
        }
        return new FaultyStore(store);
    }

    /** Fails the next call matching {@code call} with {@code fault}. */
    public FaultyStore failNext(Call call, Fault fault) {
        return arm(call, 0, 1, fault);
    }

    /**
     * Fails the next {@code times} calls matching {@code call} with {@code fault}.
     *
     * @throws IllegalArgumentException if {@code times} is below 1
     */
    public FaultyStore failNext(Call call, int times, Fault fault) {
        if (times < 1) {
            throw new IllegalArgumentException("times must be at least 1, got " + times);
        }
        return arm(call, 0, times, fault);
    }

    /**
     * Lets {@code nth - 1} calls matching {@code call} through, then fails the next one with
     * {@code fault}: the {@code nth} such call from now.
     *
     * @throws IllegalArgumentException if {@code nth} is below 1
     */
    public FaultyStore failNth(Call call, int nth, Fault fault) {
        if (nth < 1) {
            throw new IllegalArgumentException("nth must be at least 1, got " + nth);
        }
        return arm(call, nth - 1, 1, fault);
    }

    /** Fails every call matching {@code call} with {@code fault}, until {@link #heal()}. */
    public FaultyStore failEvery(Call call, Fault fault) {
        return arm(call, 0, Integer.MAX_VALUE, fault);
    }

    /** Disarms every fault: from now on every call is forwarded. */
    public synchronized FaultyStore heal() {
        armed.clear();
        return this;
    }

    /** Whether a fault is still armed. */
    public synchronized boolean isArmed() {
        return !armed.isEmpty();
    }

    /** How many calls failed so far (or were resent). */
    public synchronized int injected() {
        return injected;
    }

    /** How many calls matching {@code call} the store received so far, failed or forwarded. */
    public synchronized int calls(Call call) {
        if (call == Call.DELETE) {
            return deletes;
        }
        int n = 0;
        for (Map.Entry<Call, Integer> counted : calls.entrySet()) {
            if (call.matches(counted.getKey(), null)) {
                n += counted.getValue();
            }
        }
        return n;
    }

    private synchronized FaultyStore arm(Call call, int skip, int times, Fault fault) {
        if (call == null || fault == null) {
            throw new IllegalArgumentException((call == null ? "call" : "fault") + " must not be null");
        }
        armed.add(new Armed(call, skip, times, fault));
        return this;
    }

    /** The fault that decides this call, or null to forward it; counts the call. */
    private synchronized @Nullable Fault decide(Call method, Object argument) {
        calls.merge(method, 1, Integer::sum);
        if (Call.DELETE.matches(method, argument)) {
            deletes++;
        }
        for (Iterator<Armed> it = armed.iterator(); it.hasNext(); ) {
            Armed a = it.next();
            if (!a.call.matches(method, argument)) {
                continue;
            }
            if (a.skip > 0) {
                a.skip--;
                return null;
            }
            if (a.remaining != Integer.MAX_VALUE && --a.remaining == 0) {
                it.remove();
            }
            injected++;
            return a.fault;
        }
        return null;
    }

    private <R> R call(Call method, Object argument, Supplier<R> call) {
        Fault fault = decide(method, argument);
        return fault == null ? call.get() : fault.inject(call);
    }

    @Override
    public Optional<MetaValue> get(MetaKey key) {
        return call(Call.GET, key, () -> super.get(key));
    }

    @Override
    public Map<MetaKey, MetaValue> getAll(Collection<MetaKey> keys) {
        return call(Call.GET_ALL, keys, () -> super.getAll(keys));
    }

    @Override
    public Page page(PageRequest request) {
        return call(Call.PAGE, request, () -> super.page(request));
    }

    @Override
    public WriteResult apply(Mutation mutation) {
        return call(Call.APPLY, mutation, () -> super.apply(mutation));
    }

    @Override
    public GuardedResult applyGuarded(GuardedMutation mutation) {
        return call(Call.APPLY_GUARDED, mutation, () -> super.applyGuarded(mutation));
    }

    @Override
    public TransactionResult transact(Transaction transaction) {
        return call(Call.TRANSACT, transaction, () -> super.transact(transaction));
    }

    @Override
    public void close() {
        // the wrapped store belongs to the test
    }

    @Override
    public String toString() {
        return "FaultyStore[" + delegate() + "]";
    }

    @SuppressWarnings({"unchecked", "TypeParameterUnusedInFormals"}) // throws any Throwable unchecked
    private static <T extends Throwable> T sneaky(Throwable failure) throws T {
        throw (T) failure;
    }
}
