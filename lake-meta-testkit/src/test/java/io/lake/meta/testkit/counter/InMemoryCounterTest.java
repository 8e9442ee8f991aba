package io.lake.meta.testkit.counter;

import io.lake.meta.MetaStore;
import io.lake.meta.testkit.InMemoryMetaStore;

/** The counter suite on the in-memory model store. */
class InMemoryCounterTest extends CounterContract {

    @Override
    protected MetaStore openStore() {
        return InMemoryMetaStore.create();
    }
}
