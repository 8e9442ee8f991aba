package io.lake.meta.testkit.lease;

import io.lake.meta.MetaStore;
import io.lake.meta.testkit.InMemoryMetaStore;

/** The lease and fencing suite on the in-memory model store. */
public class InMemoryLeaseFencingTest extends LeaseFencingContract {

    @Override
    protected MetaStore openStore() {
        return InMemoryMetaStore.create();
    }
}
