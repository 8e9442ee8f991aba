package io.lake.meta.testkit.outside;

import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaStore;
import io.lake.meta.spi.ForwardingMetaStore;
import io.lake.meta.spi.PollingWatcher;
import io.lake.meta.testkit.Backend;
import io.lake.meta.testkit.BackendFactory;
import io.lake.meta.testkit.InMemoryMetaStore;
import io.lake.meta.testkit.MetaStoreSuite;
import io.lake.meta.testkit.StoreContext;
import io.lake.meta.watch.Watch;
import io.lake.meta.watch.WatchListener;
import java.time.Duration;

/**
 * The whole contract on the model store with its native watches replaced by the
 * {@link PollingWatcher}, polling every 10 ms: what a third-party backend that cannot see its
 * commits would do. Proves the watch tests hold for a polling watch without DynamoDB.
 */
@Backend(PollingWatchesMetaStoreContractTest.Polled.class)
class PollingWatchesMetaStoreContractTest extends MetaStoreSuite {

    static final class Polled implements BackendFactory {
        @Override
        public MetaStore open(StoreContext context) {
            return new PolledStore(InMemoryMetaStore.withHooks(context.raceHooks()));
        }
    }

    private static final class PolledStore extends ForwardingMetaStore {
        private final PollingWatcher watcher = new PollingWatcher(this, Duration.ofMillis(10), "polled model");

        PolledStore(InMemoryMetaStore model) {
            super(model);
        }

        @Override
        public Watch watch(KeyPrefix prefix, WatchListener listener) {
            delegate().get(io.lake.meta.MetaKey.of("tbl/open-check")); // a closed store refuses, as the contract asks
            return watcher.watch(prefix, listener);
        }

        @Override
        public void close() {
            watcher.close();
            super.close();
        }
    }
}
