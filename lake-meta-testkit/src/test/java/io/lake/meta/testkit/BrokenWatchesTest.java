package io.lake.meta.testkit;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.Mutation;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionResult;
import io.lake.meta.WriteResult;
import io.lake.meta.spi.ForwardingMetaStore;
import io.lake.meta.spi.WatchRegistry;
import io.lake.meta.watch.Watch;
import io.lake.meta.watch.WatchEvent;
import io.lake.meta.watch.WatchListener;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The watch tests of the contract must catch broken watches: here they run against some and must fail. */
class BrokenWatchesTest {

    private ContractByHand watches;

    /** The contract on a broken store, waiting 2 s instead of 30 for an event that never comes. */
    private ContractByHand on(Supplier<MetaStore> broken) throws Exception {
        watches = ContractByHand.on(ContractByHand.backend(
                hooks -> broken.get(),
                Capabilities.all(),
                SuiteSettings.defaults().withWatchDeliveryTimeout(Duration.ofSeconds(2))));
        return watches;
    }

    @AfterEach
    void close() throws Exception {
        if (watches != null) {
            watches.close();
        }
    }

    private static void assertContractFails(Executable test, String why) {
        assertThatThrownBy(test::execute).isInstanceOf(AssertionError.class).hasMessageContaining(why);
    }

    /** A model store whose watches hand their events to {@code wrap}'s listener instead of the caller's. */
    private abstract static class WrappedWatches extends ForwardingMetaStore {
        WrappedWatches() {
            super(InMemoryMetaStore.create());
        }

        abstract WatchListener wrap(WatchListener listener);

        @Override
        public Watch watch(KeyPrefix prefix, WatchListener listener) {
            return super.watch(prefix, wrap(listener));
        }
    }

    @Test
    void aWatchThatReportsOnlyChanges_isCaught() throws Exception {
        Supplier<MetaStore> changesOnly = () -> new WrappedWatches() {
            @Override
            WatchListener wrap(WatchListener listener) {
                return event -> {
                    if (!event.isInitial()) {
                        listener.onChange(event);
                    }
                };
            }
        };

        assertContractFails(on(changesOnly)::theContentsComeFirst_asInitialEvents_thenTheChanges, "no event");
        close();
        assertContractFails(
                on(changesOnly)
                        ::aListenerThatAppliesEveryEvent_endsWithThePrefixsContents_changesUndoneAndRedoneIncluded,
                "tbl/ns1/a");
    }

    @Test
    void aWatchThatReportsTheWholeFamily_isCaught() throws Exception {
        Supplier<MetaStore> familyWide = () -> new ForwardingMetaStore(InMemoryMetaStore.create()) {
            @Override
            public Watch watch(KeyPrefix prefix, WatchListener listener) {
                return super.watch(KeyPrefix.family(prefix.family()), listener);
            }
        };

        assertContractFails(
                on(familyWide)::keysOutsideThePrefix_areNeverReported_siblingPrefixesAndOtherFamiliesIncluded,
                "tbl/ns10/a");
    }

    @Test
    void aWatchThatReportsAnOlderValueAfterANewerOne_isCaught() throws Exception {
        Supplier<MetaStore> goingBack = () -> new WrappedWatches() {
            @Override
            WatchListener wrap(WatchListener listener) {
                Map<MetaKey, WatchEvent> first = new HashMap<>();
                return event -> {
                    listener.onChange(event);
                    WatchEvent earliest = first.putIfAbsent(event.key(), event);
                    if (earliest != null) {
                        listener.onChange(earliest); // a stale redelivery
                    }
                };
            }
        };

        assertContractFails(
                on(goingBack)::eachKeysEvents_neverGoBack_andEndWithItsLatestValue_evenForAListenerThatFellBehind,
                "sorted");
    }

    @Test
    void aWatchWhoseCloseDoesNotStopIt_isCaught() throws Exception {
        Supplier<MetaStore> neverStops = () -> new ForwardingMetaStore(InMemoryMetaStore.create()) {
            @Override
            public Watch watch(KeyPrefix prefix, WatchListener listener) {
                Watch running = super.watch(prefix, listener);
                return new Watch() {
                    @Override
                    public KeyPrefix prefix() {
                        return running.prefix();
                    }

                    @Override
                    public void close() {}
                };
            }
        };

        assertContractFails(
                on(neverStops)::close_stopsDelivery_evenOfWhatWasPending_isIdempotent_andLeavesOtherWatchesRunning,
                "events of the closed watch");
    }

    @Test
    void aStoreWhoseCloseLeavesItsWatchesRunning_isCaught() throws Exception {
        Supplier<MetaStore> leavesWatches = () -> new ForwardingMetaStore(InMemoryMetaStore.create()) {
            private volatile boolean closed;

            @Override
            public Watch watch(KeyPrefix prefix, WatchListener listener) {
                if (closed) {
                    throw new io.lake.meta.StoreClosedException("closed");
                }
                return super.watch(prefix, listener);
            }

            @Override
            public void close() {
                closed = true; // and forgets to close the model, whose watches go on
            }
        };

        assertContractFails(
                on(leavesWatches)
                        ::closingTheStore_endsItsWatches_pendingEventsIncluded_andWatchingAClosedStore_isStoreClosed,
                "tbl/ns1/b");
    }

    @Test
    void aWatchThatEndsWhenItsListenerThrows_isCaught() throws Exception {
        Supplier<MetaStore> fragile = () -> new ForwardingMetaStore(InMemoryMetaStore.create()) {
            @Override
            public Watch watch(KeyPrefix prefix, WatchListener listener) {
                Watch[] self = new Watch[1];
                boolean[] dead = new boolean[1];
                self[0] = super.watch(prefix, event -> {
                    if (dead[0]) {
                        return;
                    }
                    try {
                        listener.onChange(event);
                    } catch (RuntimeException e) {
                        dead[0] = true;
                    }
                });
                return self[0];
            }
        };

        assertContractFails(on(fragile)::aListenerThatThrows_keepsHearingLaterEvents, "no event");
    }

    /** Calls its listeners on the writer's thread, inside the write: a slow listener holds every writer up. */
    private static final class SynchronousWatchesStore extends ForwardingMetaStore {
        private final List<Watch> watches = new CopyOnWriteArrayList<>();
        private final Map<Watch, WatchListener> listeners = new HashMap<>();

        SynchronousWatchesStore() {
            super(InMemoryMetaStore.create());
        }

        @Override
        public Watch watch(KeyPrefix prefix, WatchListener listener) {
            Watch watch = new Watch() {
                @Override
                public KeyPrefix prefix() {
                    return prefix;
                }

                @Override
                public void close() {
                    watches.remove(this);
                }
            };
            synchronized (listeners) {
                listeners.put(watch, listener);
            }
            watches.add(watch);
            return watch;
        }

        @Override
        public WriteResult apply(Mutation mutation) {
            WriteResult result = super.apply(mutation);
            if (result.isApplied()) {
                tell(List.of(mutation));
            }
            return result;
        }

        @Override
        public TransactionResult transact(Transaction transaction) {
            TransactionResult result = super.transact(transaction);
            if (result.isApplied()) {
                tell(transaction.mutations());
            }
            return result;
        }

        private void tell(List<Mutation> written) {
            for (Watch watch : watches) {
                WatchListener listener;
                synchronized (listeners) {
                    listener = listeners.get(watch);
                }
                WatchRegistry.changesOf(written).stream()
                        .filter(e -> watch.prefix().contains(e.key()))
                        .forEach(listener::onChange);
            }
        }
    }

    @Test
    void aWatchThatCallsItsListenerOnTheWritersThread_isCaught() throws Exception {
        assertContractFails(
                on(SynchronousWatchesStore::new)
                        ::aListenerThatIsBlocked_holdsUpNoWriter_andNoOtherWatch_thenHearsTheLatestValues,
                "latch released in time");
    }

    @Test
    void theWatchTestsPass_onTheModel() throws Exception {
        on(InMemoryMetaStore::create)
                .eachKeysEvents_neverGoBack_andEndWithItsLatestValue_evenForAListenerThatFellBehind();
    }
}
