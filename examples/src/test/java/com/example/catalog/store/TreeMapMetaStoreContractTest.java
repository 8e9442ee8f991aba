package com.example.catalog.store;

import io.lake.meta.MetaStore;
import io.lake.meta.spi.RaceHooks;
import io.lake.meta.testkit.MetaStoreContract;

/** The whole MetaStore contract on the example's own backend. */
class TreeMapMetaStoreContractTest extends MetaStoreContract {

    @Override
    protected MetaStore openStore(RaceHooks hooks) {
        return new TreeMapMetaStore(hooks);
    }
}
