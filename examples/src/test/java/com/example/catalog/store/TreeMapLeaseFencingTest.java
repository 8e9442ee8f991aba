package com.example.catalog.store;

import io.lake.meta.MetaStore;
import io.lake.meta.spi.RaceHooks;
import io.lake.meta.testkit.lease.LeaseFencingContract;

/** The lease and fencing suite on the example's own backend. */
class TreeMapLeaseFencingTest extends LeaseFencingContract {

    @Override
    protected MetaStore openStore() {
        return new TreeMapMetaStore(RaceHooks.NONE);
    }
}
