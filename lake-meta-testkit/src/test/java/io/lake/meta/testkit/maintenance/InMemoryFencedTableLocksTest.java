package io.lake.meta.testkit.maintenance;

import io.lake.meta.MetaStore;
import io.lake.meta.testkit.InMemoryMetaStore;

/** The fenced table locks suite on the in-memory model store. */
class InMemoryFencedTableLocksTest extends FencedTableLocksContract {

    @Override
    protected MetaStore openStore() {
        return InMemoryMetaStore.create();
    }
}
