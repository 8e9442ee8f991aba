package io.lake.meta.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.StoreClosedException;
import io.lake.meta.fenced.FencedMetaStore;
import io.lake.meta.lease.LeaseAuthority;
import io.lake.meta.lease.LeaseGuard;
import io.lake.meta.spi.ForwardingMetaStore;
import io.lake.meta.watch.Watch;
import io.lake.meta.watch.WatchEvent;
import io.lake.meta.watch.WatchListener;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A fenced store's watches: reads of the delegate, not fenced, ended with the fenced store. */
class FencedWatchTest {

    private static final KeyPrefix NS1 = KeyPrefix.of("tbl/ns1/");
    private static final MetaKey A = MetaKey.of("tbl/ns1/a");

    /** Never leads: a fenced store over it cannot write, and can still watch. */
    private static final LeaseAuthority DEPOSED = new LeaseAuthority() {
        @Override
        public MetaKey leaseKey() {
            return MetaKey.of("lease/catalog");
        }

        @Override
        public Optional<LeaseGuard> currentGuard() {
            return Optional.empty();
        }
    };

    /** The model, remembering which of its watches were closed. */
    private static final class ClosesRecorded extends ForwardingMetaStore {
        final List<Watch> closed = new ArrayList<>();

        ClosesRecorded() {
            super(InMemoryMetaStore.create());
        }

        @Override
        public Watch watch(KeyPrefix prefix, WatchListener listener) {
            Watch inner = super.watch(prefix, listener);
            return new Watch() {
                @Override
                public KeyPrefix prefix() {
                    return inner.prefix();
                }

                @Override
                public void close() {
                    synchronized (closed) {
                        closed.add(this);
                    }
                    inner.close();
                }
            };
        }
    }

    private final ClosesRecorded delegate = new ClosesRecorded();
    private final FencedMetaStore fenced = FencedMetaStore.over(delegate, DEPOSED);

    @AfterEach
    void closeDelegate() {
        delegate.close();
    }

    @Test
    void aWatchThroughTheFencedStore_hearsTheDelegatesWrites_withoutALease() throws Exception {
        LinkedBlockingQueue<WatchEvent> heard = new LinkedBlockingQueue<>();
        Watch watch = fenced.watch(NS1, heard::add);

        delegate.create(A, MetaValue.utf8("1"));

        assertThat(heard.poll(30, TimeUnit.SECONDS)).isEqualTo(WatchEvent.changed(A, MetaValue.utf8("1")));
        assertThat(watch.prefix()).isEqualTo(NS1);
    }

    @Test
    void closingTheFencedStore_closesItsWatches_butNotTheDelegate_andLaterWatchesAreRefused() {
        fenced.watch(NS1, event -> {});
        fenced.watch(KeyPrefix.of("tbl/"), event -> {});
        Watch closedEarlier = fenced.watch(NS1, event -> {});
        closedEarlier.close();

        fenced.close();

        assertThat(delegate.closed).hasSize(3);
        assertThatThrownBy(() -> fenced.watch(NS1, event -> {})).isInstanceOf(StoreClosedException.class);
        assertThat(delegate.get(A)).as("the delegate is still open").isEmpty();
    }
}
