package io.lake.meta.testkit.maintenance;

import io.lake.meta.MetaStore;
import io.lake.meta.testkit.InMemoryMetaStore;

/** The paged maintenance suite on the in-memory model store. */
class InMemoryMaintenanceTest extends MaintenanceContract {

    @Override
    protected MetaStore openStore() {
        return InMemoryMetaStore.create();
    }
}
