package io.lake.meta.testkit.outside;

import io.lake.meta.MetaStore;
import io.lake.meta.metrics.MeteredMetaStore;
import io.lake.meta.spi.RaceHooks;
import io.lake.meta.testkit.InMemoryMetaStore;
import io.lake.meta.testkit.MetaStoreContract;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/** The whole contract through the Micrometer decorator: metering changes no answer. */
class MeteredMetaStoreContractTest extends MetaStoreContract {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @Override
    protected MetaStore openStore(RaceHooks hooks) {
        return MeteredMetaStore.builder().store(InMemoryMetaStore.withHooks(hooks)).registry(registry).backend("memory").build();
    }
}
