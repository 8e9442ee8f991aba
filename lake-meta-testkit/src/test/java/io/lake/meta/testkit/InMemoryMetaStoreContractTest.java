package io.lake.meta.testkit;

import io.lake.meta.MetaStore;
import io.lake.meta.spi.RaceHooks;

/** The whole contract suite, run on the model itself. */
class InMemoryMetaStoreContractTest extends MetaStoreContract {

    @Override
    protected MetaStore openStore(RaceHooks hooks) {
        return InMemoryMetaStore.withHooks(hooks);
    }
}
