package io.lake.meta.testkit.outside;

import io.lake.meta.MetaStore;
import io.lake.meta.metrics.MeteredMetaStore;
import io.lake.meta.testkit.Backend;
import io.lake.meta.testkit.BackendFactory;
import io.lake.meta.testkit.InMemoryMetaStore;
import io.lake.meta.testkit.MetaStoreSuite;
import io.lake.meta.testkit.StoreContext;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/** The whole contract through the Micrometer decorator: metering changes no answer. */
@Backend(MeteredMetaStoreContractTest.Metered.class)
class MeteredMetaStoreContractTest extends MetaStoreSuite {

    static final class Metered implements BackendFactory {
        private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

        @Override
        public MetaStore open(StoreContext context) {
            return MeteredMetaStore.builder()
                    .store(InMemoryMetaStore.withHooks(context.raceHooks()))
                    .registry(registry)
                    .backend("memory")
                    .build();
        }
    }
}
