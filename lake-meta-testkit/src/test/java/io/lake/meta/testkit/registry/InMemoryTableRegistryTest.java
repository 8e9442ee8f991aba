package io.lake.meta.testkit.registry;

import io.lake.meta.MetaStore;
import io.lake.meta.testkit.InMemoryMetaStore;

/** The table registry suite on the in-memory model store. */
class InMemoryTableRegistryTest extends TableRegistryContract {

    @Override
    protected MetaStore openStore() {
        return InMemoryMetaStore.create();
    }
}
